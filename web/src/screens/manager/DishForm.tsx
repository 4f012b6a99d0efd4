import { useState } from 'preact/hooks';
import { CategoryField, Field, PriceField, RecordForm, useCategoryChoice } from '../../components/FormKit';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { type Category, type Dish, menuStrings } from './menu-model';
import type { ModifierGroup } from './modifiers-model';
import { RecipeEditor, type RecipeItem, recipeDrafts, recipeOf, useRecipeStrings } from './RecipeEditor';
import { Check, centsText, type RecordFormProps, RowButton, useRecordForm } from './shared';

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
}: RecordFormProps & {
  dish?: Dish;
  categories: Category[];
  groups: ModifierGroup[];
  recipeItems: RecipeItem[];
}) {
  const t = useStrings(menuStrings);
  const labels = [t.newDish, t.editDish, t.addDish] as const;
  const form = useRecordForm(dish, '/dishes', 'dish', labels, { onSaved, onCancel });
  const { prefix } = form;
  const recipeStrings = useRecipeStrings();
  const [price, setPrice] = useState(dish ? centsText(toCents(dish.price)) : '');
  const [description, setDescription] = useState(dish?.description ?? '');
  const [available, setAvailable] = useState(dish?.available ?? true);
  const [groupIds, setGroupIds] = useState<string[]>(dish?.modifier_group_ids ?? []);
  const [recipe, setRecipe] = useState(() => recipeDrafts(dish?.recipe));
  const [invalid, setInvalid] = useState<string>();
  const category = useCategoryChoice(categories, dish?.category_id);
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

  const submit = async () => {
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
      name: form.name.trim(),
      price: fromCents(cents),
      category_id: category.chosen,
      description: description.trim(),
      available,
      modifier_group_ids: linked.map((group) => group.id),
      recipe: lines,
    };
    await form.save(body);
  };
  const after = (
    <>
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
    </>
  );
  return (
    <RecordForm {...form.shell} invalid={invalid} onSubmit={submit} after={after}>
      {form.nameField(t.dishName)}
      <PriceField prefix={prefix} label={t.price} value={price} onInput={setPrice} placeholder="12.50" />
      <CategoryField prefix={prefix} label={t.category} choice={category} />
      <Field id={`${prefix}-description`} label={t.description}>
        <textarea
          id={`${prefix}-description`}
          maxLength={500}
          rows={2}
          value={description}
          onInput={(event) => setDescription(event.currentTarget.value)}
        />
      </Field>
    </RecordForm>
  );
}
