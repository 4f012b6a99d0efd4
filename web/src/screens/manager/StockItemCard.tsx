import type { ComponentChildren, ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import { api, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { TextField } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import type { Category } from './menu-model';
import { type Column, RecordTable, useEditing, useRemoval } from './shared';
import { stockItemStrings } from './stock-items-model';

/** What a stock item's form is given: the record it edits (none: a new one) and where it files it. */
export type StockItemFormProps<T> = {
  record?: T;
  categories: Category[];
  onSaved: () => Promise<void>;
  onCancel?: () => void;
};

/** What the section hands each card: where its items are filed and how to read them again. */
export type StockItemsProps = { categories: Category[]; reload: () => Promise<void> };

/** What tells one kind of stock item from another on its card; `id` is its collection too. */
export type StockItemKind<T> = {
  id: 'ingredients' | 'products';
  useColumns: () => Column<T>[];
  Form: ComponentType<StockItemFormProps<T>>;
};

const EMPTY = { ingredients: 'noIngredients', products: 'noProducts' } as const;

/**
 * The card of one kind of stock item (ingredients, products): their table, a refused delete, and the
 * form that edits one or adds one, once there is a category to file it under.
 */
export function StockItemCard<T extends { id: string; name: string }>({
  kind,
  records,
  categories,
  reload,
  children,
}: {
  kind: StockItemKind<T>;
  records: T[];
  categories: Category[];
  reload: () => Promise<void>;
  /** Above the table: what its forms share (a list of units). */
  children?: ComponentChildren;
}) {
  const t = useStrings(stockItemStrings);
  const { editing, edit, close, saved, newKey, added } = useEditing<T>(reload);
  const removal = useRemoval(reload);
  const columns = kind.useColumns();
  const { id, Form } = kind;
  return (
    <section class="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t[id]}</h2>
      {children}
      {records.length === 0 ? (
        <p class="muted">{t[EMPTY[id]]}</p>
      ) : (
        <RecordTable
          label={t[id]}
          records={records}
          columns={columns}
          busy={removal.busy}
          actionsOf={(record) => ({
            target: record.name,
            onEdit: () => edit(record),
            onDelete: () => void removal.remove(() => deleteItem(id, record.id)),
          })}
        />
      )}
      <Alert message={removal.error} />
      {categories.length === 0 ? (
        <p class="muted">{t.chooseCategory}</p>
      ) : editing ? (
        <Form key={editing.id} record={editing} categories={categories} onSaved={saved} onCancel={close} />
      ) : (
        <Form key={newKey} categories={categories} onSaved={added} />
      )}
    </section>
  );
}

/**
 * How much of an item there is and the level at which it shows as low, as typed: ingredients in
 * decimals of their unit, products in whole units (`input` says which keyboard).
 */
export function useStockLevel(record: { quantity: number; reorder_level: number } | undefined) {
  const [stock, setStock] = useState(record ? String(record.quantity) : '');
  const [reorderLevel, setReorderLevel] = useState(record ? String(record.reorder_level) : '0');
  const clear = () => {
    setStock('');
    setReorderLevel('0');
  };
  return { stock, setStock, reorderLevel, setReorderLevel, clear };
}

/** The stock and reorder level fields of an item's form. */
export function StockLevelFields({
  prefix,
  level,
  input,
  placeholder,
}: {
  prefix: string;
  level: ReturnType<typeof useStockLevel>;
  input: { inputMode: 'decimal' | 'numeric' };
  placeholder: string;
}) {
  const t = useStrings(stockItemStrings);
  const quantity = { name: 'quantity', label: t.quantity, value: level.stock, onInput: level.setStock };
  const reorder = {
    name: 'reorder',
    label: t.reorderLevel,
    value: level.reorderLevel,
    onInput: level.setReorderLevel,
  };
  return (
    <>
      <TextField prefix={prefix} {...quantity} input={{ ...input, required: true, placeholder }} />
      <TextField prefix={prefix} {...reorder} input={input} help={t.reorderHelp} />
    </>
  );
}

/** Both collections delete alike, at `/{collection}/{id}`: the path is typed by `collection`. */
function deleteItem(collection: StockItemKind<unknown>['id'], id: string) {
  return writeOnce(() =>
    api.DELETE(`/${collection}/{id}` as '/ingredients/{id}', { params: { path: { id } } }),
  );
}
