import { format, saysTable, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { isOccupied, type OpenOrder, sinceLabel, type Table } from './floor-model';
import { strings } from './strings';

/**
 * One table of the floor: free, reserved, occupied or paid (paid in full, not yet freed); an occupied
 * one says who serves it, since when, for how many guests (when the order says), its total, and how
 * many plates wait ready at the pass.
 */
export function TableTile({
  table,
  order,
  ready,
  now,
  disabled,
  onOpen,
}: {
  table: Table;
  order: OpenOrder | undefined;
  ready: number;
  now: number;
  disabled: boolean;
  onOpen: () => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const occupied = isOccupied(table);
  const isPaid = occupied && order?.isPaid === true;
  const state = isPaid ? 'paid' : occupied ? 'occupied' : table.status === 'reserved' ? 'reserved' : 'free';
  return (
    <button
      type="button"
      class={`tile floor-table ${state}`}
      data-table={table.name}
      data-status={state}
      disabled={disabled}
      onClick={onOpen}
    >
      <span class="floor-table-name">
        {!saysTable(table.name) && <span class="visually-hidden">{t.table} </span>}
        {table.name}
      </span>{' '}
      <span class="floor-table-state">
        <span
          class={`badge ${isPaid ? 'ok floor-table-paid' : occupied ? 'warn' : table.status === 'reserved' ? 'danger' : 'ok'}`}
        >
          {isPaid ? t.paid : occupied ? t.occupied : table.status === 'reserved' ? t.reserved : t.free}
        </span>
        {occupied && ready > 0 && (
          <>
            {' '}
            <span class="badge ok floor-table-ready">{format(t.ready, { n: ready })}</span>
          </>
        )}
        {occupied && order && (
          <>
            {' '}
            <span class="floor-table-total num">{money(order.total)}</span>
          </>
        )}
      </span>
      {occupied && order && (
        <span class="floor-table-meta">
          <span>{format(t.waiter, { name: order.waiter })}</span>{' '}
          <span>{format(t.orderCode, { code: order.code })}</span>{' '}
          <span class="num">
            {format(t.seated, { time: sinceLabel(Math.max(0, Math.floor((now - order.seatedAt) / 60_000))) })}
          </span>
          {order.guests !== undefined && (
            <>
              {' '}
              <span>{format(t.guests, { n: order.guests })}</span>
            </>
          )}
        </span>
      )}
    </button>
  );
}

/** An occupied table's floor moves, for the roles that may move a party: its buttons name the table. */
export function TableMoves({
  table,
  disabled,
  onMove,
  onMerge,
}: {
  table: Table;
  disabled: boolean;
  onMove: () => void;
  onMerge: () => void;
}) {
  const t = useStrings(strings);
  const target = (
    <span class="visually-hidden"> {saysTable(table.name) ? table.name : `${t.table} ${table.name}`}</span>
  );
  return (
    <div class="floor-table-moves">
      <button type="button" class="ghost" disabled={disabled} onClick={onMove}>
        {t.move}
        {target}
      </button>
      <button type="button" class="ghost" disabled={disabled} onClick={onMerge}>
        {t.merge}
        {target}
      </button>
    </div>
  );
}
