import { randomUUID } from 'node:crypto';
import { readCard } from '../../test/mp-sim/control';
import type { MercadoPagoSimulator } from '../../test/mp-sim/simulator';
import type { PhoenixdSimulator } from '../../test/phoenixd-sim/simulator';
import type { ApiSession } from '../lib/api';
import type { MoneyLedger, WriteKind } from './money-ledger';

/** What the money writers sell: a plate whose recipe takes an ingredient and a product off the stock. */
export type MoneySetup = {
  spaceId: string;
  plateDishId: string;
  ingredientId: string;
  productId: string;
  /** Invoices a writer asked for and left for the payer to pay while the server is down. */
  unpaidInvoices: { invoice: string; paymentId: string; ticketId: string; amountCents: number }[];
  /** Each cashier writer's own card terminal (writer n has the n-th). */
  terminals: string[];
  /**
   * The bill and amount each terminal was last asked to charge: what a guest still at the terminal
   * pays, also when the charge's answer never came (its order then names only the payment).
   */
  terminalCharges: Map<string, AskedCharge>;
};

export type AskedCharge = { ticketId: string; amountCents: number };

/** The Lightning node the guests' wallets pay, and the card terminals they tap. */
export type Simulators = { phoenixd: PhoenixdSimulator; mercadoPago: MercadoPagoSimulator };

/** Thrown when the server gave no answer: the writer stops, as a tablet does when the server is gone. */
class NoAnswer extends Error {}

type CompleteOrder = { order: { total: number }; dishes: { id: string }[] };

/**
 * One cashier's service loop, as fast as answers come: new tables, an order at one, sometimes a second
 * order merged into it, the plates sent (stock moves), the party moved, one bill, paid in cash, or by
 * card (recorded, or half the time charged on the writer's own terminal at the Mercado Pago simulator)
 * and Lightning (paid by an outside payer through the phoenixd simulator), part of the cash refunded,
 * the order closed; now and then a stock count. Stops when told or when the server is gone.
 */
