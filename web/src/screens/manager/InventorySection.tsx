import { useState } from 'preact/hooks';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { useStrings } from '../../core/i18n';
import { CountSheet } from './CountSheet';
import { InventoryReportCard } from './InventoryReportCard';
import { inventoryStrings, itemKey, loadStock, type StockItem } from './inventory-model';
import { MovementForm } from './MovementForm';
import { MovementHistory } from './MovementHistory';
import { StockTable } from './StockTable';
import { useLoaded } from './shared';

/**
 * What is in the storeroom and how it moves: the stock (low items first), deliveries, waste and
 * adjustments, the count sheet, one item's movements and the report over days. Every sale moves the
 * stock, so the table follows the live stream instead of showing what it read once.
 */
export function InventorySection() {
  const t = useStrings(inventoryStrings);
  const stock = useLoaded(loadStock);
  const items = stock.data ?? [];
  const [shownKey, setShownKey] = useState<string>();
  // Bumped on each movement, so the history and the report read their figures again.
  const [movements, setMovements] = useState(0);
  const shown = items.find((item) => itemKey(item) === shownKey);

  const moved = () => {
    setMovements((count) => count + 1);
    void stock.reload();
  };
  useLiveEvents(
    ['inventory'],
    (event: LiveEvent) => {
      if (event.type === 'stock.moved' || event.type === 'stock.low') moved();
    },
    moved,
  );
  const show = (item: StockItem) => setShownKey(itemKey(item));

  return (
    <div class="manager-sections inventory">
      <Alert message={stock.error} />
      <section class="card stack" aria-labelledby="stock-title">
        <h2 id="stock-title">{t.stock}</h2>
        {stock.data && items.length === 0 ? (
          <p class="muted">{t.noItems}</p>
        ) : (
          <StockTable items={items} onShow={show} />
        )}
      </section>
      {shown && (
        <MovementHistory
          key={shownKey}
          item={shown}
          version={movements}
          onClose={() => setShownKey(undefined)}
        />
      )}
      {items.length > 0 && (
        <>
          <MovementForm items={items} onRecorded={moved} />
          <CountSheet items={items} onRecorded={moved} />
        </>
      )}
      <InventoryReportCard version={movements} />
    </div>
  );
}
