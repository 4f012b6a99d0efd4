import { fromCents, parseCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { checkoutStrings } from './checkout-strings';

/** The tips a customer is offered, as percentages of the amount paid. */
export const TIP_PERCENTS = [10, 15, 20];

/** What the cashier typed: the part of the balance to pay and the tip on top. */
export type AmountInput = { amount: string; tip: string };

/** The amount and tip in cents; undefined for each that is not a valid amount (the tip may be empty). */
export function centsOfInput(input: AmountInput, balanceCents: number) {
  const amountCents = parseCents(input.amount);
  const tipCents = input.tip.trim() === '' ? 0 : parseCents(input.tip);
  const isAmountValid = amountCents !== undefined && amountCents > 0 && amountCents <= balanceCents;
  return { amountCents: isAmountValid ? amountCents : undefined, tipCents };
}

/**
 * The amount to take from the bill (the whole balance by default; less pays part of it and leaves
 * the rest due) and the tip, from a preset percentage of that amount or typed.
 */
export function PaymentAmount({
  balanceCents,
  input,
  onChange,
}: {
  balanceCents: number;
  input: AmountInput;
  onChange: (input: AmountInput) => void;
}) {
  const t = useStrings(checkoutStrings);
  const money = useMoney();
  const amountCents = parseCents(input.amount);
  const { tipCents } = centsOfInput(input, balanceCents);
  const base = amountCents ?? 0;
  const tipOf = (percent: number) => fromCents(Math.round((base * percent) / 100)).toFixed(2);
  const amountProblem =
    amountCents === undefined || amountCents === 0
      ? t.badAmount
      : amountCents > balanceCents
        ? t.amountTooHigh
        : undefined;

  return (
    <div class="stack pay-amount">
      <label for="pay-amount">{t.amountToPay}</label>
      <input
        id="pay-amount"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        aria-describedby="pay-amount-hint"
        aria-invalid={amountProblem !== undefined}
        value={input.amount}
        onInput={(event) => onChange({ ...input, amount: event.currentTarget.value })}
      />
      <p id="pay-amount-hint" class={amountProblem ? 'error' : 'muted'}>
        {amountProblem ?? t.partialHint}
      </p>
      <fieldset class="tip-choice">
        <legend>{t.tip}</legend>
        <div class="row">
          <button
            type="button"
            aria-pressed={tipCents === 0}
            class={tipCents === 0 ? 'primary' : undefined}
            onClick={() => onChange({ ...input, tip: '' })}
          >
            {t.noTip}
          </button>
          {TIP_PERCENTS.map((percent) => {
            const isChosen = base > 0 && input.tip === tipOf(percent);
            return (
              <button
                key={percent}
                type="button"
                aria-pressed={isChosen}
                class={isChosen ? 'primary' : undefined}
                disabled={base === 0}
                onClick={() => onChange({ ...input, tip: tipOf(percent) })}
              >
                {format(t.tipPercent, { percent })}
              </button>
            );
          })}
        </div>
        <label for="pay-tip">{t.tipAmount}</label>
        <input
          id="pay-tip"
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
          aria-invalid={tipCents === undefined}
          value={input.tip}
          onInput={(event) => onChange({ ...input, tip: event.currentTarget.value })}
        />
      </fieldset>
      {!amountProblem && tipCents !== undefined && (
        <p class="pay-charging" aria-live="polite">
          {format(t.charging, {
            amount: money(base),
            tip: money(tipCents),
            total: money(base + tipCents),
          })}
        </p>
      )}
    </div>
  );
}
