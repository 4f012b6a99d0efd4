import Fastify from 'fastify';
import { BaselineEvents } from './event-stream';
import { dishView, orderView } from './orders-sql';
import { postgresStatements } from './postgres-statements';
import { salesFactsStatements } from './sales-facts-sql';
import { sqliteStatements } from './sqlite-statements';
import type { OrdersStatements } from './statements';

/**
 * The limit of this stack on this machine: the rush's routes as a bare Fastify app over the same SQL
 * (no auth, no validation, no Kysely), so `npm run bench` can say how much our layers cost.
 */
const url = process.env.DATABASE_URL ?? '';
const statements: OrdersStatements = url.startsWith('sqlite:')
  ? sqliteStatements(url.slice('sqlite:'.length), await salesFactsStatements('sqlite'))
  : postgresStatements(url, await salesFactsStatements('postgres'));
const user = await statements.anyUser();

type IdParams = { Params: { id: string } };
type DishEntry = { dish_id: string };

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
          dishIds: dishes.map((dish) => dish.dish_id),
        },
        Date.now(),
      ),
    );
    return reply.code(201).send({ message: 'Order added successfully', id });
  },
);

app.post<IdParams & { Body: DishEntry[] }>('/orders/:id/dishes', async (request, reply) => {
  const dishIds = request.body.map((dish) => dish.dish_id);
  const ids = committed(await statements.addDishes(request.params.id, dishIds, Date.now()));
  if (!ids) return reply.code(404).send('Resource not found');
  return reply.code(201).send({ message: 'Dishes added successfully', ids });
});

app.get<IdParams>('/orders/:id/complete', async (request, reply) => {
  const found = await statements.findOrderWithDishes(request.params.id);
  if (!found) return reply.code(404).send('Resource not found');
  return { order: orderView(found.order), dishes: found.dishes.map(dishView) };
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
