import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Principal, type PrincipalLookup, principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError, ServiceUnavailableError } from '../core/errors';
import { errors } from '../core/schemas';
import {
  authorizeRoute,
  holdsPermission,
  MONEY_READ,
  PRINTER_STATUS_READERS,
  REQUEST_PERMISSIONS,
  type RoutePermission,
} from '../permissions/permissions.api';
import { EventFanOut, frameOf } from './event-fanout';
import { EventStream, type StreamView, streamStart } from './event-stream';
import type { StoredEvent } from './events.repo';

export const STREAM_TOPICS = [
  'orders',
  'kitchen',
  'tables',
  'tickets',
  'payments',
  'inventory',
  'printers',
] as const;

/**
 * Topics only some roles may follow, as the routes that return their records: bills (totals,
 * discounts, tips, balances) to who may read GET /tickets; amounts, tips and refunds; stock levels;
 * the printers' state, to whoever may read GET /printers/status.
 */
const TOPIC_PERMISSIONS: Partial<Record<string, RoutePermission>> = {
  tickets: MONEY_READ,
  payments: REQUEST_PERMISSIONS.streamPayments,
  inventory: REQUEST_PERMISSIONS.streamInventory,
  printers: PRINTER_STATUS_READERS,
};
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

const EventsQuery = Type.Object(
  {
    topics: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: `^(${STREAM_TOPICS.join('|')})(,(${STREAM_TOPICS.join('|')}))*$`,
        description: 'Comma-separated topics; all of them by default',
        example: 'tickets,payments',
      }),
    ),
    last_event_id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_POSITION,
        description: 'Replay after this position (the Last-Event-ID header wins when both are sent)',
      }),
    ),
  },
  { additionalProperties: false },
);

function positionFrom(header: string | string[] | undefined, query: number | undefined): number | undefined {
  if (header === undefined) return query;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,15}$/.test(value)) throw new BadRequestError('Invalid Last-Event-ID');
  return Number(value);
}

/**
 * The topics asked for, or by default every topic the caller may see. Payments (amounts, tips,
 * refunds) are for the roles that take them, stock for those who read inventory: asking for a topic
 * without its permission is refused.
 */
function topicsFor(principal: Principal, asked: string | undefined): Set<string> {
  if (asked === undefined) {
    return new Set(
      STREAM_TOPICS.filter((topic) => {
        const guard = TOPIC_PERMISSIONS[topic];
        return guard === undefined || holdsPermission(principal, guard);
      }),
    );
  }
  const topics = new Set(asked.split(','));
  for (const topic of topics) {
    const guard = TOPIC_PERMISSIONS[topic];
    if (guard !== undefined) authorizeRoute(principal, guard);
  }
  return topics;
}

/** What an order's record says of its bills (orders/order-views.ts leaves the same out of GET /orders). */
const BILL_FIELDS = ['discount', 'paid', 'balance'];

function withoutBillFields(record: unknown): void {
  if (typeof record !== 'object' || record === null) return;
  for (const field of BILL_FIELDS) delete (record as Record<string, unknown>)[field];
}

/**
 * The orders topic as a caller who may not read bills sees it: each order without its bills' money
 * (`data`, or `data.order` of order.dishes_changed), as GET /orders/{id} shows it to them.
 */
const ORDERS_WITHOUT_BILLS: StreamView = {
  key: 'orders-without-bills',
  frame: (row: StoredEvent) => {
    if (row.topic !== 'orders') return undefined;
    const event = JSON.parse(row.payload) as { data?: { order?: unknown } };
    withoutBillFields(event.data);
    withoutBillFields(event.data?.order);
    return frameOf({ ...row, payload: JSON.stringify(event) });
  },
};

/**
 * The live stream (contract-live.md): Server-Sent Events, `id` = position, `event` = type. The
 * principal lookup is the auth guard's, handed in by buildApp: a stream re-checks its caller's
 * session while it stays open, and the sessions belong to a layer above this one.
 */
export const eventsRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  findPrincipal: PrincipalLookup;
}> = async (app, { ctx, findPrincipal: findStreamPrincipal }) => {
  const open = new Set<EventStream>();
  const fanOut = new EventFanOut(ctx, app.log);
  // Closed first on shutdown, so clients reconnect to another instance and the server can drain.
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
    for (const stream of [...open]) stream.close();
  });

  app.get(
    '/events',
    {
      config: { stream: true },
      schema: {
        operationId: 'streamEvents',
        tags: ['Events'],
        summary: 'Live stream of changes (Server-Sent Events)',
        description:
          'Each event has `id` = its position, `event` = its type and `data` = the stored JSON. Send ' +
          'Last-Event-ID (or last_event_id) to replay after a position; `event: reset` means events ' +
          'were pruned since, reload. A comment line arrives at least every 15 s. The `payments` topic needs ' +
          'the `payments.take` permission, and `tickets` one of `payments.take` or `reports.read` (as ' +
          'GET /tickets): asked for without it, 403; by default it is left out. Without those, order ' +
          'events carry no `discount`, `paid` or `balance`, as GET /orders/{id} shows the order to that caller.',
        querystring: EventsQuery,
        response: {
          200: {
            description: 'An endless text/event-stream',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errors(400, 401, 403, 503),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const from = positionFrom(request.headers['last-event-id'], request.query.last_event_id);
      const topics = topicsFor(principal, request.query.topics);
      const start = await streamStart(ctx.db, from);
      // Closing began while this stream was being set up: it missed the hook above, and would hold the
      // server open. Its client reconnects, to another instance or after the restart.
      if (isClosing) throw new ServiceUnavailableError('The server is shutting down');
      reply.hijack();
      const stream = new EventStream(
        ctx,
        fanOut,
        findStreamPrincipal,
        reply.raw,
        principal,
        topics,
        start,
        (ended) => open.delete(ended),
        holdsPermission(principal, MONEY_READ) ? undefined : ORDERS_WITHOUT_BILLS,
      );
      open.add(stream);
      await stream.open();
    },
  );
};
