import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, NoContent } from '../core/schemas';
import {
  CountBody,
  CountReply,
  MovementBody,
  MovementsQuery,
  MovementView,
  StockItemView,
} from './inventory.schemas';
import * as service from './inventory.service';

const tags = ['Inventory'];

export const inventoryRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/inventory/stock',
    {
      schema: {
        tags,
        operationId: 'listStock',
        summary: 'Stock of every live ingredient and product',
        description: 'Items at or below their reorder level first, then the rest; each group by name.',
        response: { 200: Type.Array(StockItemView), 204: NoContent, ...errors(401, 403) },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listStock(ctx)),
  );

  app.get(
    '/inventory/low-stock',
    {
      schema: {
        tags,
        operationId: 'listLowStock',
        summary: 'Items at or below their reorder level',
        description:
          'What to order. An item crossing its reorder level downwards is announced as the event `stock.low` ' +
          '(topic `inventory`). None: 204.',
        response: { 200: Type.Array(StockItemView), 204: NoContent, ...errors(401, 403) },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listLowStock(ctx)),
  );

  app.get(
    '/inventory/movements',
    {
      schema: {
        tags,
        operationId: 'listStockMovements',
        summary: 'Stock movements, newest first',
        description:
          'Every change of stock is a movement: `sale` (a plate sent to the kitchen), `void` (a sent plate ' +
          'voided before preparing), `receiving`, `adjustment`, `waste`, `count`. Filter by item and by ' +
          'local days; paged by `limit` and `offset`. None: 204.',
        querystring: MovementsQuery,
        response: { 200: Type.Array(MovementView), 204: NoContent, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listMovements(ctx, request.query)),
  );

  app.post(
    '/inventory/movements',
    {
      schema: {
        tags,
        operationId: 'recordStockMovement',
        summary: 'Receive a delivery, or record waste or an adjustment',
        description:
          `A delta of 0: 400 \`${service.DELTA_ZERO}\`; a delivery must add (\`${service.RECEIVING_NEGATIVE}\`) ` +
          `and waste take away (\`${service.WASTE_POSITIVE}\`). An ingredient's delta has at most 3 decimals, ` +
          "a product's is whole. An item that is not live: 400 `Ingredient with ID: <id> not found` (or " +
          '`Product …`). Announced as `stock.moved` (and `stock.low`, `dish.availability_changed` when it ' +
          'crosses the reorder level or zero).',
        headers: IdempotencyHeaders,
        body: MovementBody,
        response: {
          201: Type.Object(IdMessageReply.properties, {
            example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', message: 'Stock movement recorded' },
          }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const claim = idempotencyClaimOf(ctx, request);
      const id = await service.recordMovement(ctx, principalOf(request), request.body, claim);
      return reply.code(201).send({ id, message: 'Stock movement recorded' });
    },
  );

  app.post(
    '/inventory/counts',
    {
      schema: {
        tags,
        operationId: 'recordStockCount',
        summary: 'Enter a count sheet',
        description:
          'Sets each item’s stock to what was counted and records the difference as a `count` movement, the ' +
          `whole sheet in one transaction: one item that is not live refuses it all. An item twice: 400 \`${service.COUNTED_TWICE}\`.`,
        headers: IdempotencyHeaders,
        body: CountBody,
        response: { 200: CountReply, ...errors(400, 401, 403) },
      },
    },
    async (request) => ({
      message: 'Count recorded',
      movements: await service.recordCount(
        ctx,
        principalOf(request),
        request.body,
        idempotencyClaimOf(ctx, request),
      ),
    }),
  );
};
