import type { Body } from '../../api/client';
import { fromCents, parseCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { checkoutStrings } from './checkout-strings';

type Discount = NonNullable<Body<'/orders/{id}/tickets', 'post'>['discount']>;
export type DiscountInput = { type: Discount['type']; value: string; reason: string };
export const NO_DISCOUNT: DiscountInput = { type: 'percent', value: '', reason: '' };

/**
 * The discount the typed fields ask for: none when the value is empty; `problem` names what is
 * missing (the server checks the bounds: at most 100 %, at most the subtotal).
 */
export function discountOf(input: DiscountInput): {
  discount?: Discount;
  problem?: 'badAmount' | 'discountNeedsReason';
} {
  if (input.value.trim() === '') return {};
  const cents = parseCents(input.value);
  if (cents === undefined || cents === 0) return { problem: 'badAmount' };
  if (input.reason.trim() === '') return { problem: 'discountNeedsReason' };
  // A percent is typed like an amount (12.5 %); both travel as numbers with two decimals at most.
  return { discount: { type: input.type, value: fromCents(cents), reason: input.reason.trim() } };
}

/** A comp: the whole bill given away, still with its reason. */
const COMP = { type: 'percent', value: '100' } as const;

/** A discount on the next bill made, by percent or amount, with its reason (`tickets.discount`). */
export function DiscountFields({
  input,
  onChange,
}: {
  input: DiscountInput;
  onChange: (input: DiscountInput) => void;
}) {
  const t = useStrings(checkoutStrings);
  const { problem } = discountOf(input);
  return (
    <fieldset class="stack discount-fields">
      <legend>{t.discount}</legend>
      <button
        type="button"
        class="ghost"
        aria-pressed={input.type === COMP.type && input.value === COMP.value}
        onClick={() => {
          onChange({ ...input, ...COMP });
          document.getElementById('discount-reason')?.focus();
        }}
      >
        {t.compBill}
      </button>
      <div class="row">
        {(['percent', 'amount'] as const).map((type) => (
          <label key={type} class="discount-type">
            <input
              type="radio"
              name="discount-type"
              checked={input.type === type}
              onChange={() => onChange({ ...input, type })}
            />
            {type === 'percent' ? t.discountPercent : t.discountAmount}
          </label>
        ))}
      </div>
      <label for="discount-value">{t.discountValue}</label>
      <input
        id="discount-value"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder={input.type === 'percent' ? '10' : '0.00'}
        aria-describedby="discount-hint"
        aria-invalid={problem === 'badAmount'}
        value={input.value}
        onInput={(event) => onChange({ ...input, value: event.currentTarget.value })}
      />
      <label for="discount-reason">{t.discountReason}</label>
      <input
        id="discount-reason"
        type="text"
        maxLength={200}
        aria-invalid={problem === 'discountNeedsReason'}
        value={input.reason}
        onInput={(event) => onChange({ ...input, reason: event.currentTarget.value })}
      />
      <p id="discount-hint" class={problem ? 'error' : 'muted'}>
        {problem ? t[problem] : t.discountHint}
      </p>
    </fieldset>
  );
}
