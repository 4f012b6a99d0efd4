import { toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { checkoutStrings } from './checkout-strings';
import { strings } from './strings';
import type { OrderDish } from './till-model';

/** The order's dishes, which bill each is on, and the order's totals. */
export function OrderDishes({
  dishes,
  billedIds,
  hasShares,
  totalCents,
  discountCents,
  paidCents,
  balanceCents,
  unbilledCents,
}: {
  dishes: OrderDish[];
  billedIds: ReadonlySet<string>;
  /** Bills for a share of the amount name no dishes: the dishes left are shared by those bills. */
  hasShares: boolean;
  totalCents: number;
  /** The discounts of the order's bills: the balance is what the bills still ask for. */
  discountCents: number;
  paidCents: number;
  balanceCents: number;
  unbilledCents: number;
}) {
  const t = useStrings(strings);
  const checkout = useStrings(checkoutStrings);
  const money = useMoney();
  return (
    <>
      <h2>{t.dishes}</h2>
      <table class="list till-dishes">
        <thead>
          <tr>
            <th scope="col">{t.dish}</th>
            <th scope="col">{t.bill}</th>
            <th scope="col" class="num">
              {t.price}
            </th>
          </tr>
        </thead>
        <tbody>
          {dishes.map((dish) => (
            <tr key={dish.id}>
              <td>
                {dish.dish_name}
                {dish.notes && <span class="muted"> ({dish.notes})</span>}
                {dish.modifiers.length > 0 && (
                  <span class="till-dish-options">
                    {dish.modifiers.map((option) => option.name).join(', ')}
                  </span>
                )}
              </td>
              <td>{billedIds.has(dish.id) ? t.onBill : hasShares ? t.shared : t.notBilled}</td>
              <td class="num">{money(toCents(dish.price_at_order))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl class="till-totals">
        <dt>{t.total}</dt>
        <dd class="num">{money(totalCents)}</dd>
        {discountCents > 0 && (
          <>
            <dt>{checkout.discounts}</dt>
            <dd class="num">−{money(discountCents)}</dd>
          </>
        )}
        <dt>{t.paidSoFar}</dt>
        <dd class="num">{money(paidCents)}</dd>
        <dt>{t.balance}</dt>
        <dd class="num">
          <strong>{money(balanceCents)}</strong>
        </dd>
        <dt>{t.unbilled}</dt>
        <dd class="num">{money(Math.max(0, unbilledCents))}</dd>
      </dl>
    </>
  );
}
