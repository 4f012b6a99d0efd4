import { useState } from 'preact/hooks';
import { api, createOnce, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { parseQuantity, useQuantity } from './inventory-model';
import type { Category } from './menu-model';
import {
  Field,
  FormActions,
  NameField,
  RecordTable,
  useAction,
  useCommonStrings,
  useEditing,
  useFocusWhenShown,
  useRemoval,
} from './shared';
import { type Ingredient, stockItemStrings } from './stock-items-model';

const UNITS = ['kg', 'g', 'l', 'ml', 'pcs'];

export function IngredientsCard({
  ingredients,
  categories,
  reload,
}: {
  ingredients: Ingredient[];
  categories: Category[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(stockItemStrings);
  const quantity = useQuantity();
  const { editing, edit, close, saved } = useEditing<Ingredient>(reload);
  const removal = useRemoval(reload);
  const remove = (ingredient: Ingredient) =>
    removal.remove(() =>
      writeOnce(() => api.DELETE('/ingredients/{id}', { params: { path: { id: ingredient.id } } })),
    );
  return (
    <section class="card stack" aria-labelledby="ingredients-title">
      <h2 id="ingredients-title">{t.ingredients}</h2>
      <datalist id="ingredient-units">
        {UNITS.map((unit) => (
          <option key={unit} value={unit} />
        ))}
      </datalist>
      {ingredients.length === 0 ? (
        <p class="muted">{t.noIngredients}</p>
      ) : (
        <RecordTable
          label={t.ingredients}
          records={ingredients}
          columns={[
            { header: t.name, cell: (ingredient) => ingredient.name },
            {
              header: t.quantity,
              cell: (ingredient) => quantity(ingredient.quantity, ingredient.unit),
              class: 'num',
            },
            {
              header: t.reorderLevel,
              cell: (ingredient) => quantity(ingredient.reorder_level, ingredient.unit),
              class: 'num hide-narrow',
            },
          ]}
          busy={removal.busy}
          actionsOf={(ingredient) => ({
            target: ingredient.name,
            onEdit: () => edit(ingredient),
            onDelete: () => void remove(ingredient),
          })}
        />
      )}
      <Alert message={removal.error} />
      {categories.length === 0 ? (
        <p class="muted">{t.chooseCategory}</p>
      ) : editing ? (
        <IngredientForm
          key={editing.id}
          ingredient={editing}
          categories={categories}
          onSaved={saved}
          onCancel={close}
        />
      ) : (
        <IngredientForm key="new" categories={categories} onSaved={reload} />
      )}
    </section>
  );
}

/** An ingredient: its stock is measured in its unit, to the thousandth (grams of a kilo). */
function IngredientForm({
  ingredient,
  categories,
  onSaved,
  onCancel,
}: {
  ingredient?: Ingredient;
  categories: Category[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(stockItemStrings);
  const common = useCommonStrings();
  const [name, setName] = useState(ingredient?.name ?? '');
  const [categoryId, setCategoryId] = useState(ingredient?.category_id ?? categories[0]?.id ?? '');
  const [stock, setStock] = useState(ingredient ? String(ingredient.quantity) : '');
  const [unit, setUnit] = useState(ingredient?.unit ?? 'kg');
  const [reorderLevel, setReorderLevel] = useState(ingredient ? String(ingredient.reorder_level) : '0');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const prefix = ingredient ? 'ingredient-edit' : 'ingredient-new';
  const first = useFocusWhenShown<HTMLInputElement>(ingredient !== undefined);
  const chosenCategory = categories.some((category) => category.id === categoryId)
    ? categoryId
    : (categories[0]?.id ?? '');

  const submit = async (event: Event) => {
    event.preventDefault();
    const quantity = parseQuantity(stock, 'ingredient');
    const reorder = parseQuantity(reorderLevel || '0', 'ingredient');
    if (quantity === undefined || reorder === undefined || quantity < 0 || reorder < 0) {
      setInvalid(t.badQuantity);
      return;
    }
    setInvalid(undefined);
    const body = {
      name: name.trim(),
      category_id: chosenCategory,
      quantity,
      unit: unit.trim(),
      reorder_level: reorder,
    };
    const done = await action.run(() =>
      ingredient
        ? writeOnce(() => api.PUT('/ingredients/{id}', { params: { path: { id: ingredient.id } }, body }))
        : createOnce((key) =>
            api.POST('/ingredients', { params: { header: { 'idempotency-key': key } }, body }),
          ),
    );
    if (!done) return;
    if (!ingredient) {
      setName('');
      setStock('');
      setReorderLevel('0');
    }
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {ingredient ? t.editIngredient : t.newIngredient}
        {ingredient && `: ${ingredient.name}`}
      </h3>
      <div class="fields">
        <NameField prefix={prefix} label={t.ingredientName} value={name} onInput={setName} inputRef={first} />
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
        <Field id={`${prefix}-quantity`} label={t.quantity}>
          <input
            id={`${prefix}-quantity`}
            inputMode="decimal"
            required
            placeholder="2.5"
            value={stock}
            onInput={(event) => setStock(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-unit`} label={t.unit}>
          <input
            id={`${prefix}-unit`}
            list="ingredient-units"
            required
            maxLength={20}
            value={unit}
            onInput={(event) => setUnit(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-reorder`} label={t.reorderLevel}>
          <input
            id={`${prefix}-reorder`}
            inputMode="decimal"
            aria-describedby={`${prefix}-reorder-help`}
            value={reorderLevel}
            onInput={(event) => setReorderLevel(event.currentTarget.value)}
          />
          <small id={`${prefix}-reorder-help`} class="muted">
            {t.reorderHelp}
          </small>
        </Field>
      </div>
      <Alert message={invalid ?? action.error} />
      <FormActions
        submitLabel={ingredient ? common.save : t.addIngredient}
        busy={action.busy}
        onCancel={onCancel}
      />
    </form>
  );
}
