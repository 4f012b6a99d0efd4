import { useState } from 'preact/hooks';
import { api, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, FormActions, Notice, TextField } from '../../components/FormKit';
import { useStrings } from '../../core/i18n';
import { inventoryStrings, itemKey, parseQuantity, type StockItem } from './inventory-model';
import { useAction } from './shared';

const REASONS = ['receiving', 'waste', 'adjustment'] as const;
type ManualReason = (typeof REASONS)[number];

/**
 * A delivery received, stock thrown away, or a correction. A delivery and waste are entered as the
 * positive amount the cook sees on the scale (waste is sent as a decrease); an adjustment is signed.
 */
export function MovementForm({ items, onRecorded }: { items: StockItem[]; onRecorded: () => void }) {
  const t = useStrings(inventoryStrings);
  const [chosenKey, setChosenKey] = useState('');
  const [reason, setReason] = useState<ManualReason>('receiving');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const item = items.find((candidate) => itemKey(candidate) === chosenKey) ?? items[0];

  /** The signed change to send, or the message saying what is wrong with the amount. */
  const deltaOf = (chosen: StockItem): number | string => {
    const value = parseQuantity(amount, chosen.item_type);
    if (value === undefined) return chosen.item_type === 'product' ? t.badUnits : t.badQuantity;
    if (reason === 'adjustment') return value === 0 ? t.badChange : value;
    if (value <= 0) return t.badQuantity;
    return reason === 'waste' ? -value : value;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!item) return;
    const delta = deltaOf(item);
    if (typeof delta === 'string') {
      setInvalid(delta);
      return;
    }
    setInvalid(undefined);
    setNotice(undefined);
    const body = {
      item_type: item.item_type,
      item_id: item.id,
      delta,
      reason,
      ...(note.trim() && { note: note.trim() }),
    };
    const done = await action.run(() =>
      writeOnce((key) =>
        api.POST('/inventory/movements', { params: { header: { 'idempotency-key': key } }, body }),
      ),
    );
    if (!done) return;
    setAmount('');
    setNote('');
    setNotice(t.recorded);
    onRecorded();
  };
  return (
    <form class="card stack movement-form" aria-labelledby="movement-title" onSubmit={submit}>
      <h2 id="movement-title">{t.movement}</h2>
      <div class="fields">
        <Field id="movement-item" label={t.item}>
          <select
            id="movement-item"
            value={item ? itemKey(item) : ''}
            onChange={(event) => setChosenKey(event.currentTarget.value)}
          >
            {items.map((candidate) => (
              <option key={itemKey(candidate)} value={itemKey(candidate)}>
                {candidate.unit ? `${candidate.name} (${candidate.unit})` : candidate.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="movement-reason" label={t.reason}>
          <select
            id="movement-reason"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value as ManualReason)}
          >
            {REASONS.map((name) => (
              <option key={name} value={name}>
                {t[name]}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          prefix="movement"
          name="amount"
          label={reason === 'adjustment' ? t.change : reason === 'waste' ? t.wasted : t.quantity}
          value={amount}
          onInput={setAmount}
          input={{
            inputMode: 'decimal',
            required: true,
            autocomplete: 'off',
            placeholder: reason === 'adjustment' ? '-1.5' : '2.5',
          }}
        />
        <TextField
          prefix="movement"
          name="note"
          label={t.note}
          value={note}
          onInput={setNote}
          input={{ maxLength: 500 }}
        />
      </div>
      <Alert message={invalid ?? action.error} />
      <Notice message={notice} />
      <FormActions submitLabel={t.record} busy={action.busy} />
    </form>
  );
}
