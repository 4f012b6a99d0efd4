import { useState } from 'preact/hooks';
import { CategoryField, RecordForm, TextField, useCategoryChoice } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { parseQuantity, useQuantity } from './inventory-model';
import {
  StockItemCard,
  type StockItemFormProps,
  type StockItemsProps,
  StockLevelFields,
  useStockLevel,
} from './StockItemCard';
import { type Column, useRecordForm } from './shared';
import { type Ingredient, stockItemStrings } from './stock-items-model';

const UNITS = ['kg', 'g', 'l', 'ml', 'pcs'];

/** The storeroom's ingredients, with the units their forms offer. */
export function IngredientsCard({ ingredients, ...card }: StockItemsProps & { ingredients: Ingredient[] }) {
  return (
    <StockItemCard
      kind={{ id: 'ingredients', useColumns: useIngredientColumns, Form: IngredientForm }}
      records={ingredients}
      {...card}
    >
      <datalist id="ingredient-units">
        {UNITS.map((unit) => (
          <option key={unit} value={unit} />
        ))}
      </datalist>
    </StockItemCard>
  );
}

function useIngredientColumns(): Column<Ingredient>[] {
  const t = useStrings(stockItemStrings);
  const quantity = useQuantity();
  return [
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
  ];
}

/** An ingredient: its stock is measured in its unit, to the thousandth (grams of a kilo). */
function IngredientForm({
  record: ingredient,
  categories,
  onSaved,
  onCancel,
}: StockItemFormProps<Ingredient>) {
  const t = useStrings(stockItemStrings);
  const labels = [t.newIngredient, t.editIngredient, t.addIngredient] as const;
  const form = useRecordForm(ingredient, '/ingredients', 'ingredient', labels, { onSaved, onCancel });
  const { prefix } = form;
  const [unit, setUnit] = useState(ingredient?.unit ?? 'kg');
  const level = useStockLevel(ingredient);
  const [invalid, setInvalid] = useState<string>();
  const category = useCategoryChoice(categories, ingredient?.category_id);

  const submit = async () => {
    const quantity = parseQuantity(level.stock, 'ingredient');
    const reorder = parseQuantity(level.reorderLevel || '0', 'ingredient');
    if (quantity === undefined || reorder === undefined || quantity < 0 || reorder < 0) {
      setInvalid(t.badQuantity);
      return;
    }
    setInvalid(undefined);
    const body = {
      name: form.name.trim(),
      category_id: category.chosen,
      quantity,
      unit: unit.trim(),
      reorder_level: reorder,
    };
    await form.save(body);
  };
  return (
    <RecordForm {...form.shell} invalid={invalid} onSubmit={submit}>
      {form.nameField(t.ingredientName)}
      <CategoryField prefix={prefix} label={t.category} choice={category} />
      <TextField
        prefix={prefix}
        name="unit"
        label={t.unit}
        value={unit}
        onInput={setUnit}
        input={UNIT_INPUT}
      />
      <StockLevelFields prefix={prefix} level={level} input={{ inputMode: 'decimal' }} placeholder="2.5" />
    </RecordForm>
  );
}

const UNIT_INPUT = { list: 'ingredient-units', required: true, maxLength: 20 } as const;
