import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { errors, Uuid } from '../core/schemas';
import { databaseHealth } from './database-health';
import * as service from './general.service';
import { NetworkView, networkOf } from './network';

const ROOT_TEXT = 'This is the root path of the Restaurant POS API. The documentation is at /swagger.';

const Currency = Type.Object({
  id: Uuid(),
  code: Type.String({ example: 'MXN' }),
  name: Type.String({ example: 'Mexican peso' }),
  symbol: Type.String({ example: '$' }),
});

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable'), Type.Literal('migrating')], {
    description: 'migrating: an upgrade rewrites existing rows; every other route answers 503 until it ends',
  }),
  database: Type.Union(
    [
      Type.Literal('ok'),
      Type.Literal('unreachable'),
      Type.Literal('read-only'),
      Type.Literal('full'),
      Type.Literal('unwritable'),
    ],
    { description: 'ok: it answers and takes writes; otherwise what keeps it from either' },
  ),
  migration: Type.Optional(
    Type.Object(
      {
        name: Type.String({ example: '0022_sales_facts_amount_splits' }),
        done: Type.Integer({ description: 'Units (orders) rewritten so far', example: 250000 }),
        total: Type.Integer({ example: 1000000 }),
        rate: Type.Integer({ description: 'Units per second since the start', example: 4000 }),
      },
      { description: 'While migrating: the backfill under way, once its first batch is done' },
    ),
  ),
});

export const generalRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const open = { public: true };
  const databaseState = databaseHealth(ctx);

  app.get(
    '/',
    {
      config: open,
      schema: {
        tags: ['General'],
        operationId: 'getRoot',
        summary: 'Root of the API',
        response: { 200: Type.String({ example: ROOT_TEXT }) },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(ROOT_TEXT),
  );

  app.get(
    '/base-currency',
    {
      config: open,
      schema: {
        tags: ['General'],
        operationId: 'getBaseCurrency',
        summary: 'The currency prices are in',
        description:
          'currency_id is the id of a row of GET /currencies (the `base_currency` of GET /settings; POS_BASE_CURRENCY is its first default).',
        response: { 200: Type.Object({ currency_id: Uuid() }) },
      },
    },
    () => service.getBaseCurrency(ctx),
  );

  app.get(
    '/currencies',
    {
      config: open,
      schema: {
        tags: ['General'],
        operationId: 'listCurrencies',
        summary: 'Supported currencies',
        response: { 200: Type.Array(Currency) },
      },
    },
    () => service.listCurrencies(ctx),
  );

  app.get(
    '/health/live',
    {
      config: open,
      schema: {
        tags: ['General'],
        operationId: 'checkLiveness',
        summary: 'Liveness: the process answers',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health',
    {
      config: open,
      schema: {
        tags: ['General'],
        operationId: 'checkReadiness',
        summary: 'Readiness: the process answers and the database takes writes',
        description:
          'The database is probed with a real write at most every 5 seconds; calls in between get the last ' +
          'answer. 503 when it is unreachable, read-only, full or refuses writes for another reason, and ' +
          '503 `migrating` (with the progress) while an upgrade backfills existing rows after a start: every ' +
          'other route then answers 503 `Migrating the database` (docs/operations.md).',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const upgrade = app.upgrade.status;
      // A failed backfill (logged) keeps the routes closed too, until a restart retries it.
      if (upgrade.state !== 'finished') {
        const progress = upgrade.state === 'running' ? upgrade.progress : undefined;
        return reply.code(503).send({
          status: 'migrating',
          database: 'ok',
          ...(progress && {
            migration: {
              name: progress.name,
              done: progress.done,
              total: progress.total,
              rate: progress.rate,
            },
          }),
        });
      }
      const database = await databaseState();
      const isReady = database === 'ok';
      return reply.code(isReady ? 200 : 503).send({ status: isReady ? 'ok' : 'unavailable', database });
    },
  );

  app.get(
    '/network',
    {
      schema: {
        tags: ['General'],
        operationId: 'getNetwork',
        summary: 'The addresses tablets can open',
        description:
          "The server's port, whether it listens beyond this machine (HOST), its IPv4 addresses on the " +
          'local network and the public host names of POS_ALLOWED_HOSTS: the manager screen shows the ' +
          'address tablets should open as a QR code.',
        response: { 200: NetworkView, ...errors(401, 403) },
      },
    },
    // The port the server really listens on (0 in the configuration picks a free one).
    (request) => {
      const address = request.server.server.address();
      return networkOf(ctx.config, typeof address === 'object' && address ? address.port : undefined);
    },
  );
};
