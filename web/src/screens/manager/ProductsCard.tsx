import { useState } from 'preact/hooks';
import { api, createOnce, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { parseQuantity } from './inventory-model';
import type { Category } from './menu-model';
import {
  centsText,
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
import { type Product, stockItemStrings } from './stock-items-model';

export function ProductsCard({
  products,
  categories,
  reload,
}: {
  products: Product[];
  categories: Category[];
  reload: () => Promise<void>;
}) {
  const t = useStrings(stockItemStrings);
  const money = useMoney();
  const { editing, edit, close, saved } = useEditing<Product>(reload);
  const removal = useRemoval(reload);
  const remove = (product: Product) =>
    removal.remove(() =>
      writeOnce(() => api.DELETE('/products/{id}', { params: { path: { id: product.id } } })),
    );
  return (
    <section class="card stack" aria-labelledby="products-title">
      <h2 id="products-title">{t.products}</h2>
      {products.length === 0 ? (
        <p class="muted">{t.noProducts}</p>
      ) : (
        <RecordTable
          label={t.products}
          records={products}
          columns={[
            { header: t.name, cell: (product) => product.name },
            { header: t.sku, cell: (product) => product.sku, class: 'hide-narrow' },
            { header: t.price, cell: (product) => money(toCents(product.price)), class: 'num' },
            { header: t.quantity, cell: (product) => product.quantity, class: 'num' },
            { header: t.reorderLevel, cell: (product) => product.reorder_level, class: 'num hide-narrow' },
          ]}
          busy={removal.busy}
          actionsOf={(product) => ({
            target: product.name,
            onEdit: () => edit(product),
            onDelete: () => void remove(product),
          })}
        />
      )}
      <Alert message={removal.error} />
      {categories.length === 0 ? (
        <p class="muted">{t.chooseCategory}</p>
      ) : editing ? (
        <ProductForm
          key={editing.id}
          product={editing}
          categories={categories}
          onSaved={saved}
          onCancel={close}
        />
      ) : (
        <ProductForm key="new" categories={categories} onSaved={reload} />
      )}
    </section>
  );
}

/** A product: sold or used as it comes (a bottle, a can), counted in whole units. */
function ProductForm({
  product,
  categories,
  onSaved,
  onCancel,
}: {
  product?: Product;
  categories: Category[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
}) {
  const t = useStrings(stockItemStrings);
  const common = useCommonStrings();
  const [name, setName] = useState(product?.name ?? '');
  const [sku, setSku] = useState(product?.sku ?? '');
  const [price, setPrice] = useState(product ? centsText(toCents(product.price)) : '');
  const [categoryId, setCategoryId] = useState(product?.category_id ?? categories[0]?.id ?? '');
  const [stock, setStock] = useState(product ? String(product.quantity) : '');
  const [reorderLevel, setReorderLevel] = useState(product ? String(product.reorder_level) : '0');
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const prefix = product ? 'product-edit' : 'product-new';
  const first = useFocusWhenShown<HTMLInputElement>(product !== undefined);
  const chosenCategory = categories.some((category) => category.id === categoryId)
    ? categoryId
    : (categories[0]?.id ?? '');

  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(price);
    const quantity = parseQuantity(stock, 'product');
    const reorder = parseQuantity(reorderLevel || '0', 'product');
    const invalidNow =
      cents === undefined
        ? t.badPrice
        : quantity === undefined || reorder === undefined || quantity < 0 || reorder < 0
          ? t.badUnits
          : undefined;
    setInvalid(invalidNow);
    if (invalidNow || cents === undefined || quantity === undefined || reorder === undefined) return;
    const body = {
      name: name.trim(),
      sku: sku.trim(),
      price: fromCents(cents),
      quantity,
      category_id: chosenCategory,
      reorder_level: reorder,
    };
    const done = await action.run(() =>
      product
        ? writeOnce(() => api.PUT('/products/{id}', { params: { path: { id: product.id } }, body }))
        : createOnce((key) =>
            api.POST('/products', { params: { header: { 'idempotency-key': key } }, body }),
          ),
    );
    if (!done) return;
    if (!product) {
      setName('');
      setSku('');
      setPrice('');
      setStock('');
      setReorderLevel('0');
    }
    await onSaved();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {product ? t.editProduct : t.newProduct}
        {product && `: ${product.name}`}
      </h3>
      <div class="fields">
        <NameField prefix={prefix} label={t.productName} value={name} onInput={setName} inputRef={first} />
        <Field id={`${prefix}-sku`} label={t.sku}>
          <input
            id={`${prefix}-sku`}
            required
            maxLength={64}
            pattern="\S+"
            value={sku}
            onInput={(event) => setSku(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-price`} label={t.price}>
          <input
            id={`${prefix}-price`}
            inputMode="decimal"
            required
            placeholder="25.00"
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
        <Field id={`${prefix}-quantity`} label={t.quantity}>
          <input
            id={`${prefix}-quantity`}
            inputMode="numeric"
            required
            placeholder="24"
            value={stock}
            onInput={(event) => setStock(event.currentTarget.value)}
          />
        </Field>
        <Field id={`${prefix}-reorder`} label={t.reorderLevel}>
          <input
            id={`${prefix}-reorder`}
            inputMode="numeric"
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
        submitLabel={product ? common.save : t.addProduct}
        busy={action.busy}
        onCancel={onCancel}
      />
    </form>
  );
}
