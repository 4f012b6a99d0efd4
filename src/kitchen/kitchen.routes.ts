import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApprovalHeaders } from '../approvals/approvals.schemas';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { errors, IdParams, MessageReply, Uuid } from '../core/schemas';
import {
  DishStatusBody,
  KitchenQueueItem,
  KitchenQueueQuery,
  SendBody,
  SendReply,
  VoidBody,
} from './kitchen.schemas';
import * as service from './kitchen.service';

const tags = ['Kitchen'];
const OrderDishParams = Type.Object({
  id: Uuid({ description: 'The order' }),
  dishId: Uuid({ description: 'The order-dish id (not the menu dish id)' }),
});

export const kitchenRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/orders/:id/send',
    {
      schema: {
        tags,
        operationId: 'sendOrderToKitchen',
        summary: 'Send the pending dishes of an order to the kitchen',
        description:
          'Without a body (or with `{}`), every pending plate; with `{course}`, only the pending plates of that ' +
          'course (hold-and-fire: starters now, mains later). `sent` counts the plates fired. A retry with ' +
          "the same `Idempotency-Key` answers the first attempt's `sent` and fires nothing more.",
        params: IdParams,
        headers: IdempotencyHeaders,
        body: SendBody,
        response: { 200: SendReply, ...errors(400, 401, 404) },
      },
      // No body is the same as `{}`: fire every pending plate, as before courses existed.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { sent } = await service.sendOrder(ctx, principalOf(request), request.params.id, {
        course: request.body.course,
        claim: idempotencyClaimOf(ctx, request),
      });
      return { message: 'Dishes sent to kitchen', sent };
    },
  );

  app.put(
    '/orders/:id/dishes/:dishId/status',
    {
      schema: {
        tags,
        operationId: 'moveOrderDishStatus',
        summary: 'Move one dish through the kitchen, or void it',
        description:
          'pending → sent → preparing → ready → served; any state before served → voided (with a reason; ' +
          "the price leaves the order total; it needs `dishes.void` or a manager's approval in `X-Manager-Approval`). " +
          'A dish on a live bill cannot be voided.',
        params: OrderDishParams,
        body: DishStatusBody,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await service.moveDishStatus(
        ctx,
        principalOf(request),
        request.params.id,
        request.params.dishId,
        request.body,
      );
      return { message: 'Dish status updated' };
    },
  );

  app.post(
    '/orders/:id/dishes/:dishId/serve',
    {
      schema: {
        tags,
        operationId: 'serveOrderDish',
        summary: 'Mark a ready dish served',
        description:
          'ready → served and nothing else: the step of the kitchen flow that the floor takes, so a waiter ' +
          'needs no `kitchen.advance` for it. The same change and `dish.status_changed` event as ' +
          'PUT /orders/{id}/dishes/{dishId}/status with `served`; a dish that is not ready: 400.',
        params: OrderDishParams,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await service.moveDishStatus(ctx, principalOf(request), request.params.id, request.params.dishId, {
        status: 'served',
      });
      return { message: 'Dish status updated' };
    },
  );

  app.post(
    '/orders/:id/dishes/:dishId/void',
    {
      schema: {
        tags,
        operationId: 'voidOrderDish',
        summary: 'Void a plate the kitchen has, with a reason',
        description:
          "The floor's way to void: the same change, `dish.status_changed` event and kitchen alert as " +
          'PUT /orders/{id}/dishes/{dishId}/status with `voided`, without `kitchen.advance`. Needs ' +
          "`dishes.void`, or a manager's approval in the `X-Manager-Approval` header (POST /auth/approvals), " +
          'spent by this void; the plate records who voided it and who approved. A served or voided plate, ' +
          'or one on a live bill: 400.',
        headers: ApprovalHeaders,
        params: OrderDishParams,
        body: VoidBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.moveDishStatus(ctx, principalOf(request), request.params.id, request.params.dishId, {
        status: 'voided',
        reason: request.body.reason,
      });
      return { message: 'Dish voided' };
    },
  );

  app.get(
    '/kitchen/queue',
    {
      schema: {
        tags,
        operationId: 'getKitchenQueue',
        summary: 'Dishes waiting at a station, oldest first',
        querystring: KitchenQueueQuery,
        response: { 200: Type.Array(KitchenQueueItem), ...errors(400, 401) },
      },
    },
    async (request) => service.kitchenQueue(ctx, request.query),
  );
};
