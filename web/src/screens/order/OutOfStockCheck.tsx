import { ModalDialog } from '../../components/ModalDialog';
import { type Strings, useStrings } from '../../core/i18n';
import type { MenuCategory, OrderDish } from './order-screen';

const strings: Strings<'title' | 'body' | 'sendAnyway' | 'dontSend' | 'plates'> = {
  en: {
    title: 'Out of stock: send anyway?',
    body: 'These dishes ran out since they were added. The kitchen may not be able to make them.',
    sendAnyway: 'Send anyway',
    dontSend: 'Don’t send',
    plates: 'Out of stock',
  },
  es: {
    title: 'Sin existencias: ¿enviar de todos modos?',
    body: 'Estos platillos se agotaron después de agregarlos. Es posible que cocina no pueda prepararlos.',
    sendAnyway: 'Enviar de todos modos',
    dontSend: 'No enviar',
    plates: 'Sin existencias',
  },
};

/**
 * The plates about to be sent whose dish is off sale now (86 or its stock ran out) by the menu as just
 * read: another tablet's sale or the kitchen's 86 may have come after the plate was typed.
 */
export function platesOutOfStock(plates: OrderDish[], menu: MenuCategory[]): OrderDish[] {
  const onSale = new Map(
    menu
      .flatMap((category) => category.dishes)
      .map((dish) => [dish.id, dish.available && !dish.out_of_stock]),
  );
  return plates.filter((plate) => onSale.get(plate.dish_id) === false);
}

/** Asks before a send that includes plates out of stock; the waiter may send them anyway or not at all. */
export function OutOfStockCheck({
  plates,
  onSend,
  onCancel,
}: {
  plates: OrderDish[];
  onSend: () => void;
  onCancel: () => void;
}) {
  const t = useStrings(strings);
  const counts = new Map<string, number>();
  for (const plate of plates) counts.set(plate.dish_name, (counts.get(plate.dish_name) ?? 0) + 1);
  return (
    <ModalDialog title={t.title} onClose={onCancel}>
      <p>{t.body}</p>
      <ul aria-label={t.plates}>
        {[...counts].map(([name, count]) => (
          <li key={name}>
            {count} × {name}
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="danger" onClick={onSend}>
          {t.sendAnyway}
        </button>
        <button type="button" class="primary" onClick={onCancel}>
          {t.dontSend}
        </button>
      </div>
    </ModalDialog>
  );
}
