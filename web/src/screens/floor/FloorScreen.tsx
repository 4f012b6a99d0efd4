import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiError, api, createOnce, messageOf, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { isOccupied, type OpenOrder, type Order, openOrderOf, type Space, type Table } from './floor-model';
import { strings } from './strings';
import { TableTile } from './TableTile';

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
    const order =
      event.type === 'order.dishes_changed'
        ? (event.data as { order: Order }).order
        : event.type.startsWith('order.')
          ? (event.data as Order)
          : undefined;
    if (order) setOrders((all) => ({ ...all, [order.id]: openOrderOf(order) }));
  };
  useLiveEvents(['tables', 'orders', 'kitchen'], onEvent, () => {
    void load();
    void loadReady();
  });

  const openTable = async (table: Table) => {
    if (opening) return;
    if (isOccupied(table) && table.order_id) {
      route(`/app/orders/${table.order_id}`);
      return;
    }
    setOpening(table.name);
    setError(undefined);
    try {
      const created = await createOnce((key) =>
        api.POST('/orders', {
          params: { header: { 'idempotency-key': key } },
          body: { table_id: table.id },
        }),
      );
      route(`/app/orders/${created.id}`);
    } catch (failure) {
      showError(failure);
      setOpening(undefined);
      void load();
    }
  };

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
      <p class="visually-hidden" aria-live="polite">
        {opening ? format(t.opening, { table: opening }) : ''}
      </p>
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
                  onOpen={() => void openTable(table)}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}

const collator = new Intl.Collator(undefined, { numeric: true });

function sortTables(list: Table[]): Table[] {
  return [...list].sort((a, b) => collator.compare(a.name, b.name));
}

function groupBySpace(spaces: Space[], tables: Table[], otherName: string) {
  const known = new Set(spaces.map((space) => space.id));
  const sections = spaces
    .map((space) => ({
      id: space.id,
      name: space.name,
      tables: sortTables(tables.filter((table) => table.space_id === space.id)),
    }))
    .filter((section) => section.tables.length > 0);
  const others = tables.filter((table) => !known.has(table.space_id));
  if (others.length > 0) sections.push({ id: 'other', name: otherName, tables: sortTables(others) });
  return sections;
}
