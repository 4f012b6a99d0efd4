import { useState } from 'preact/hooks';
import { api, createOnce, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { type Category, type Dish, menuStrings } from './menu-model';
import type { ModifierGroup } from './modifiers-model';
import { RecipeEditor, type RecipeItem, recipeDrafts, recipeOf, useRecipeStrings } from './RecipeEditor';
import {
  Check,
  centsText,
  Field,
  FormActions,
  NameField,
  RowButton,
  useAction,
  useCommonStrings,
  useFocusWhenShown,
} from './shared';

/**
 * A dish's form: name, price, category, description, whether it is on (not sold out), and the modifier
 * groups a waiter is asked, in order, and its recipe (what a plate takes from the stock). A PUT replaces what it is sent, so every field goes back as read.
 */
export function DishForm({
  dish,
  categories,
  groups,
  recipeItems,
  onSaved,
  onCancel,
}: {
  dish?: Dish;
  categories: Category[];
  groups: ModifierGroup[];
  recipeItems: RecipeItem[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(menuStrings);
  const common = useCommonStrings();
  const recipeStrings = useRecipeStrings();
  const [name, setName] = useState(dish?.name ?? '');
  const [price, setPrice] = useState(dish ? centsText(toCents(dish.price)) : '');
  const [categoryId, setCategoryId] = useState(dish?.category_id ?? categories[0]?.id ?? '');
  const [description, setDescription] = useState(dish?.description ?? '');
  const [available, setAvailable] = useState(dish?.available ?? true);
  const [groupIds, setGroupIds] = useState<string[]>(dish?.modifier_group_ids ?? []);
  const [recipe, setRecipe] = useState(() => recipeDrafts(dish?.recipe));
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const prefix = dish ? 'dish-edit' : 'dish-new';
  const first = useFocusWhenShown<HTMLInputElement>(dish !== undefined);
  const chosenCategory = categories.some((category) => category.id === categoryId)
    ? categoryId
    : (categories[0]?.id ?? '');
  // The linked groups first, in their order, then the others to choose from.
  const linked = groupIds
    .map((id) => groups.find((group) => group.id === id))
    .filter((group): group is ModifierGroup => group !== undefined);
  const others = groups.filter((group) => !groupIds.includes(group.id));

  const toggle = (id: string, on: boolean) =>
    setGroupIds((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));
  const shift = (index: number, by: -1 | 1) =>
    setGroupIds((ids) => {
      const next = ids.filter((id) => groups.some((group) => group.id === id));
      const [moved] = next.splice(index, 1);
      if (moved) next.splice(index + by, 0, moved);
      return next;
    });

  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(price);
    if (cents === undefined) {
      setInvalid(t.badPrice);
      return;
    }
    const lines = recipeOf(recipe);
    if (!lines) {
      setInvalid(recipeStrings.badLine);
      return;
    }
    setInvalid(undefined);
    const body = {
      name: name.trim(),
      price: fromCents(cents),
      category_id: chosenCategory,
      description: description.trim(),
      available,
      modifier_group_ids: linked.map((group) => group.id),
      recipe: lines,
    };
    const done = await action.run(() =>
      dish
        ? writeOnce(() => api.PUT('/dishes/{id}', { params: { path: { id: dish.id } }, body }))
        : createOnce((key) => api.POST('/dishes', { params: { header: { 'idempotency-key': key } }, body })),
    );
    if (!done) return;
    if (!dish) {
      setName('');
      setPrice('');
      setDescription('');
      setAvailable(true);
      setGroupIds([]);
      setRecipe([]);
    }
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {dish ? t.editDish : t.newDish}
        {dish && `: ${dish.name}`}
      </h3>
      <div class="fields">
        <NameField prefix={prefix} label={t.dishName} value={name} onInput={setName} inputRef={first} />
        <Field id={`${prefix}-price`} label={t.price}>
          <input
            id={`${prefix}-price`}
            inputMode="decimal"
            required
            placeholder="12.50"
            value={price}
            onInput={(event) => setPrice(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-category`} label={t.category}>
          <select
            id={`${prefix}-category`}
            value={chosenCategory}
            onChange={(event) => setCategoryId(event.currentTarget.value)}
          >
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${prefix}-description`} label={t.description}>
          <textarea
            id={`${prefix}-description`}
            maxLength={500}
            rows={2}
            value={description}
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
        </Field>
      </div>
      <Check id={`${prefix}-available`} checked={available} onChange={setAvailable}>
        {t.available}
      </Check>
      <fieldset class="modifier-options">
        <legend>{t.modifierGroups}</legend>
        {groups.length === 0 && <p class="muted">{t.noModifierGroups}</p>}
        <ul class="dish-groups stack">
          {linked.map((group, index) => (
            <li key={group.id}>
              <Check id={`${prefix}-group-${group.id}`} checked onChange={(on) => toggle(group.id, on)}>
                {index + 1}. {group.name}
              </Check>
              <RowButton
                label={t.moveUp}
                target={group.name}
                kind="ghost"
                disabled={index === 0}
                onClick={() => shift(index, -1)}
              />
              <RowButton
                label={t.moveDown}
                target={group.name}
                kind="ghost"
                disabled={index === linked.length - 1}
                onClick={() => shift(index, 1)}
              />
            </li>
          ))}
          {others.map((group) => (
            <li key={group.id}>
              <Check
                id={`${prefix}-group-${group.id}`}
                checked={false}
                onChange={(on) => toggle(group.id, on)}
              >
                {group.name}
              </Check>
            </li>
          ))}
        </ul>
      </fieldset>
      <RecipeEditor prefix={`${prefix}-recipe`} items={recipeItems} drafts={recipe} onChange={setRecipe} />
      <Alert message={invalid ?? action.error} />
      <FormActions submitLabel={dish ? common.save : t.addDish} busy={action.busy} onCancel={onCancel} />
    </form>
  );
}
