import Fastify from 'fastify';
import { BaselineEvents } from './event-stream';
import { completeView, orderView } from './orders-sql';
import { postgresStatements } from './postgres-statements';
import { salesFactsStatements } from './sales-facts-sql';
import { sqliteStatements } from './sqlite-statements';
import type { DishEntry, OrdersStatements } from './statements';

/**
 * The limit of this stack on this machine: the rush's routes as a bare Fastify app over the same SQL
 * (no auth, no validation, no Kysely), so `npm run bench` can say how much our layers cost.
 *
 * What each route executes, as our server does (its SQL logged for one loop of the rush, 2026-11-26;
 * `[pg]` only on PostgreSQL, where the locks are `for update`; `[options]` only when an entry names some):
 * - POST /orders/with-dishes: dishes by id (price, availability, out of stock), the dishes' modifier
 *   group links, [options] the chosen options with their group's name (and out of stock) — then in one transaction: [pg] lock the
 *   table, insert the order, insert its plates (seat, course), [options] insert the plates' options,
 *   event order.created, occupy the table, event table.updated.
 * - POST /orders/{id}/dishes: dishes by id, group links, [options] — then in one transaction: lock the
 *   order, insert the plates, [options], recalculate the total, the order ⟕ plates join, the plates'
 *   options, event order.dishes_changed (the complete view, options, seat and course on each plate).
 * - POST /orders/{id}/send: in one transaction: lock the order, the join, the plates' options, mark
 *   the pending plates sent, the join and options again, event order.dishes_changed, the kitchen
 *   printers ([pg] locked; none, so no chit), the plates' recipe lines (of their dishes, then of their
 *   options), then per plate and item in item order: the guarded stock update and its movement; then
 *   per item moved, event stock.moved.
 * - GET /orders/{id}/complete: the order ⟕ plates join, the plates' options (when it has plates).
 * - GET /tables: the live tables.
 * - PUT /orders/{id} (preparing, ready, completed): lock the order, [pg] lock its table, update the
 *   order, event order.updated; to completed also free the table, event table.updated.
 * - GET /orders?status=pending: the page, and the count only when the page is full.
 * - POST /orders/{id}/tickets: lock the order, the join, the plates' options, the dishes already on
 *   live bills, insert the bill, insert its dish links, add to the order's billed and discount,
 *   refresh the order's sales facts (delete, insert), the bill and its links, event ticket.created.
 * - POST /tickets/{id}/payments (cash): the bill, lock the order, the bill again ([pg] locked), the
 *   method, the open shift ([pg] `for share`), the settings when no shift, insert the payment, update
 *   the bill, add to the order's paid, refresh its sales facts, the payment, event payment.settled,
 *   the bill and its links, event ticket.paid.
 */
const url = process.env.DATABASE_URL ?? '';
const statements: OrdersStatements = url.startsWith('sqlite:')
  ? sqliteStatements(url.slice('sqlite:'.length), await salesFactsStatements('sqlite'))
  : postgresStatements(url, await salesFactsStatements('postgres'));
const user = await statements.anyUser();

type IdParams = { Params: { id: string } };

const app = Fastify({ logger: false });
const events = await BaselineEvents.start(url, app.log);
/** Every write of the rush records events: after its commit the live streams have something to read. */
const committed = <T>(result: T): T => {
  events.outboxCommitted();
  return result;
};
app.addHook('onSend', (_request, _reply, payload, done) => {
  if (!statements.hasUnflushedCommits()) return done(null, payload);
  statements.flushCommits().then(() => done(null, payload), done);
});

app.get('/ready', async () => ({ ready: true }));

app.get('/events', async (request, reply) => {
  reply.hijack();
  const lastEventId = request.headers['last-event-id'];
  await events.open(reply.raw, typeof lastEventId === 'string' ? lastEventId : undefined);
});

app.post<{ Body: { order: { table_id?: string | null }; dishes: DishEntry[] } }>(
  '/orders/with-dishes',
  async (request, reply) => {
    const { order, dishes } = request.body;
    const id = committed(
      await statements.createOrderWithDishes(
        {
          userId: user.id,
          waiter: user.name,
          tableId: order.table_id ?? null,
          dishes,
        },
        Date.now(),
      ),
    );
    return reply.code(201).send({ message: 'Order added successfully', id });
  },
);

app.post<IdParams & { Body: DishEntry[] }>('/orders/:id/dishes', async (request, reply) => {
  const ids = committed(await statements.addDishes(request.params.id, request.body, Date.now()));
  if (!ids) return reply.code(404).send('Resource not found');
  return reply.code(201).send({ message: 'Dishes added successfully', ids });
});

app.post<IdParams>('/orders/:id/send', async (request, reply) => {
  const sent = committed(await statements.sendOrder(request.params.id, user.id, Date.now()));
  if (sent === undefined) return reply.code(404).send('Resource not found');
  return { message: 'Dishes sent to kitchen', sent };
});

app.get<IdParams>('/orders/:id/complete', async (request, reply) => {
  const found = await statements.findOrderWithDishes(request.params.id);
  if (!found) return reply.code(404).send('Resource not found');
  return completeView(found);
});

app.get('/tables', () => statements.listTables());

app.post<IdParams>('/orders/:id/tickets', async (request, reply) => {
  const id = committed(await statements.billWholeOrder(request.params.id, user.id, Date.now()));
  if (!id) return reply.code(400).send({ message: 'Nothing left to bill' });
  return reply.code(201).send({ id, message: 'Ticket created successfully' });
});

app.post<IdParams & { Body: { amount: number; tendered: number } }>(
  '/tickets/:id/payments',
  async (request, reply) => {
    const amountCents = Math.round(request.body.amount * 100);
    const tenderedCents = Math.round(request.body.tendered * 100);
    const id = committed(
      await statements.payCash(request.params.id, user.id, { amountCents, tenderedCents }, Date.now()),
    );
    if (!id) return reply.code(400).send({ message: 'Ticket is already paid' });
    return reply.code(201).send({ id, ticket_status: 2, change: (tenderedCents - amountCents) / 100 });
  },
);

app.put<IdParams & { Body: { status: string } }>('/orders/:id', async (request, reply) => {
  if (!committed(await statements.moveOrder(request.params.id, request.body.status, Date.now()))) {
    return reply.code(404).send('Resource not found');
  }
  return { message: 'Order updated successfully' };
});

app.get<{ Querystring: { status?: string; limit?: string; offset?: string } }>(
  '/orders',
  async (request, reply) => {
    const { status = 'pending', limit = '100', offset = '0' } = request.query;
    const { rows, count } = await statements.listOrders(status, Number(limit), Number(offset));
    reply.header('x-total-count', count);
    if (rows.length === 0) return reply.code(204).send();
    return rows.map(orderView);
  },
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    events
      .close()
      .then(() => app.close())
      .then(() => statements.close())
      .then(() => process.exit(0));
  });
}
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
