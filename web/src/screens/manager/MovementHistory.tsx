import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { format, useLocale, useStrings } from '../../core/i18n';
import { inventoryStrings, type Movement, type StockItem, useQuantity } from './inventory-model';
import { TableScroll, useLoaded } from './shared';

const SHOWN = 50;

async function loadMovements(item: StockItem): Promise<Movement[]> {
  const query = { item_type: item.item_type, item_id: item.id, limit: SHOWN, offset: 0 };
  return (await ok(api.GET('/inventory/movements', { params: { query } }))) ?? [];
}

/**
 * The last movements of one item, newest first: why its stock is what it is. `version` changes with
 * every movement the section hears of, and the list is read again.
 */
export function MovementHistory({
  item,
  version,
  onClose,
}: {
  item: StockItem;
  version: number;
  onClose: () => void;
}) {
  const t = useStrings(inventoryStrings);
  const locale = useLocale();
  const quantity = useQuantity();
  const movements = useLoaded(() => loadMovements(item), [item.item_type, item.id, version]);
  const list = movements.data ?? [];
  const title = format(t.movementsOf, { name: item.name });
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  const signed = (delta: number) => (delta > 0 ? `+${quantity(delta)}` : quantity(delta));
  return (
    <section class="card stack movement-history" aria-labelledby="history-title">
      <div class="card-head">
        <h2 id="history-title">{title}</h2>
        <button type="button" class="ghost" onClick={onClose}>
          {t.close}
        </button>
      </div>
      <Alert message={movements.error} />
      {movements.data && list.length === 0 && <p class="muted">{t.noMovements}</p>}
      {list.length > 0 && (
        <TableScroll label={title}>
          <table class="list">
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.reason}</th>
                <th scope="col" class="num">
                  {t.change}
                </th>
                <th scope="col" class="num">
                  {t.after}
                </th>
                <th scope="col">{t.user}</th>
                <th scope="col">{t.note}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((movement) => (
                <tr key={movement.id} class={`movement-${movement.reason}`}>
                  <td>{when.format(new Date(movement.at))}</td>
                  <td>{t[movement.reason]}</td>
                  <td class="num">{signed(movement.delta)}</td>
                  <td class="num">{quantity(movement.stock_after, movement.unit)}</td>
                  <td>{movement.user_name ?? ''}</td>
                  <td>{movement.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
