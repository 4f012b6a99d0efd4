import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { findPrincipal } from '../auth/sessions.repo';
import type { AppContext } from '../context';
import { principalOf } from '../core/auth-guard';
import { BadRequestError } from '../core/errors';
import { errors } from '../core/schemas';
import { EventFanOut } from './event-fanout';
import { EventStream, streamStart } from './event-stream';

export const STREAM_TOPICS = ['orders', 'kitchen', 'tables', 'tickets', 'payments'] as const;
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

/** The live stream (contract-live.md): Server-Sent Events, `id` = position, `event` = type. */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const open = new Set<EventStream>();
  const fanOut = new EventFanOut(ctx, app.log);
  const findStreamPrincipal = ctx.principals.wrap((sessionId, userId) =>
    findPrincipal(ctx.db, sessionId, userId, ctx.clock.now()),
  );
  // Closed first on shutdown, so clients reconnect to another instance and the server can drain.
  app.addHook('preClose', async () => {
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
          'were pruned since, reload. A comment line arrives at least every 15 s.',
        querystring: EventsQuery,
        response: {
          200: {
            description: 'An endless text/event-stream',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
          ...errors(400, 401),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const from = positionFrom(request.headers['last-event-id'], request.query.last_event_id);
      const topics = new Set(request.query.topics?.split(',') ?? STREAM_TOPICS);
      const start = await streamStart(ctx.db, from);
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
      );
      open.add(stream);
      await stream.open();
    },
  );
};
