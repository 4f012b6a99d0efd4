import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { cents, type DishStatus, type OrderDish, strings } from './order-screen';
import type { Adjustment } from './PlateAdjustment';

/** The badge colour of each kitchen status; the text says it too, never the colour alone. */
const STATUS_TONE: Record<DishStatus, string> = {
  pending: 'neutral',
  sent: 'warn',
  preparing: 'warn',
  ready: 'ok',
  served: 'ok',
  voided: 'danger',
};

/** Plates the kitchen has that can still be voided, or given away, while on no bill. */
const VOIDABLE = new Set<DishStatus>(['sent', 'preparing', 'ready']);
const COMPABLE = new Set<DishStatus>(['sent', 'preparing', 'ready', 'served']);

/**
 * The plates of the order: options, seat, course and kitchen status; edit, remove, serve, void or
 * comp where it applies. A plate can be edited only while pending and while the menu still has its dish (the
 * options panel needs the dish's groups).
 */
export function OrderedPlates({
  dishes,
  open,
  canEdit,
  onEdit,
  onRemove,
  onServe,
  showPrices = true,
  onAdjust,
}: {
  dishes: OrderDish[];
  open: boolean;
  /** Off for a user who does not take orders (the kitchen): prices are not theirs to see. */
  showPrices?: boolean;
  canEdit: (dish: OrderDish) => boolean;
  onEdit: (dish: OrderDish) => void;
  onRemove: (dish: OrderDish) => void;
  onServe: (dish: OrderDish) => void;
  onAdjust: (dish: OrderDish, kind: Adjustment) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  if (dishes.length === 0) return <p class="muted">{t.noDishes}</p>;
  return (
    <ul class="order-dish-list" aria-labelledby="ordered-title">
      {dishes.map((dish) => (
        <li key={dish.id} class={`order-dish ${dish.status}`}>
          <div class="order-dish-text">
            <span class="order-dish-name">{dish.dish_name}</span>
            {dish.modifiers.length > 0 && (
              <span class="order-dish-options">{dish.modifiers.map((option) => option.name).join(', ')}</span>
            )}
            <span class="order-dish-where muted">
              {dish.seat !== null && `${format(t.seatN, { n: dish.seat })} · `}
              {format(t.courseN, { n: dish.course })}
            </span>
            {dish.notes && <span class="order-dish-note">{dish.notes}</span>}
            {dish.void_reason && <span class="order-dish-note">{dish.void_reason}</span>}
            {dish.voided_by && (
              <span class="order-dish-where muted">
                {format(t.voidedBy, { name: dish.voided_by })}
                {dish.void_approved_by && ` · ${format(t.approvedBy, { name: dish.void_approved_by })}`}
              </span>
            )}
          </div>
          {showPrices && <span class="num order-dish-price">{money(cents(dish.price_at_order))}</span>}
          <span class={`badge dish-status ${STATUS_TONE[dish.status]}`}>
            <span class="visually-hidden">{t.status}: </span>
            {t[dish.status]}
          </span>
          {open && dish.status === 'pending' && (
            <span class="order-dish-actions">
              {canEdit(dish) && (
                <button type="button" class="ghost" onClick={() => onEdit(dish)}>
                  {t.edit}
                  <span class="visually-hidden"> {dish.dish_name}</span>
                </button>
              )}
              <button type="button" class="ghost" onClick={() => onRemove(dish)}>
                {t.remove}
                <span class="visually-hidden"> {dish.dish_name}</span>
              </button>
            </span>
          )}
          <PlateActions
            dish={dish}
            canServe={open && dish.status === 'ready'}
            canVoid={open && VOIDABLE.has(dish.status) && dish.ticket_id === null}
            canComp={open && COMPABLE.has(dish.status) && dish.ticket_id === null}
            onServe={onServe}
            onAdjust={onAdjust}
          />
        </li>
      ))}
    </ul>
  );
}

/** Serve, Void and Comp of a plate the kitchen has; a plate on a bill is the till's. */
function PlateActions({
  dish,
  canServe,
  canVoid,
  canComp,
  onServe,
  onAdjust,
}: {
  dish: OrderDish;
  canServe: boolean;
  canVoid: boolean;
  canComp: boolean;
  onServe: (dish: OrderDish) => void;
  onAdjust: (dish: OrderDish, kind: Adjustment) => void;
}) {
  const t = useStrings(strings);
  if (!canServe && !canVoid && !canComp) return null;
  return (
    <span class="order-dish-actions">
      {canServe && (
        <button type="button" onClick={() => onServe(dish)}>
          {t.serve}
          <span class="visually-hidden"> {dish.dish_name}</span>
        </button>
      )}
      {canVoid && (
        <button type="button" class="ghost" onClick={() => onAdjust(dish, 'void')}>
          {t.voidPlate}
          <span class="visually-hidden"> {dish.dish_name}</span>
        </button>
      )}
      {canComp && (
        <button type="button" class="ghost" onClick={() => onAdjust(dish, 'comp')}>
          {t.compPlate}
          <span class="visually-hidden"> {dish.dish_name}</span>
        </button>
      )}
    </span>
  );
}
