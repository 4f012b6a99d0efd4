import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiError, api, createOnce, keyHeader, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { MovePanel, OpenTablePanel } from './FloorPanels';
import {
  groupBySpace,
  isOccupied,
  type OpenOrder,
  type Order,
  openOrderOf,
  type Space,
  sortTables,
  type Table,
} from './floor-model';
import { strings } from './strings';
import { TableMoves, TableTile } from './TableTile';

const ACTIVE_STATUSES = ['pending', 'preparing', 'ready'] as const;
/** The tiles' "seated for" counts minutes: a render every half minute keeps it right. */
const TICK_MS = 30_000;

/** The spaces of the restaurant and their tables, live: tap a table to open or take its order. */
export default function FloorScreen() {
  const t = useStrings(strings);
  const { route } = useLocation();
  const [spaces, setSpaces] = useState<Space[]>();
  const [tables, setTables] = useState<Table[]>([]);
  const [orders, setOrders] = useState<Record<string, OpenOrder>>({});
  const [ready, setReady] = useState<Record<string, number>>({});
  const [now, setNow] = useState(Date.now);
  const [error, setError] = useState<string>();
  const [opening, setOpening] = useState<string>();
  const [panel, setPanel] = useState<{ kind: 'open' | 'move' | 'merge'; table: Table }>();
  const [notice, setNotice] = useState('');
  const canMove = useCan('orders.move');
  const canTakePayments = useCan('payments.take');
  const loadId = useRef(0);

  const showError = (failure: unknown) => {
    if (failure instanceof ApiError) setError(failure.status === 403 ? t.forbidden : messageOf(failure, ''));
    else setError(t.unreachable);
  };

  /** The open orders: one request per active status rather than one per table. */
  const loadOrders = async () => {
    const pages = await Promise.all(
      ACTIVE_STATUSES.map((status) =>
        ok(api.GET('/orders', { params: { query: { status, limit: 1000, offset: 0 } } })),
      ),
    );
    const next: Record<string, OpenOrder> = {};
    for (const order of pages.flatMap((page) => page ?? [])) next[order.id] = openOrderOf(order);
    return next;
  };

  /** Plates ready at the pass, by order: every station's queue in one request. */
  const loadReady = async () => {
    const queue = await ok(api.GET('/kitchen/queue', { params: { query: { limit: 500 } } })).catch(() => []);
    const next: Record<string, number> = {};
    for (const dish of queue ?? [])
      if (dish.status === 'ready') next[dish.order_id] = (next[dish.order_id] ?? 0) + 1;
    setReady(next);
  };

  const load = async () => {
    const id = ++loadId.current;
    try {
      const [spaceList, tableList, openOrders] = await Promise.all([
        ok(api.GET('/spaces')),
        ok(api.GET('/tables')),
        loadOrders().catch(() => ({})),
      ]);
      const list = tableList ?? [];
      if (id !== loadId.current) return;
      setSpaces(spaceList ?? []);
      setTables(sortTables(list));
      setOrders(openOrders);
      setError(undefined);
    } catch (failure) {
      if (id === loadId.current) showError(failure);
    }
  };

  useEffect(() => {
    void load();
    void loadReady();
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const onEvent = (event: LiveEvent) => {
    if (event.type.startsWith('dish.') || event.type === 'order.dishes_changed') void loadReady();
    if (event.type.startsWith('table.')) {
      const table = event.data as Table;
      setTables((list) => {
        const rest = list.filter((other) => other.id !== table.id);
        return event.type === 'table.deleted' ? rest : sortTables([...rest, table]);
      });
      if (isOccupied(table) && table.order_id) {
        const orderId = table.order_id;
        void ok(api.GET('/orders/{id}', { params: { path: { id: orderId } } }))
          .then((order) => setOrders((all) => ({ ...all, [order.id]: openOrderOf(order) })))
          .catch(() => undefined);
      }
      return;
    }
    if (event.type.startsWith('ticket.')) {
      // A payment changes what the order owes: its tile turns paid before the table is freed.
      const orderId = (event.data as { order_id: string }).order_id;
      void ok(api.GET('/orders/{id}', { params: { path: { id: orderId } } }))
        .then((order) =>
          setOrders((all) => (all[order.id] ? { ...all, [order.id]: openOrderOf(order) } : all)),
        )
        .catch(() => undefined);
      return;
    }
    const order =
      event.type === 'order.dishes_changed'
        ? (event.data as { order: Order }).order
        : event.type.startsWith('order.')
          ? (event.data as Order)
          : undefined;
    if (order) setOrders((all) => ({ ...all, [order.id]: openOrderOf(order) }));
  };
  useLiveEvents(
    canTakePayments ? ['tables', 'orders', 'kitchen', 'tickets'] : ['tables', 'orders', 'kitchen'],
    onEvent,
    () => {
      void load();
      void loadReady();
    },
  );

  const openTable = (table: Table) => {
    if (opening) return;
    if (isOccupied(table) && table.order_id) {
      route(`/app/orders/${table.order_id}`);
      return;
    }
    setError(undefined);
    setPanel({ kind: 'open', table });
  };

  const startOrder = async (table: Table, guests: number | undefined) => {
    setOpening(table.name);
    try {
      const created = await createOnce((key) =>
        api.POST('/orders', {
          params: { header: { 'idempotency-key': key } },
          body: { table_id: table.id, ...(guests !== undefined && { guests }) },
        }),
      );
      route(`/app/orders/${created.id}`);
    } catch (failure) {
      showError(failure);
      setOpening(undefined);
      setPanel(undefined);
      void load();
    }
  };

  /** A move or a merge: the tiles follow from the table and order events the server sends. */
  const moveParty = async (kind: 'move' | 'merge', table: Table, choice: Table) => {
    // A move sends this table's order to the chosen table; a merge brings the chosen table's order here.
    const orderId = table.order_id;
    const otherId = kind === 'move' ? choice.id : choice.order_id;
    if (!orderId || !otherId) return;
    setOpening(table.name);
    setError(undefined);
    try {
      await (kind === 'move'
        ? writeOnce((key) =>
            api.POST('/orders/{id}/move', {
              params: { path: { id: orderId } },
              body: { table_id: otherId },
              headers: keyHeader(key),
            }),
          )
        : writeOnce((key) =>
            api.POST('/orders/{id}/merge', {
              params: { path: { id: orderId } },
              body: { from_order_id: otherId },
              headers: keyHeader(key),
            }),
          ));
      setNotice(
        kind === 'move'
          ? format(t.moved, { from: table.name, to: choice.name })
          : format(t.merged, { from: choice.name, to: table.name }),
      );
      setPanel(undefined);
    } catch (failure) {
      showError(failure);
    } finally {
      setOpening(undefined);
    }
  };

  const choicesFor = (kind: 'move' | 'merge', table: Table) =>
    kind === 'move'
      ? tables.filter((other) => other.status === 'available')
      : tables.filter((other) => other.id !== table.id && isOccupied(other));

  const sections = groupBySpace(spaces ?? [], tables, t.otherTables);
  const occupiedCount = tables.filter(isOccupied).length;

  return (
    <section class="floor" aria-labelledby="floor-title">
      <div class="floor-head">
        <h1 id="floor-title">{t.title}</h1>
        {spaces && tables.length > 0 && (
          <p class="muted floor-summary">
            {format(t.summary, { free: tables.length - occupiedCount, occupied: occupiedCount })}
          </p>
        )}
      </div>
      <Alert message={error} />
      <p class="visually-hidden" role="status">
        {opening ? format(t.opening, { table: opening }) : notice}
      </p>
      {panel?.kind === 'open' && (
        <OpenTablePanel
          key={panel.table.id}
          table={panel.table}
          busy={opening !== undefined}
          onOpen={(guests) => void startOrder(panel.table, guests)}
          onCancel={() => setPanel(undefined)}
        />
      )}
      {(panel?.kind === 'move' || panel?.kind === 'merge') && (
        <MovePanel
          key={`${panel.kind}-${panel.table.id}`}
          kind={panel.kind}
          table={panel.table}
          choices={choicesFor(panel.kind, panel.table)}
          busy={opening !== undefined}
          onChoose={(choice) => void moveParty(panel.kind as 'move' | 'merge', panel.table, choice)}
          onCancel={() => setPanel(undefined)}
        />
      )}
      {spaces === undefined && !error && <p class="muted">{t.loading}</p>}
      {spaces !== undefined && tables.length === 0 && <p class="muted">{t.noTables}</p>}
      {sections.map((section) => (
        <section key={section.id} class="floor-space" aria-labelledby={`space-${section.id}`}>
          <h2 id={`space-${section.id}`}>{section.name}</h2>
          <ul class="grid floor-tables">
            {section.tables.map((table) => (
              <li key={table.id}>
                <TableTile
                  table={table}
                  order={table.order_id ? orders[table.order_id] : undefined}
                  ready={table.order_id ? (ready[table.order_id] ?? 0) : 0}
                  now={now}
                  disabled={opening !== undefined}
                  onOpen={() => openTable(table)}
                />
                {canMove && isOccupied(table) && (
                  <TableMoves
                    table={table}
                    disabled={opening !== undefined}
                    onMove={() => setPanel({ kind: 'move', table })}
                    onMerge={() => setPanel({ kind: 'merge', table })}
                  />
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
