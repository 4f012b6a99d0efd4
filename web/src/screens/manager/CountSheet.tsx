import { useState } from 'preact/hooks';
import { api, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Notice } from '../../components/FormKit';
import { format, useStrings } from '../../core/i18n';
import { inventoryStrings, itemKey, parseQuantity, type StockItem, useQuantity } from './inventory-model';
import { useAction } from './shared';

/**
 * The stocktake, done walking the storeroom with a phone: one item per line, a big number field each,
 * and only the lines filled in are sent, so a partial count (the fridge today, the dry store tomorrow)
 * leaves the rest alone. What is typed survives the live reloads of the stock around it.
 */
export function CountSheet({ items, onRecorded }: { items: StockItem[]; onRecorded: () => void }) {
  const t = useStrings(inventoryStrings);
  const quantity = useQuantity();
  const [counted, setCounted] = useState<Record<string, string>>({});
  const [invalid, setInvalid] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const filled = items.filter((item) => (counted[itemKey(item)] ?? '').trim() !== '');
    const counts = filled.map((item) => ({
      item_type: item.item_type,
      item_id: item.id,
      counted: parseQuantity(counted[itemKey(item)] ?? '', item.item_type),
    }));
    if (counts.length === 0) {
      setInvalid(t.nothingCounted);
      return;
    }
    if (counts.some((count) => count.counted === undefined || count.counted < 0)) {
      setInvalid(t.badCount);
      return;
    }
    setInvalid(undefined);
    setNotice(undefined);
    const body = { counts: counts.map((count) => ({ ...count, counted: count.counted ?? 0 })) };
    let changed = 0;
    const done = await action.run(async () => {
      const answer = await writeOnce((key) =>
        api.POST('/inventory/counts', { params: { header: { 'idempotency-key': key } }, body }),
      );
      changed = answer.movements;
    });
    if (!done) return;
    setCounted({});
    setNotice(format(t.countRecorded, { n: changed }));
    onRecorded();
  };
  return (
    <form id="count-sheet" class="card stack count-sheet" aria-labelledby="count-title" onSubmit={submit}>
      <h2 id="count-title">{t.countSheet}</h2>
      <p class="muted">{t.countHelp}</p>
      <ul class="count-lines">
        {items.map((item) => {
          const id = `count-${itemKey(item)}`;
          return (
            <li key={itemKey(item)} class="count-line">
              <label for={id}>
                <span class="count-name">{item.name}</span>{' '}
                <span class="muted">
                  {t.inStock}: {quantity(item.stock, item.unit)}
                </span>
              </label>
              <div class="count-field">
                <input
                  id={id}
                  class="count-input"
                  inputMode="decimal"
                  autocomplete="off"
                  aria-label={`${t.counted}: ${item.name}`}
                  value={counted[itemKey(item)] ?? ''}
                  onInput={(event) => {
                    const value = event.currentTarget.value;
                    setCounted((all) => ({ ...all, [itemKey(item)]: value }));
                  }}
                />
                <span class="count-unit">{item.unit}</span>
              </div>
            </li>
          );
        })}
      </ul>
      <Alert message={invalid ?? action.error} />
      <Notice message={notice} />
      <button id="count-save" type="submit" class="primary" disabled={action.busy}>
        {t.saveCount}
      </button>
    </form>
  );
}
