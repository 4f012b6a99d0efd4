import { useState } from 'preact/hooks';
import { parseCents, toCents } from '../core/cents';
import { format, useStrings } from '../core/i18n';
import { AmountField } from './AmountField';
import type { GuestBill } from './guest-api';
import { guestStrings } from './guest-strings';
import { FIRST_PART, type PartChoice, PartChooser, partCents } from './PartChooser';

type TipChoice = { kind: 'percent'; percent: number } | { kind: 'other'; text: string };

/** The largest tip the server takes on `amountCents`: max_tip_percent of it, in whole cents. */
function maxTipCents(amountCents: number, maxPercent: number): number {
  return Math.floor((amountCents * maxPercent) / 100);
}

/** The tip in cents for this amount, or an error to show. */
function tipFor(
  choice: TipChoice,
  amountCents: number,
  maxPercent: number,
): { cents: number } | { error: 'bad' | 'tooHigh' } {
  const max = maxTipCents(amountCents, maxPercent);
  if (choice.kind === 'percent')
    return { cents: Math.min(Math.round((amountCents * choice.percent) / 100), max) };
  if (choice.text.trim() === '') return { cents: 0 };
  const cents = parseCents(choice.text);
  if (cents === undefined) return { error: 'bad' };
  return cents > max ? { error: 'tooHigh' } : { cents };
}

/**
 * The tip (a suggested percentage of what is paid, none, or another amount) and what to pay: all that
 * is payable, or a part (an even share, one seat's plates, or an amount typed). Hands the chosen
 * amount and tip, in cents, to `onPay`.
 */
export function PayChooser({
  bill,
  money,
  busy,
  onPay,
}: {
  bill: GuestBill;
  money: (cents: number) => string;
  busy: boolean;
  onPay: (amountCents: number, tipCents: number) => void;
}) {
  const t = useStrings(guestStrings);
  const payableCents = toCents(bill.payable);
  const suggestions = bill.tip_suggestions.filter((percent) => percent <= bill.max_tip_percent);
  // A tip is voluntary in Mexico (PROFECO): none until the guest chooses one.
  const [tip, setTip] = useState<TipChoice>({ kind: 'percent', percent: 0 });
  const [part, setPart] = useState<PartChoice>();

  const chosenCents = part ? partCents(part, bill) : payableCents;
  const amountCents = chosenCents ?? 0;
  const partError =
    part?.kind !== 'other'
      ? undefined
      : part.text.trim() !== '' && (chosenCents === undefined || chosenCents < 1)
        ? t.badAmount
        : chosenCents !== undefined && chosenCents > payableCents
          ? format(t.partTooHigh, { amount: money(payableCents) })
          : undefined;
  const tipOutcome = tipFor(tip, amountCents, bill.max_tip_percent);
  const tipError =
    'error' in tipOutcome
      ? tipOutcome.error === 'bad'
        ? t.badAmount
        : format(t.tipTooHigh, {
            percent: bill.max_tip_percent,
            amount: money(maxTipCents(amountCents, bill.max_tip_percent)),
          })
      : undefined;
  const tipCents = 'cents' in tipOutcome ? tipOutcome.cents : 0;
  const canPay = amountCents >= 1 && amountCents <= payableCents && !partError && !tipError && !busy;
  const tipChoices = [0, ...suggestions];

  return (
    <section class="guest-card guest-pay" aria-labelledby="tip-title">
      <h2 id="tip-title">{t.tip}</h2>
      <div class="guest-tips">
        {tipChoices.map((percent) => (
          <button
            key={percent}
            type="button"
            aria-pressed={tip.kind === 'percent' && tip.percent === percent}
            onClick={() => setTip({ kind: 'percent', percent })}
          >
            {percent === 0 ? t.noTip : format(t.tipPercent, { percent })}
          </button>
        ))}
        <button
          type="button"
          aria-pressed={tip.kind === 'other'}
          onClick={() => setTip({ kind: 'other', text: tip.kind === 'other' ? tip.text : '' })}
        >
          {t.otherTip}
        </button>
      </div>
      {tip.kind === 'other' && (
        <AmountField
          label={t.tipAmount}
          text={tip.text}
          isInvalid={tipError !== undefined}
          onText={(text) => setTip({ kind: 'other', text })}
        />
      )}
      {tipError && (
        <p class="guest-error" role="alert">
          {tipError}
        </p>
      )}
      {!part && (
        <>
          <p class="guest-muted">
            {format(t.toPay, {
              amount: money(amountCents),
              tip: money(tipCents),
              total: money(amountCents + tipCents),
            })}
          </p>
          <button
            type="button"
            class="guest-primary"
            disabled={!canPay}
            onClick={() => onPay(amountCents, tipCents)}
          >
            {t.payAll}
          </button>
          <button type="button" class="guest-secondary" onClick={() => setPart(FIRST_PART)}>
            {t.payMyPart}
          </button>
        </>
      )}
      {part && (
        <>
          <PartChooser bill={bill} money={money} choice={part} error={partError} onChoice={setPart} />
          {partError && (
            <p class="guest-error" role="alert">
              {partError}
            </p>
          )}
          {amountCents >= 1 && !partError && (
            <p class="guest-muted">
              {format(t.toPay, {
                amount: money(amountCents),
                tip: money(tipCents),
                total: money(amountCents + tipCents),
              })}
            </p>
          )}
          <button
            type="button"
            class="guest-primary"
            disabled={!canPay}
            onClick={() => onPay(amountCents, tipCents)}
          >
            {format(t.payAmount, { amount: money(amountCents + tipCents) })}
          </button>
          <button type="button" class="guest-secondary" onClick={() => setPart(undefined)}>
            {t.back}
          </button>
        </>
      )}
    </section>
  );
}
