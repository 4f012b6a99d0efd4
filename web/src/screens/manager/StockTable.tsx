import { useStrings } from '../../core/i18n';
import { inventoryStrings, itemKey, type StockItem, useQuantity } from './inventory-model';
import { RowButton, TableScroll } from './shared';

/**
 * Every live ingredient and product with its stock, in the server's order: those at or below their
 * reorder level first, so what to buy is at the top. A row's History opens its movements.
 */
export function StockTable({ items, onShow }: { items: StockItem[]; onShow: (item: StockItem) => void }) {
  const t = useStrings(inventoryStrings);
  const quantity = useQuantity();
  return (
    <TableScroll label={t.stock}>
      <table class="list stock-table">
        <thead>
          <tr>
            <th scope="col">{t.item}</th>
            <th scope="col" class="num">
              {t.inStock}
            </th>
            <th scope="col" class="num hide-narrow">
              {t.reorderLevel}
            </th>
            <th scope="col">{t.status}</th>
            <th scope="col">
              <span class="visually-hidden">{t.history}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr
              key={itemKey(item)}
              id={`stock-${itemKey(item)}`}
              class={[item.low && 'low-stock', item.out && 'out-of-stock'].filter(Boolean).join(' ')}
            >
              <th scope="row">
                {item.name}
                <span class="muted hide-narrow">
                  {' '}
                  · {item.item_type === 'ingredient' ? t.ingredient : t.product}
                </span>
              </th>
              <td class="num stock-quantity">{quantity(item.stock, item.unit)}</td>
              <td class="num hide-narrow">{quantity(item.reorder_level, item.unit)}</td>
              <td class="stock-status">
                {item.low && <span class="badge warn">{t.low}</span>}{' '}
                {item.out && <span class="badge danger">{t.out}</span>}
              </td>
              <td>
                <RowButton label={t.history} target={item.name} kind="ghost" onClick={() => onShow(item)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
