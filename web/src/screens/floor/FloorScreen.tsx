import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiError, api, createOnce, messageOf, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';

type Space = Ok<'/spaces', 'get'>[number];
type Table = Ok<'/tables', 'get'>[number];
type Order = Ok<'/orders/{id}', 'get'>;

const strings: Strings<
  | 'title'
  | 'table'
  | 'free'
  | 'occupied'
  | 'reserved'
  | 'loading'
  | 'noTables'
  | 'otherTables'
  | 'opening'
  | 'unreachable'
  | 'forbidden'
  | 'summary'
> = {
  en: {
    title: 'Floor',
    table: 'Table',
    free: 'Free',
    occupied: 'Occupied',
    reserved: 'Reserved',
    loading: 'Loading the floor…',
    noTables: 'No tables yet. A manager adds spaces and tables.',
    otherTables: 'Other tables',
    opening: 'Opening table {table}…',
    unreachable: 'The server cannot be reached.',
    forbidden: 'Your role may not open orders. Ask a manager.',
    summary: '{free} free, {occupied} occupied',
  },
  es: {
    title: 'Sala',
    table: 'Mesa',
    free: 'Libre',
    occupied: 'Ocupada',
    reserved: 'Reservada',
    loading: 'Cargando la sala…',
    noTables: 'Aún no hay mesas. Un gerente agrega espacios y mesas.',
    otherTables: 'Otras mesas',
    opening: 'Abriendo la mesa {table}…',
    unreachable: 'No se puede contactar con el servidor.',
    forbidden: 'Tu rol no permite abrir comandas. Pide ayuda a un gerente.',
    summary: '{free} libres, {occupied} ocupadas',
  },
};

/** The API speaks money as decimal numbers; the app formats integer cents. */
const cents = (amount: number) => Math.round(amount * 100);
const ACTIVE_STATUSES = ['pending', 'preparing', 'ready'] as const;

/**
 * A table is occupied while an active order (pending, preparing or ready) holds it: the server sets
 * `status` occupied and `order_id` when the order opens, and available with a null `order_id` when
 * the order is completed, cancelled or deleted. The floor shows exactly that.
 */
function isOccupied(table: Table): boolean {
  return table.status === 'occupied' && table.order_id !== null;
}

/** The spaces of the restaurant and their tables, live: tap a table to open or take its order. */
export default function FloorScreen() {
  const t = useStrings(strings);
  const money = useMoney();
  const { route } = useLocation();
  const [spaces, setSpaces] = useState<Space[]>();
  const [tables, setTables] = useState<Table[]>([]);
  const [totals, setTotals] = useState<Record<string, number>>({});
  const [error, setError] = useState<string>();
  const [opening, setOpening] = useState<string>();
  const loadId = useRef(0);

  const showError = (failure: unknown) => {
    if (failure instanceof ApiError) setError(failure.status === 403 ? t.forbidden : messageOf(failure, ''));
    else setError(t.unreachable);
  };

  /** The totals of the open orders: one request per active status rather than one per table. */
  const loadTotals = async () => {
    const pages = await Promise.all(
      ACTIVE_STATUSES.map((status) =>
        ok(api.GET('/orders', { params: { query: { status, limit: 1000, offset: 0 } } })),
      ),
    );
    const next: Record<string, number> = {};
    for (const order of pages.flatMap((page) => page ?? [])) next[order.id] = cents(order.total);
    return next;
  };

  const load = async () => {
    const id = ++loadId.current;
    try {
      const [spaceList, tableList, orderTotals] = await Promise.all([
        ok(api.GET('/spaces')),
        ok(api.GET('/tables')),
        loadTotals().catch(() => ({})),
      ]);
      const list = tableList ?? [];
      if (id !== loadId.current) return;
      setSpaces(spaceList ?? []);
      setTables(sortTables(list));
      setTotals(orderTotals);
      setError(undefined);
    } catch (failure) {
      if (id === loadId.current) showError(failure);
    }
  };

  useEffect(() => {
    void load();
  }, []);

  const onEvent = (event: LiveEvent) => {
    if (event.type.startsWith('table.')) {
      const table = event.data as Table;
      setTables((list) => {
        const rest = list.filter((other) => other.id !== table.id);
        return event.type === 'table.deleted' ? rest : sortTables([...rest, table]);
      });
      if (isOccupied(table) && table.order_id) {
        const orderId = table.order_id;
        void ok(api.GET('/orders/{id}', { params: { path: { id: orderId } } }))
          .then((order) => setTotals((all) => ({ ...all, [order.id]: cents(order.total) })))
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
    if (order) setTotals((all) => ({ ...all, [order.id]: cents(order.total) }));
  };
  useLiveEvents(['tables', 'orders'], onEvent, () => void load());

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
            {section.tables.map((table) => {
              const occupied = isOccupied(table);
              const total = table.order_id ? totals[table.order_id] : undefined;
              const state = occupied ? 'occupied' : table.status === 'reserved' ? 'reserved' : 'free';
              return (
                <li key={table.id}>
                  <button
                    type="button"
                    class={`tile floor-table ${state}`}
                    data-table={table.name}
                    data-status={state}
                    disabled={opening !== undefined}
                    onClick={() => void openTable(table)}
                  >
                    <span class="floor-table-name">
                      <span class="visually-hidden">{t.table} </span>
                      {table.name}
                    </span>{' '}
                    <span class="floor-table-state">
                      <span
                        class={`badge ${occupied ? 'warn' : table.status === 'reserved' ? 'danger' : 'ok'}`}
                      >
                        {occupied ? t.occupied : table.status === 'reserved' ? t.reserved : t.free}
                      </span>
                      {occupied && total !== undefined && (
                        <>
                          {' '}
                          <span class="floor-table-total num">{money(total)}</span>
                        </>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
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
