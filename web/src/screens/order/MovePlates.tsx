import { useEffect, useState } from 'preact/hooks';
import { api, keyHeader, ok, writeOnce } from '../../api/client';
import { Field } from '../../components/FormKit';
import { ModalDialog } from '../../components/ModalDialog';
import { format, formatTable, type Strings, useStrings } from '../../core/i18n';
import type { OrderDish } from './order-screen';

const strings: Strings<
  | 'title'
  | 'plates'
  | 'to'
  | 'choose'
  | 'table'
  | 'counter'
  | 'move'
  | 'cancel'
  | 'noOtherOrder'
  | 'moved'
  | 'open'
> = {
  en: {
    title: 'Move plates to another order',
    plates: 'Plates to move',
    to: 'To the order of',
    choose: 'Choose an order',
    table: 'Table {table} · {waiter}',
    counter: 'Counter order · {waiter}',
    move: 'Move',
    cancel: 'Cancel',
    noOtherOrder: 'No other table has an open order.',
    moved: 'Moved {n} plates to {to}',
    open: 'Move plates…',
  },
  es: {
    title: 'Mover platillos a otra orden',
    plates: 'Platillos por mover',
    to: 'A la orden de',
    choose: 'Elige una orden',
    table: 'Mesa {table} · {waiter}',
    counter: 'Orden de mostrador · {waiter}',
    move: 'Mover',
    cancel: 'Cancelar',
    noOtherOrder: 'Ninguna otra mesa tiene una orden abierta.',
    moved: '{n} platillos movidos a {to}',
    open: 'Mover platillos…',
  },
};

const OPEN_STATUSES = ['pending', 'preparing', 'ready'] as const;

type Destination = { id: string; label: string };

/** The other open orders, named by their table (or as a counter order) and waiter. */
async function otherOpenOrders(orderId: string, t: (typeof strings)['en']): Promise<Destination[]> {
  const [tables, pages] = await Promise.all([
    ok(api.GET('/tables')),
    Promise.all(
      OPEN_STATUSES.map((status) =>
        ok(api.GET('/orders', { params: { query: { status, limit: 1000, offset: 0 } } })),
      ),
    ),
  ]);
  const tableName = new Map(tables.map((table) => [table.id, table.name]));
  return pages
    .flatMap((page) => page ?? [])
    .filter((order) => order.id !== orderId)
    .map((order) => {
      const table = order.table_id === null ? undefined : tableName.get(order.table_id);
      const label =
        table === undefined
          ? format(t.counter, { waiter: order.waiter })
          : formatTable(t.table, { table, waiter: order.waiter }, 'table');
      return { id: order.id, label };
    })
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
}

/** Opens the move panel from the order's actions. */
export function MovePlatesButton({ disabled, onClick }: { disabled: boolean; onClick: () => void }) {
  const t = useStrings(strings);
  return (
    <button type="button" disabled={disabled} onClick={onClick}>
      {t.open}
    </button>
  );
}

/**
 * Moves chosen plates to another open order (a guest changes tables, a dish typed on the wrong one):
 * they keep their prices and kitchen statuses. The server refuses plates on a live bill; its message shows.
 */
export function MovePlates({
  orderId,
  plates,
  onMoved,
  onError,
  onClose,
}: {
  orderId: string;
  plates: OrderDish[];
  onMoved: (message: string) => void;
  onError: (failure: unknown) => void;
  onClose: () => void;
}) {
  const t = useStrings(strings);
  const [destinations, setDestinations] = useState<Destination[]>();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    otherOpenOrders(orderId, t)
      .then(setDestinations)
      .catch((failure) => {
        onError(failure);
        onClose();
      });
  }, [orderId]);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };

  const move = async (event: Event) => {
    event.preventDefault();
    const destination = destinations?.find((order) => order.id === to);
    if (!destination || chosen.size === 0) return;
    setBusy(true);
    try {
      await writeOnce((key) =>
        api.POST('/orders/{id}/dishes/move', {
          params: { path: { id: orderId } },
          body: { order_dish_ids: [...chosen], to_order_id: destination.id },
          headers: keyHeader(key),
        }),
      );
      onMoved(format(t.moved, { n: chosen.size, to: destination.label }));
    } catch (failure) {
      onError(failure);
    } finally {
      setBusy(false);
      onClose();
    }
  };

  return (
    <ModalDialog title={t.title} onClose={onClose}>
      {destinations?.length === 0 ? (
        <>
          <p>{t.noOtherOrder}</p>
          <div class="actions">
            <button type="button" onClick={onClose}>
              {t.cancel}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(event) => void move(event)}>
          <fieldset class="move-plates">
            <legend>{t.plates}</legend>
            {plates.map((plate) => (
              <label key={plate.id} class="plate-option">
                <input
                  type="checkbox"
                  checked={chosen.has(plate.id)}
                  onChange={(event) => toggle(plate.id, event.currentTarget.checked)}
                />
                <span>
                  {plate.dish_name}
                  {plate.modifiers.length > 0 &&
                    ` (${plate.modifiers.map((option) => option.name).join(', ')})`}
                </span>
              </label>
            ))}
          </fieldset>
          <Field id="move-to" label={t.to}>
            <select id="move-to" required value={to} onChange={(event) => setTo(event.currentTarget.value)}>
              <option value="">{t.choose}</option>
              {destinations?.map((order) => (
                <option key={order.id} value={order.id}>
                  {order.label}
                </option>
              ))}
            </select>
          </Field>
          <div class="actions">
            <button type="button" onClick={onClose}>
              {t.cancel}
            </button>
            <button type="submit" class="primary" disabled={busy || chosen.size === 0 || to === ''}>
              {t.move}
            </button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
