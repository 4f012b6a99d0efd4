import { parseCents, toCents } from '../core/cents';
import { format, useStrings } from '../core/i18n';
import { AmountField } from './AmountField';
import type { GuestBill } from './guest-api';
import { guestStrings } from './guest-strings';

/** How a guest pays a part: an even share among people, one seat's plates, or an amount typed. */
export type PartChoice =
  | { kind: 'split'; people: number }
  | { kind: 'seat'; seat: number }
  | { kind: 'other'; text: string };

const MIN_PEOPLE = 2;
/** A table, however long: beyond it the stepper stops. */
const MAX_PEOPLE = 20;

/** The first choice offered: half each, the most common split. */
export const FIRST_PART: PartChoice = { kind: 'split', people: MIN_PEOPLE };

/**
 * The share of each of `people` in what is left to pay, in whole cents: every share but the last is
 * rounded down, and the last pays the rest, so the shares add up to the cent.
 */
export function evenShares(leftCents: number, people: number): { eachCents: number; lastCents: number } {
  const eachCents = Math.floor(leftCents / people);
  return { eachCents, lastCents: leftCents - eachCents * (people - 1) };
}

/** The amount of the chosen part in cents, never beyond what is payable; undefined while none is typed. */
export function partCents(choice: PartChoice, bill: GuestBill): number | undefined {
  const payableCents = toCents(bill.payable);
  if (choice.kind === 'split') return evenShares(payableCents, choice.people).eachCents;
  if (choice.kind === 'seat') {
    const seat = bill.seats.find((each) => each.seat === choice.seat);
    return seat ? Math.min(toCents(seat.total), payableCents) : undefined;
  }
  return parseCents(choice.text);
}

/** Choosing the part: the way (tabs), then the people, the seat or the amount, each with what it comes to. */
export function PartChooser({
  bill,
  money,
  choice,
  error,
  onChoice,
}: {
  bill: GuestBill;
  money: (cents: number) => string;
  choice: PartChoice;
  error: string | undefined;
  onChoice: (choice: PartChoice) => void;
}) {
  const t = useStrings(guestStrings);
  const payableCents = toCents(bill.payable);
  const maxPeople = Math.max(MIN_PEOPLE, Math.min(MAX_PEOPLE, payableCents));
  // A bill of one seat's plates has nothing to choose between.
  const canPayBySeat = bill.seats.length > 1;
  const ways: [PartChoice['kind'], string, PartChoice][] = [
    ['split', t.splitEvenly, FIRST_PART],
    ...(canPayBySeat
      ? ([['seat', t.bySeat, { kind: 'seat', seat: bill.seats[0]?.seat ?? 1 }]] as [
          PartChoice['kind'],
          string,
          PartChoice,
        ][])
      : []),
    ['other', t.otherAmount, { kind: 'other', text: '' }],
  ];
  return (
    <div class="guest-part">
      <fieldset class="guest-choice">
        <legend>{t.howToSplit}</legend>
        <div class="guest-ways">
          {ways.map(([kind, label, first]) => (
            <button
              key={kind}
              type="button"
              aria-pressed={choice.kind === kind}
              onClick={() => choice.kind !== kind && onChoice(first)}
            >
              {label}
            </button>
          ))}
        </div>
      </fieldset>
      {choice.kind === 'split' && (
        <SplitEvenly
          people={choice.people}
          maxPeople={maxPeople}
          payableCents={payableCents}
          money={money}
          onPeople={(people) => onChoice({ kind: 'split', people })}
        />
      )}
      {choice.kind === 'seat' && (
        <fieldset class="guest-seats">
          <legend>{t.chooseSeat}</legend>
          {bill.seats.map((seat) => (
            <button
              key={seat.seat}
              type="button"
              aria-pressed={choice.seat === seat.seat}
              onClick={() => onChoice({ kind: 'seat', seat: seat.seat })}
            >
              <span>{format(t.seat, { seat: seat.seat })}</span>
              <span class="num">{money(Math.min(toCents(seat.total), payableCents))}</span>
            </button>
          ))}
          <p class="guest-muted">{t.seatHint}</p>
        </fieldset>
      )}
      {choice.kind === 'other' && (
        <AmountField
          label={t.myPart}
          text={choice.text}
          isInvalid={error !== undefined}
          onText={(text) => onChoice({ kind: 'other', text })}
        />
      )}
    </div>
  );
}

function SplitEvenly({
  people,
  maxPeople,
  payableCents,
  money,
  onPeople,
}: {
  people: number;
  maxPeople: number;
  payableCents: number;
  money: (cents: number) => string;
  onPeople: (people: number) => void;
}) {
  const t = useStrings(guestStrings);
  const { eachCents, lastCents } = evenShares(payableCents, people);
  return (
    <div class="guest-split">
      <p class="guest-muted">{format(t.splitOf, { amount: money(payableCents) })}</p>
      <div class="guest-stepper">
        <button
          type="button"
          aria-label={t.fewerPeople}
          disabled={people <= MIN_PEOPLE}
          onClick={() => onPeople(people - 1)}
        >
          −
        </button>
        <output aria-live="polite">{format(t.people, { n: people })}</output>
        <button
          type="button"
          aria-label={t.morePeople}
          disabled={people >= maxPeople}
          onClick={() => onPeople(people + 1)}
        >
          +
        </button>
      </div>
      <p class="guest-share">{format(t.eachPays, { amount: money(eachCents) })}</p>
      {lastCents !== eachCents && (
        <p class="guest-muted">{format(t.lastPays, { amount: money(lastCents) })}</p>
      )}
    </div>
  );
}
