import { useState } from 'preact/hooks';
import {
  CategoryField,
  PriceField,
  RecordForm,
  TextField,
  useCategoryChoice,
} from '../../components/FormKit';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { parseQuantity } from './inventory-model';
import * as stock from './StockItemCard';
import { type Column, centsText, useRecordForm } from './shared';
import { type Product, stockItemStrings } from './stock-items-model';

/** The storeroom's products: what is sold or used as it comes. */
export function ProductsCard({ products, ...card }: stock.StockItemsProps & { products: Product[] }) {
  return (
    <stock.StockItemCard
      kind={{ id: 'products', useColumns: useProductColumns, Form: ProductForm }}
      records={products}
      {...card}
    />
  );
}

function useProductColumns(): Column<Product>[] {
  const t = useStrings(stockItemStrings);
  const money = useMoney();
  return [
    { header: t.name, cell: (product) => product.name },
    { header: t.sku, cell: (product) => product.sku, class: 'hide-narrow' },
    { header: t.price, cell: (product) => money(toCents(product.price)), class: 'num' },
    { header: t.quantity, cell: (product) => product.quantity, class: 'num' },
    { header: t.reorderLevel, cell: (product) => product.reorder_level, class: 'num hide-narrow' },
  ];
}

/** A product: sold or used as it comes (a bottle, a can), counted in whole units. */
function ProductForm({ record: product, categories, onSaved, onCancel }: stock.StockItemFormProps<Product>) {
  const t = useStrings(stockItemStrings);
  const labels = [t.newProduct, t.editProduct, t.addProduct] as const;
  const form = useRecordForm(product, '/products', 'product', labels, { onSaved, onCancel });
  const { prefix } = form;
  const [sku, setSku] = useState(product?.sku ?? '');
  const [price, setPrice] = useState(product ? centsText(toCents(product.price)) : '');
  const level = stock.useStockLevel(product);
  const [invalid, setInvalid] = useState<string>();
  const category = useCategoryChoice(categories, product?.category_id);

  const submit = async () => {
    const cents = parseCents(price);
    const quantity = parseQuantity(level.stock, 'product');
    const reorder = parseQuantity(level.reorderLevel || '0', 'product');
    const invalidNow =
      cents === undefined
        ? t.badPrice
        : quantity === undefined || reorder === undefined || quantity < 0 || reorder < 0
          ? t.badUnits
          : undefined;
    setInvalid(invalidNow);
    if (invalidNow || cents === undefined || quantity === undefined || reorder === undefined) return;
    const body = {
      name: form.name.trim(),
      sku: sku.trim(),
      price: fromCents(cents),
      quantity,
      category_id: category.chosen,
      reorder_level: reorder,
    };
    await form.save(body);
  };
  return (
    <RecordForm {...form.shell} invalid={invalid} onSubmit={submit}>
      {form.nameField(t.productName)}
      <TextField prefix={prefix} name="sku" label={t.sku} value={sku} onInput={setSku} input={SKU_INPUT} />
      <PriceField prefix={prefix} label={t.price} value={price} onInput={setPrice} placeholder="25.00" />
      <CategoryField prefix={prefix} label={t.category} choice={category} />
      <stock.StockLevelFields
        prefix={prefix}
        level={level}
        input={{ inputMode: 'numeric' }}
        placeholder="24"
      />
    </RecordForm>
  );
}

const SKU_INPUT = { required: true, maxLength: 64, pattern: '\\S+' } as const;
