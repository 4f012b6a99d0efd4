import { api, ok } from '../../api/client';
import { Field } from '../../components/FormKit';
import { format, type Strings, useStrings } from '../../core/i18n';
import { type ItemType, parseQuantity } from './inventory-model';
import { RowButton } from './shared';

/** An ingredient or product a recipe can use, with the unit its quantity is in ('' for products). */
export type RecipeItem = { item_type: ItemType; id: string; name: string; unit: string };
/** A recipe line as the API sends and takes it. */
type RecipeLine = { ingredient_id: string; quantity: number } | { product_id: string; quantity: number };
/** A line as the editor holds it; `key` tells new lines apart, `item` is `ingredient-<id>` or `product-<id>`. */
export type RecipeDraft = { key: string; item: string; quantity: string };

const strings: Strings<
  'recipe' | 'recipeOf' | 'item' | 'quantity' | 'remove' | 'add' | 'none' | 'noItems' | 'line' | 'badLine'
> = {
  en: {
    recipe: 'Recipe',
    recipeOf: 'Recipe ({n})',
    item: 'Ingredient or product',
    quantity: 'Quantity',
    remove: 'Remove',
    add: 'Add ingredient',
    none: 'No recipe: selling it moves no stock.',
    noItems: 'No ingredients or products yet: add them under Ingredients and products.',
    line: 'Recipe line {n}',
    badLine:
      'Each recipe line needs a quantity above 0: whole units for products, up to 3 decimals for ingredients.',
  },
  es: {
    recipe: 'Receta',
    recipeOf: 'Receta ({n})',
    item: 'Ingrediente o producto',
    quantity: 'Cantidad',
    remove: 'Quitar',
    add: 'Agregar ingrediente',
    none: 'Sin receta: venderlo no mueve el inventario.',
    noItems: 'Aún no hay ingredientes ni productos: agrégalos en Ingredientes y productos.',
    line: 'Línea de receta {n}',
    badLine:
      'Cada línea de la receta necesita una cantidad mayor que 0: unidades enteras para productos, hasta 3 decimales para ingredientes.',
  },
};

export function useRecipeStrings() {
  return useStrings(strings);
}

/** Every live ingredient and product, for the recipe editors of dishes and options. */
export async function loadRecipeItems(): Promise<RecipeItem[]> {
  const [ingredients, products] = await Promise.all([ok(api.GET('/ingredients')), ok(api.GET('/products'))]);
  return [
    ...(ingredients ?? []).map(({ id, name, unit }) => ({
      item_type: 'ingredient' as const,
      id,
      name,
      unit,
    })),
    ...(products ?? []).map(({ id, name }) => ({ item_type: 'product' as const, id, name, unit: '' })),
  ];
}

let nextKey = 0;
const newDraft = (item = ''): RecipeDraft => ({ key: `line-${nextKey++}`, item, quantity: '' });

/** The editor's lines for a recipe read from the API. */
export function recipeDrafts(recipe: RecipeLine[] | undefined): RecipeDraft[] {
  return (recipe ?? []).map((line) => ({
    ...newDraft('ingredient_id' in line ? `ingredient-${line.ingredient_id}` : `product-${line.product_id}`),
    quantity: String(line.quantity),
  }));
}

/** The recipe to send, or undefined when a line's quantity does not suit its item. */
export function recipeOf(drafts: RecipeDraft[]): RecipeLine[] | undefined {
  const lines: RecipeLine[] = [];
  for (const draft of drafts) {
    const [type, ...rest] = draft.item.split('-');
    const id = rest.join('-');
    const itemType: ItemType = type === 'product' ? 'product' : 'ingredient';
    const quantity = parseQuantity(draft.quantity, itemType);
    if (!id || quantity === undefined || quantity <= 0) return undefined;
    lines.push(itemType === 'product' ? { product_id: id, quantity } : { ingredient_id: id, quantity });
  }
  return lines;
}

/**
 * What one dish or option uses from the storeroom: lines of an ingredient or product and how much of
 * it (in the ingredient's unit, or whole products). Selling it takes that much from the stock.
 */
export function RecipeEditor({
  prefix,
  items,
  drafts,
  onChange,
}: {
  prefix: string;
  items: RecipeItem[];
  drafts: RecipeDraft[];
  onChange: (drafts: RecipeDraft[]) => void;
}) {
  const t = useStrings(strings);
  const keyOf = (item: RecipeItem) => `${item.item_type}-${item.id}`;
  const change = (key: string, patch: Partial<RecipeDraft>) =>
    onChange(drafts.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));
  const first = items[0];
  return (
    <fieldset class="recipe-editor" id={prefix}>
      <legend>{t.recipe}</legend>
      {items.length === 0 ? (
        <p class="muted">{t.noItems}</p>
      ) : (
        drafts.length === 0 && <p class="muted">{t.none}</p>
      )}
      {drafts.map((draft, index) => {
        const id = `${prefix}-${draft.key}`;
        const label = format(t.line, { n: index + 1 });
        const unit = items.find((item) => keyOf(item) === draft.item)?.unit;
        return (
          <fieldset key={draft.key} class="fields inline recipe-line">
            <legend class="visually-hidden">{label}</legend>
            <Field id={`${id}-item`} label={t.item}>
              <select
                id={`${id}-item`}
                class="recipe-item"
                value={draft.item}
                onChange={(event) => change(draft.key, { item: event.currentTarget.value })}
              >
                {items.map((item) => (
                  <option key={keyOf(item)} value={keyOf(item)}>
                    {item.unit ? `${item.name} (${item.unit})` : item.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={`${id}-quantity`} label={unit ? `${t.quantity} (${unit})` : t.quantity}>
              <input
                id={`${id}-quantity`}
                class="recipe-quantity"
                inputMode="decimal"
                required
                autocomplete="off"
                value={draft.quantity}
                onInput={(event) => change(draft.key, { quantity: event.currentTarget.value })}
              />
            </Field>
            <RowButton
              label={t.remove}
              target={label}
              kind="ghost"
              onClick={() => onChange(drafts.filter((other) => other.key !== draft.key))}
            />
          </fieldset>
        );
      })}
      {first && (
        <button type="button" onClick={() => onChange([...drafts, newDraft(keyOf(first))])}>
          {t.add}
        </button>
      )}
    </fieldset>
  );
}
