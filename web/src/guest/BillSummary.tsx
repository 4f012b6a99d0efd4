import { toCents } from '../core/cents';
import { format, useStrings } from '../core/i18n';
import type { GuestBill } from './guest-api';
import { guestStrings } from './guest-strings';

/**
 * The bill as the paper check shows it: the plates, then the totals down to the balance; and the tip
 * this phone paid, apart, since the bill's totals carry no tip and the table's tips are nobody else's.
 */
export function BillSummary({
  bill,
  money,
  ownTipCents,
}: {
  bill: GuestBill;
  money: (cents: number) => string;
  ownTipCents: number;
}) {
  const t = useStrings(guestStrings);
  const totals: [string, number][] = [
    [t.subtotal, bill.subtotal],
    ...(bill.discounts > 0 ? ([[t.discounts, -bill.discounts]] as [string, number][]) : []),
    [t.total, bill.total],
    [t.taxIncluded, bill.tax_included],
    [t.paid, bill.paid],
  ];
  return (
    <section class="guest-card" aria-labelledby="plates-title">
      <h2 id="plates-title">{t.plates}</h2>
      <ul class="guest-plates">
        {bill.plates.map((plate, index) => (
          <li key={index}>
            <div class="guest-plate-line">
              <span>{plate.name}</span>
              <span class="num">{money(toCents(plate.price))}</span>
            </div>
            {plate.options.length > 0 && <div class="guest-muted">{plate.options.join(', ')}</div>}
            {plate.seat !== null && <div class="guest-muted">{format(t.seat, { seat: plate.seat })}</div>}
          </li>
        ))}
      </ul>
      <dl class="guest-totals">
        {totals.map(([label, amount]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd class="num">{money(toCents(amount))}</dd>
          </div>
        ))}
        <div class="guest-balance">
          <dt>{t.balance}</dt>
          <dd class="num">{money(toCents(bill.balance))}</dd>
        </div>
        {ownTipCents > 0 && (
          <div class="guest-own-tip">
            <dt>{t.yourTip}</dt>
            <dd class="num">{money(ownTipCents)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
