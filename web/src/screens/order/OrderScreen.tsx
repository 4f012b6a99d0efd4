import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { ApiError, api, keyHeader, messageOf, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, type Strings, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';

type Complete = Ok<'/orders/{id}/complete', 'get'>;
type Order = Complete['order'];
type OrderDish = Complete['dishes'][number];
type DishStatus = OrderDish['status'];
type Category = Ok<'/categories', 'get'>[number];
type MenuDish = Ok<'/dishes', 'get'>[number];

type Keys =
  | 'order'
  | 'table'
  | 'counter'
  | 'total'
  | 'menu'
  | 'ordered'
  | 'noDishes'
  | 'emptyMenu'
  | 'note'
  | 'noteHelp'
  | 'addPrefix'
  | 'adding'
  | 'added'
  | 'send'
  | 'sentCount'
  | 'sending'
  | 'nothingToSend'
  | 'remove'
  | 'serve'
  | 'bill'
  | 'loading'
  | 'unreachable'
  | 'forbidden'
  | 'deleted'
  | 'closed'
  | 'status'
  | DishStatus;

const strings: Strings<Keys> = {
  en: {
    order: 'Order',
    table: 'Table {table}',
    counter: 'Counter order',
    total: 'Total',
    menu: 'Menu',
    ordered: 'Dishes ordered',
    noDishes: 'No dishes yet. Tap a dish of the menu to add it.',
    emptyMenu: 'The menu has no dishes yet.',
    note: 'Note for the next dish (optional)',
    noteHelp: 'For example: no onions, well done.',
    addPrefix: 'Add',
    adding: 'Adding {dish}…',
    added: '{dish} added',
    send: 'Send to kitchen',
    sentCount: 'Sent to the kitchen: {n}',
    sending: 'Sending to the kitchen… (kept and sent again while the server is away)',
    nothingToSend: 'Every dish is already in the kitchen.',
    remove: 'Remove',
    serve: 'Mark served',
    bill: 'Bill',
    loading: 'Loading the order…',
    unreachable: 'The server cannot be reached.',
    forbidden: 'Your role may not do this. Ask a manager.',
    deleted: 'This order was deleted.',
    closed: 'This order is closed: its dishes cannot change.',
    status: 'Status',
    pending: 'Pending',
    sent: 'Sent',
    preparing: 'Preparing',
    ready: 'Ready',
    served: 'Served',
    voided: 'Voided',
  },
  es: {
    order: 'Comanda',
    table: 'Mesa {table}',
    counter: 'Comanda de barra',
    total: 'Total',
    menu: 'Menú',
    ordered: 'Platillos pedidos',
    noDishes: 'Aún no hay platillos. Toca un platillo del menú para agregarlo.',
    emptyMenu: 'El menú aún no tiene platillos.',
    note: 'Nota para el siguiente platillo (opcional)',
    noteHelp: 'Por ejemplo: sin cebolla, bien cocido.',
    addPrefix: 'Agregar',
    adding: 'Agregando {dish}…',
    added: 'Se agregó {dish}',
    send: 'Enviar a cocina',
    sentCount: 'Enviados a cocina: {n}',
    sending: 'Enviando a cocina… (se guarda y se reenvía mientras el servidor no responde)',
    nothingToSend: 'Todos los platillos ya están en cocina.',
    remove: 'Quitar',
    serve: 'Marcar servido',
    bill: 'Cuenta',
    loading: 'Cargando la comanda…',
    unreachable: 'No se puede contactar con el servidor.',
    forbidden: 'Tu rol no permite hacer esto. Pide ayuda a un gerente.',
    deleted: 'Esta comanda se eliminó.',
    closed: 'Esta comanda está cerrada: sus platillos no pueden cambiar.',
    status: 'Estado',
    pending: 'Pendiente',
    sent: 'Enviado',
    preparing: 'En preparación',
    ready: 'Listo',
    served: 'Servido',
    voided: 'Anulado',
  },
};

/** The badge colour of each kitchen status; the text says it too, never the colour alone. */
const STATUS_TONE: Record<DishStatus, string> = {
  pending: 'neutral',
  sent: 'warn',
  preparing: 'warn',
  ready: 'ok',
  served: 'ok',
  voided: 'danger',
};

const ACTIVE = new Set(['pending', 'preparing', 'ready']);
const cents = (amount: number) => Math.round(amount * 100);

/** Taking an order at a table: the menu by category, the dishes ordered and their kitchen status. */
export default function OrderScreen() {
  const t = useStrings(strings);
  const money = useMoney();
  const { params } = useRoute();
  const orderId = params.id as string;
  const [order, setOrder] = useState<Order>();
  const [dishes, setDishes] = useState<OrderDish[]>([]);
  const [tableName, setTableName] = useState<string | null>();
  const [categories, setCategories] = useState<Category[]>([]);
  const [menu, setMenu] = useState<MenuDish[]>([]);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(0);
  const loadId = useRef(0);
  const tableIdShown = useRef<string | null | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);

  const showError = (failure: unknown) => {
    setNotice(undefined);
    if (failure instanceof ApiError) setError(failure.status === 403 ? t.forbidden : messageOf(failure, ''));
    else setError(t.unreachable);
  };

  const loadOrder = async () => {
    const id = ++loadId.current;
    try {
      const complete = await ok(api.GET('/orders/{id}/complete', { params: { path: { id: orderId } } }));
      if (id !== loadId.current) return;
      setOrder(complete.order);
      setDishes(complete.dishes);
      // The server answers again: an "unreachable" from a load while it was away is stale now.
      setError((shown) => (shown === t.unreachable ? undefined : shown));
      return complete.order;
    } catch (failure) {
      if (id === loadId.current) showError(failure);
      return undefined;
    }
  };

  const loadAll = async () => {
    const [found] = await Promise.all([
      loadOrder(),
      Promise.all([
        ok(api.GET('/categories', { params: { query: { type: 'dish' } } })),
        ok(api.GET('/dishes')),
      ])
        .then(([categoryList, dishList]) => {
          setCategories(categoryList ?? []);
          setMenu(dishList ?? []);
        })
        .catch(showError),
    ]);
    if (found) await loadTableName(found.table_id);
  };

  /** The name of the order's table; loaded again when the order moves to another table. */
  const loadTableName = async (tableId: string | null) => {
    tableIdShown.current = tableId;
    if (tableId === null) {
      setTableName(null);
      return;
    }
    const table = await ok(api.GET('/tables/{id}', { params: { path: { id: tableId } } })).catch(
      () => undefined,
    );
    if (tableIdShown.current === tableId) setTableName(table?.name ?? null);
  };

  useEffect(() => {
    setOrder(undefined);
    setDeleted(false);
    setDishes([]);
    setError(undefined);
    setNotice(undefined);
    void loadAll();
  }, [orderId]);

  const onEvent = (event: LiveEvent) => {
    if (event.type === 'order.dishes_changed') {
      const data = event.data as Complete;
      if (data.order.id !== orderId) return;
      loadId.current++;
      setOrder(data.order);
      setDishes(data.dishes);
    } else if (event.type === 'dish.status_changed' || event.type === 'dish.voided') {
      const dish = event.data as OrderDish | undefined;
      if (!dish || dish.order_id !== orderId) return;
      setDishes((list) => list.map((other) => (other.id === dish.id ? dish : other)));
    } else if (event.type.startsWith('order.')) {
      const changed = event.data as Order;
      if (changed.id !== orderId) return;
      setOrder(changed);
      if (event.type === 'order.deleted') setDeleted(true);
      else if (changed.table_id !== tableIdShown.current) void loadTableName(changed.table_id);
    }
  };
  useLiveEvents(['orders', 'kitchen'], onEvent, () => void loadOrder());

  /** Runs one change, shows the server's refusal, and reloads the order so it shows what is stored. */
  const change = async (action: () => Promise<string | undefined>) => {
    setBusy((count) => count + 1);
    setError(undefined);
    try {
      const message = await action();
      setNotice(message);
    } catch (failure) {
      showError(failure);
    } finally {
      setBusy((count) => count - 1);
      await loadOrder();
    }
  };

  const addDish = (dish: MenuDish) => {
    const notes = note.trim();
    setNote('');
    setNotice(format(t.adding, { dish: dish.name }));
    void change(async () => {
      await writeOnce((key) =>
        api.POST('/orders/{id}/dishes', {
          params: { path: { id: orderId }, header: { 'idempotency-key': key } },
          body: [{ dish_id: dish.id, ...(notes && { notes }) }],
        }),
      );
      return format(t.added, { dish: dish.name });
    });
  };

  const send = () => {
    setNotice(t.sending);
    return change(async () => {
      const reply = await writeOnce((key) =>
        api.POST('/orders/{id}/send', {
          params: { path: { id: orderId } },
          body: {},
          headers: keyHeader(key),
        }),
      );
      return reply.sent > 0 ? format(t.sentCount, { n: reply.sent }) : t.nothingToSend;
    });
  };

  const remove = (dish: OrderDish) =>
    change(async () => {
      await writeOnce((key) =>
        api.DELETE('/orders/{id}/dishes/{dishId}', {
          params: { path: { id: orderId, dishId: dish.id } },
          headers: keyHeader(key),
        }),
      );
      return undefined;
    });

  const serve = (dish: OrderDish) =>
    change(async () => {
      await writeOnce((key) =>
        api.PUT('/orders/{id}/dishes/{dishId}/status', {
          params: { path: { id: orderId, dishId: dish.id } },
          headers: keyHeader(key),
          body: { status: 'served' },
        }),
      );
      return undefined;
    });

  const open = order !== undefined && !deleted && ACTIVE.has(order.status);
  const pendingCount = dishes.filter((dish) => dish.status === 'pending').length;
  const title =
    tableName === undefined
      ? t.order
      : tableName === null
        ? t.counter
        : format(t.table, { table: tableName });
  const menuByCategory = groupMenu(categories, menu);

  return (
    <div class="order-screen">
      <header class="order-head">
        <h1>{title}</h1>
        <p class="order-total">
          <span>{t.total}</span> <strong class="num">{order ? money(cents(order.total)) : '—'}</strong>
        </p>
        <a class="order-bill" href={`/app/till/${orderId}`}>
          {t.bill}
        </a>
      </header>
      <Alert message={error} />
      <p class={notice ? 'notice' : 'visually-hidden'} role="status">
        {notice ?? ''}
      </p>
      {deleted && <p class="error">{t.deleted}</p>}
      {order && !deleted && !open && <p class="notice">{t.closed}</p>}
      {!order && !error && <p class="muted">{t.loading}</p>}

      <div class="order-columns">
        <section class="order-menu card" aria-labelledby="menu-title">
          <h2 id="menu-title">{t.menu}</h2>
          <div class="order-note">
            <label for="dish-note">{t.note}</label>
            <input
              id="dish-note"
              type="text"
              maxLength={500}
              value={note}
              aria-describedby="dish-note-help"
              onInput={(event) => setNote(event.currentTarget.value)}
            />
            <span id="dish-note-help" class="muted">
              {t.noteHelp}
            </span>
          </div>
          {menuByCategory.length === 0 && <p class="muted">{t.emptyMenu}</p>}
          {menuByCategory.map((category) => (
            <section key={category.id} aria-labelledby={`category-${category.id}`}>
              <h3 id={`category-${category.id}`}>{category.name}</h3>
              <ul class="grid menu-dishes">
                {category.dishes.map((dish) => (
                  <li key={dish.id}>
                    <button
                      type="button"
                      class="tile menu-dish"
                      disabled={!open}
                      onClick={() => addDish(dish)}
                    >
                      <span class="visually-hidden">{t.addPrefix} </span>
                      <span class="menu-dish-name">{dish.name}</span>{' '}
                      <span class="menu-dish-price num">{money(cents(dish.price))}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </section>

        <section class="order-dishes card" aria-labelledby="ordered-title">
          <h2 id="ordered-title">{t.ordered}</h2>
          {dishes.length === 0 ? (
            <p class="muted">{t.noDishes}</p>
          ) : (
            <ul class="order-dish-list" aria-labelledby="ordered-title">
              {dishes.map((dish) => (
                <li key={dish.id} class={`order-dish ${dish.status}`}>
                  <div class="order-dish-text">
                    <span class="order-dish-name">{dish.dish_name}</span>
                    {dish.notes && <span class="order-dish-note">{dish.notes}</span>}
                    {dish.void_reason && <span class="order-dish-note">{dish.void_reason}</span>}
                  </div>
                  <span class="num order-dish-price">{money(cents(dish.price_at_order))}</span>
                  <span class={`badge dish-status ${STATUS_TONE[dish.status]}`}>
                    <span class="visually-hidden">{t.status}: </span>
                    {t[dish.status]}
                  </span>
                  {open && dish.status === 'pending' && (
                    <button type="button" class="ghost" onClick={() => void remove(dish)}>
                      {t.remove}
                      <span class="visually-hidden"> {dish.dish_name}</span>
                    </button>
                  )}
                  {open && dish.status === 'ready' && (
                    <button type="button" onClick={() => void serve(dish)}>
                      {t.serve}
                      <span class="visually-hidden"> {dish.dish_name}</span>
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={!open || pendingCount === 0 || busy > 0}
              onClick={() => void send()}
            >
              {t.send}
              {pendingCount > 0 && ` (${pendingCount})`}
            </button>
          </div>
        </section>
      </div>
    </div>
  );
}

function groupMenu(categories: Category[], menu: MenuDish[]) {
  return categories
    .map((category) => ({
      id: category.id,
      name: category.name,
      dishes: menu.filter((dish) => dish.category_id === category.id),
    }))
    .filter((category) => category.dishes.length > 0);
}