export async function serveUntilStopped(
  session: ApiSession,
  writer: number,
  setup: MoneySetup,
  ledger: MoneyLedger,
  simulators: Simulators,
  isStopped: () => boolean,
): Promise<void> {
  const write = async <T>(
    kind: WriteKind,
    status: number,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => {
    const reply = await session.request(method, path, body, headers).catch(() => {
      ledger.lost(kind);
      throw new NoAnswer();
    });
    if (reply.status !== status) {
      ledger.refused.push(
        `${kind}: ${method} ${path} answered ${reply.status} ${JSON.stringify(reply.body)}`,
      );
      return undefined;
    }
    ledger.ack(kind);
    return reply.body as T;
  };
  const read = async <T>(path: string) => {
    const reply = await session.request('GET', path).catch(() => {
      throw new NoAnswer();
    });
    return reply.status === 200 ? (reply.body as T) : undefined;
  };
  const plates = (count: number) => Array.from({ length: count }, () => ({ dish_id: setup.plateDishId }));
  const terminalId = setup.terminals[writer - 1];
  /**
   * Set once this run's terminal holds a charge the writer cannot see through (left for its guest, or
   * not settled in time): the server allows one pending charge per terminal, so the rest go by card.
   */
  let isTerminalBusy = false;

  /**
   * The card part charged on the writer's terminal, with a new Idempotency-Key per charge: after the
   * 201 the guest taps (one in ten first declined, then charged again), or now and then leaves it to
   * tap while the server is down. True once the charge settled; undefined when refused.
   */
  const chargeOnTerminal = async (terminal: string, asked: AskedCharge): Promise<boolean | undefined> => {
    for (let attempt = 1; ; attempt++) {
      setup.terminalCharges.set(terminal, asked);
      const charge = await write<{ payment_id: string }>(
        'terminal charge',
        201,
        'POST',
        `/tickets/${asked.ticketId}/card-terminal`,
        { amount: asked.amountCents / 100, terminal_id: terminal },
        { 'idempotency-key': randomUUID() },
      );
      if (!charge) return undefined;
      if (Math.random() < 0.2) {
        isTerminalBusy = true;
        return false;
      }
      const order = simulators.mercadoPago.point.openOrderOn(terminal);
      if (!order) {
        ledger.refused.push(`terminal charge ${charge.payment_id}: answered 201, nothing on ${terminal}`);
        return undefined;
      }
      if (attempt === 1 && Math.random() < 0.1) {
        simulators.mercadoPago.point.decline(order, 'insufficient_funds');
        ledger.declinedCharges++;
        // The next charge on this terminal waits until the server has read the decline back.
        if (await reachesStatus(read, charge.payment_id, (status) => status === 'failed')) continue;
        isTerminalBusy = true;
        return false;
      }
      tapAtTerminal(simulators.mercadoPago, ledger, terminal, asked);
      const isSettled = await reachesStatus(read, charge.payment_id, (status) => status === 'settled');
      if (!isSettled) isTerminalBusy = true;
      return isSettled;
    }
  };

  try {
    for (let cycle = 1; !isStopped(); cycle++) {
      const tables = [];
      for (const side of ['a', 'b']) {
        const table = await write<{ id: string }>('new table', 201, 'POST', '/tables', {
          name: `w${writer}-${cycle}${side}-${Math.random().toString(36).slice(2, 6)}`,
          space_id: setup.spaceId,
        });
        if (!table) return;
        tables.push(table.id);
      }
      const [first, second] = tables as [string, string];
      const order = await write<{ id: string }>('open order', 201, 'POST', '/orders/with-dishes', {
        order: { table_id: first },
        dishes: plates(1 + Math.floor(Math.random() * 3)),
      });
      if (!order) return;
      ledger.tables.set(order.id, { acknowledged: first, unanswered: [] });

      if (Math.random() < 0.25) {
        const other = await write<{ id: string }>('open order', 201, 'POST', '/orders/with-dishes', {
          order: { table_id: second },
          dishes: plates(1),
        });
        if (!other) return;
        const otherPlates = (await read<CompleteOrder>(`/orders/${other.id}/complete`))?.dishes ?? [];
        const merged = await write('merge tables', 200, 'POST', `/orders/${order.id}/merge`, {
          from_order_id: other.id,
        });
        if (merged)
          ledger.merged.set(other.id, { into: order.id, plateIds: otherPlates.map((dish) => dish.id) });
      }

      const beforeSend = await read<CompleteOrder>(`/orders/${order.id}/complete`);
      const sent = await write('send plates', 200, 'POST', `/orders/${order.id}/send`, {});
      if (sent) for (const dish of beforeSend?.dishes ?? []) ledger.sentPlates.add(dish.id);

      if (Math.random() < 0.5) {
        const where = ledger.tables.get(order.id);
        where?.unanswered.push(second);
        const moved = await write('move table', 200, 'POST', `/orders/${order.id}/move`, {
          table_id: second,
        });
        if (moved && where) ledger.tables.set(order.id, { acknowledged: second, unanswered: [] });
      }

      const bill = await write<{ id: string }>('bill', 201, 'POST', `/orders/${order.id}/tickets`, {});
      if (!bill) return;
      const ticket = await read<{ total: number }>(`/tickets/${bill.id}`);
      if (!ticket) return;
      const totalCents = Math.round(ticket.total * 100);

      let isPaid = false;
      if (Math.random() < 0.5) {
        const tenderedCents = totalCents + 1000;
        const cash = await write<{ id: string }>(
          'cash payment',
          201,
          'POST',
          `/tickets/${bill.id}/payments`,
          {
            method: 'cash',
            amount: totalCents / 100,
            tendered: tenderedCents / 100,
          },
        );
        if (!cash) return;
        ledger.payments.set(cash.id, { ticketId: bill.id, amountCents: totalCents, method: 'cash' });
        isPaid = true;
        if (Math.random() < 0.3) {
          const refundCents = 1 + Math.floor(Math.random() * Math.min(totalCents, 5000));
          const refund = await write<{ id: string }>('refund', 201, 'POST', `/payments/${cash.id}/refund`, {
            amount: refundCents / 100,
            reason: 'Crash test: cold plate',
          });
          if (refund) ledger.refunds.set(refund.id, { paymentId: cash.id, amountCents: refundCents });
        }
      } else {
        const cardCents = Math.floor(totalCents / 2);
        let isCardPaid = true;
        if (terminalId !== undefined && !isTerminalBusy && Math.random() < 0.5) {
          const settled = await chargeOnTerminal(terminalId, { ticketId: bill.id, amountCents: cardCents });
          if (settled === undefined) return;
          isCardPaid = settled;
        } else {
          const card = await write<{ id: string }>(
            'card payment',
            201,
            'POST',
            `/tickets/${bill.id}/payments`,
            {
              method: 'card',
              amount: cardCents / 100,
            },
          );
          if (!card) return;
          ledger.payments.set(card.id, { ticketId: bill.id, amountCents: cardCents, method: 'card' });
        }
        const restCents = totalCents - cardCents;
        const lightning = await write<{ id: string; lightning: { invoice: string } }>(
          'lightning invoice',
          201,
          'POST',
          `/tickets/${bill.id}/lightning`,
          { amount: restCents / 100 },
        );
        if (!lightning) return;
        const asked = {
          invoice: lightning.lightning.invoice,
          paymentId: lightning.id,
          ticketId: bill.id,
          amountCents: restCents,
        };
        if (Math.random() < 0.2) setup.unpaidInvoices.push(asked);
        else {
          await payInvoice(simulators.phoenixd, ledger, asked);
          const isLightningPaid = await reachesStatus(read, lightning.id, (status) => status === 'settled');
          isPaid = isCardPaid && isLightningPaid;
        }
      }

      if (isPaid) {
        const closed = await write('close order', 200, 'POST', `/orders/${order.id}/close`);
        if (closed) ledger.closed.add(order.id);
      }
      if (Math.random() < 0.1) {
        await write('stock count', 200, 'POST', '/inventory/counts', {
          counts: [
            { item_type: 'ingredient', item_id: setup.ingredientId, counted: 100_000 },
            { item_type: 'product', item_id: setup.productId, counted: 100_000 },
          ],
        });
      }
    }
  } catch (error) {
    if (!(error instanceof NoAnswer)) throw error;
  }
}

/** The guest's wallet pays at the node: from here on the payment is owed a settlement, server up or not. */
export async function payInvoice(
  simulator: PhoenixdSimulator,
  ledger: MoneyLedger,
  asked: { invoice: string; paymentId: string; ticketId: string; amountCents: number },
): Promise<void> {
  const { payment } = await simulator.receivePayment(asked.invoice);
  ledger.paidInvoices.set(payment.paymentHash, {
    paymentId: asked.paymentId,
    ticketId: asked.ticketId,
    amountCents: asked.amountCents,
  });
  ledger.payments.set(asked.paymentId, {
    ticketId: asked.ticketId,
    amountCents: asked.amountCents,
    method: 'lightning',
  });
}

/**
 * The guest's card pays what the writer's terminal shows, at the simulator: from here on the charge is
 * owed a settlement, server up or not. The order's external reference is the payment's id. False when
 * the terminal shows nothing.
 */
export function tapAtTerminal(
  simulator: MercadoPagoSimulator,
  ledger: MoneyLedger,
  terminalId: string,
  asked: AskedCharge,
): boolean {
  const order = simulator.point.openOrderOn(terminalId);
  if (!order) return false;
  simulator.point.approve(order, readCard({}));
  const paymentId = order.externalReference;
  ledger.tappedCharges.set(paymentId, { paymentId, terminalId, ...asked });
  ledger.payments.set(paymentId, { ...asked, method: 'card_terminal' });
  return true;
}

/**
 * Whether the payment reached a status within 5 s: the webhook settles Lightning, a terminal's
 * notification and the watch job (every second) settle or fail a charge; the close needs the bill paid.
 */
async function reachesStatus(
  read: <T>(path: string) => Promise<T | undefined>,
  paymentId: string,
  isReached: (status: string) => boolean,
): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const payment = await read<{ status: string }>(`/payments/${paymentId}`);
    if (payment && isReached(payment.status)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
