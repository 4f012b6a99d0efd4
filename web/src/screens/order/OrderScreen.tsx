import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { ApiError, api, keyHeader, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { format, formatTable, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { shortCode } from '../../core/short-code';
import { MenuPanel } from './MenuPanel';
import { MovePlates, MovePlatesButton } from './MovePlates';
import { OrderedPlates } from './OrderedPlates';
import { OutOfStockCheck, platesOutOfStock } from './OutOfStockCheck';
import {
  type Complete,
  cents,
  type MenuCategory,
  type MenuDish,
  type Order,
  type OrderDish,
  type PlateChoice,
  strings,
} from './order-screen';
import { type Adjustment, PlateAdjustment } from './PlateAdjustment';
import { PlateOptions } from './PlateOptions';

const ACTIVE = new Set(['pending', 'preparing', 'ready']);
/** Seats offered when the order does not say how many guests it serves. */
const DEFAULT_SEATS = 8;

/** Taking an order at a table: the menu by category, the dishes ordered and their kitchen status. */
export default function OrderScreen() {
  const t = useStrings(strings);
  const money = useMoney();
  // Screens follow the permissions, not role names (roles are editable): the kitchen reads the order only.
  const mayOrder = useCan('orders.write');
  const mayTakePayment = useCan('payments.take');
  const { params } = useRoute();
  const orderId = params.id as string;
  const [order, setOrder] = useState<Order>();
  const [dishes, setDishes] = useState<OrderDish[]>([]);
  const [tableName, setTableName] = useState<string | null>();
  const [menu, setMenu] = useState<MenuCategory[]>([]);
  /** The dish whose options panel is open, by id. */
  const [optionsOf, setOptionsOf] = useState<string>();
  const [editingId, setEditingId] = useState<string>();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(0);
  const loadId = useRef(0);
  const tableIdShown = useRef<string | null | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  /** A send held back because some of its plates ran out of stock, waiting for the waiter's answer. */
  const [heldSend, setHeldSend] = useState<{ course?: number; plates: OrderDish[] }>();
  const [moving, setMoving] = useState(false);
  /** The plate whose void or comp dialog is open. */
  const [adjusting, setAdjusting] = useState<{ plateId: string; kind: Adjustment }>();

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

  const loadMenu = () =>
    ok(api.GET('/menu'))
      .then((board) => {
        setMenu(board.categories);
        return board.categories;
      })
      .catch((failure) => {
        showError(failure);
        return undefined;
      });

  const loadAll = async () => {
    const [found] = await Promise.all([loadOrder(), loadMenu()]);
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
    } else if (event.type === 'dish.availability_changed' || event.type.startsWith('modifier_group.')) {
      // An 86 or a group edited (an option out or back): the menu read again says what is on sale.
      void loadMenu();
    } else if (event.type.startsWith('order.')) {
      const changed = event.data as Order;
      if (changed.id !== orderId) return;
      setOrder(changed);
      if (event.type === 'order.deleted') setDeleted(true);
      else if (changed.table_id !== tableIdShown.current) void loadTableName(changed.table_id);
    }
  };
  useLiveEvents(['orders', 'kitchen'], onEvent, () => {
    void loadOrder();
    void loadMenu();
  });

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

  /** Adds plates of a dish: one with the note typed so far, or as the options panel says. */
  const addDish = (dish: MenuDish, choice?: PlateChoice) => {
    const notes = choice ? choice.notes : note.trim();
    setNote('');
    setOptionsOf(undefined);
    setNotice(format(t.adding, { dish: dish.name }));
    const plate = choice && {
      modifiers: choice.modifiers,
      quantity: choice.quantity,
      seat: choice.seat,
      course: choice.course,
    };
    void change(async () => {
      await writeOnce((key) =>
        api.POST('/orders/{id}/dishes', {
          params: { path: { id: orderId }, header: { 'idempotency-key': key } },
          body: [{ dish_id: dish.id, ...plate, ...(notes && { notes }) }],
        }),
      );
      return format(t.added, { dish: dish.name });
    });
  };

  /** Changes a pending plate as the options panel says: the server reprices it for new options. */
  const savePlate = (plate: OrderDish, choice: PlateChoice) => {
    setEditingId(undefined);
    setNotice(format(t.saving, { dish: plate.dish_name }));
    void change(async () => {
      await writeOnce((key) =>
        api.PUT('/orders/{id}/dishes/{dishId}', {
          params: { path: { id: orderId, dishId: plate.id } },
          body: {
            modifiers: choice.modifiers,
            seat: choice.seat,
            course: choice.course,
            notes: choice.notes,
          },
          headers: keyHeader(key),
        }),
      );
      return format(t.saved, { dish: plate.dish_name });
    });
  };

  /**
   * Fires one course's pending plates, or with none given every pending plate. The menu is read again
   * first: a plate whose dish ran out since it was typed is not sent without the waiter's yes.
   */
  const send = async (course?: number) => {
    const plates = pending.filter((dish) => course === undefined || dish.course === course);
    const latestMenu = await loadMenu();
    const short = latestMenu ? platesOutOfStock(plates, latestMenu) : [];
    if (short.length > 0) setHeldSend({ course, plates: short });
    else await sendNow(course);
  };

  const sendNow = (course?: number) => {
    setHeldSend(undefined);
    setNotice(t.sending);
    return change(async () => {
      const reply = await writeOnce((key) =>
        api.POST('/orders/{id}/send', {
          params: { path: { id: orderId } },
          body: course === undefined ? {} : { course },
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
        api.POST('/orders/{id}/dishes/{dishId}/serve', {
          params: { path: { id: orderId, dishId: dish.id } },
          headers: keyHeader(key),
        }),
      );
      return undefined;
    });

  const open = order !== undefined && !deleted && ACTIVE.has(order.status);
  const seats = order?.guests ?? DEFAULT_SEATS;
  // Taken from the menu as last read, so an option put out of sale greys out in a panel left open.
  const menuDish = (id: string | undefined) =>
    menu.flatMap((category) => category.dishes).find((dish) => dish.id === id);
  const optionsDish = menuDish(optionsOf);
  // Another tablet may send the plate meanwhile: its options are frozen then, so the panel closes.
  const editing = dishes.find((dish) => dish.id === editingId && dish.status === 'pending');
  const editingDish = editing && menuDish(editing.dish_id);
  const adjustingPlate = dishes.find((dish) => dish.id === adjusting?.plateId);
  const pending = dishes.filter((dish) => dish.status === 'pending');
  const movable = dishes.filter((dish) => dish.status !== 'voided');
  const pendingCourses = [...new Set(pending.map((dish) => dish.course))].sort((a, b) => a - b);
  // Courses held back: a button per course, so the waiter fires each when the table is ready for it.
  const heldCourses = pendingCourses.some((course) => course !== 1) ? pendingCourses : [];
  const title =
    tableName === undefined
      ? t.order
      : tableName === null
        ? t.counter
        : formatTable(t.table, { table: tableName }, 'table');

  return (
    <div class="order-screen">
      <header class="order-head">
        <h1>{title}</h1>
        <span class="muted">{format(t.orderCode, { code: shortCode(orderId) })}</span>
        {mayOrder && (
          <p class="order-total">
            <span>{t.total}</span> <strong class="num">{order ? money(cents(order.total)) : '—'}</strong>
          </p>
        )}
        {mayTakePayment && (
          <a class="order-bill" href={`/app/till/${orderId}`}>
            {t.bill}
          </a>
        )}
      </header>
      <Alert message={error} />
      <p class={notice ? 'notice' : 'visually-hidden'} role="status">
        {notice ?? ''}
      </p>
      {deleted && <p class="error">{t.deleted}</p>}
      {order && !deleted && !open && <p class="notice">{t.closed}</p>}
      {!order && !error && <p class="muted">{t.loading}</p>}

      <div class="order-columns">
        {mayOrder && (
          <MenuPanel
            menu={menu}
            open={open}
            note={note}
            onNote={setNote}
            onTap={(dish) => (dish.modifier_groups.length > 0 ? setOptionsOf(dish.id) : addDish(dish))}
            onMore={(dish) => setOptionsOf(dish.id)}
          />
        )}

        <section class="order-dishes card" aria-labelledby="ordered-title">
          <h2 id="ordered-title">{t.ordered}</h2>
          <OrderedPlates
            dishes={dishes}
            open={open && mayOrder}
            showPrices={mayOrder}
            canEdit={(plate) => menuDish(plate.dish_id) !== undefined}
            onEdit={(plate) => setEditingId(plate.id)}
            onRemove={(dish) => void remove(dish)}
            onServe={(dish) => void serve(dish)}
            onAdjust={(dish, kind) => setAdjusting({ plateId: dish.id, kind })}
          />
          {mayOrder && (
            <div class="actions">
              <button
                type="button"
                class="primary"
                disabled={!open || pending.length === 0 || busy > 0}
                onClick={() => void send()}
              >
                {heldCourses.length > 0 ? t.sendAll : t.send}
                {pending.length > 0 && ` (${pending.length})`}
              </button>
              {heldCourses.map((course) => (
                <button
                  key={course}
                  type="button"
                  disabled={!open || busy > 0}
                  onClick={() => void send(course)}
                >
                  {format(course === 1 ? t.sendCourse : t.fireCourse, { n: course })}
                </button>
              ))}
              {movable.length > 0 && (
                <MovePlatesButton disabled={!open || busy > 0} onClick={() => setMoving(true)} />
              )}
            </div>
          )}
        </section>
      </div>
      {optionsDish && (
        <PlateOptions
          dish={optionsDish}
          seats={seats}
          note={note}
          onDone={(choice) => addDish(optionsDish, choice)}
          onClose={() => setOptionsOf(undefined)}
        />
      )}
      {moving && (
        <MovePlates
          orderId={orderId}
          plates={movable}
          onMoved={(message) => {
            setError(undefined);
            setNotice(message);
            void loadOrder();
          }}
          onError={showError}
          onClose={() => setMoving(false)}
        />
      )}
      {heldSend && (
        <OutOfStockCheck
          plates={heldSend.plates}
          onSend={() => void sendNow(heldSend.course)}
          onCancel={() => setHeldSend(undefined)}
        />
      )}
      {adjustingPlate && adjusting && (
        <PlateAdjustment
          orderId={orderId}
          plate={adjustingPlate}
          kind={adjusting.kind}
          onDone={(message) => {
            setAdjusting(undefined);
            setError(undefined);
            setNotice(message);
            void loadOrder();
          }}
          onClose={() => setAdjusting(undefined)}
        />
      )}
      {editing && editingDish && (
        <PlateOptions
          dish={editingDish}
          plate={editing}
          seats={seats}
          note={editing.notes}
          onDone={(choice) => savePlate(editing, choice)}
          onClose={() => setEditingId(undefined)}
        />
      )}
    </div>
  );
}
