import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdParams, MessageReply, NoContent, Uuid } from '../core/schemas';
import * as service from './order-dishes.service';
import { DishEntries, OrderDishUpdateRequest, OrderDishView } from './orders.schemas';
import { ENTRY_RULES, PRICE_MISMATCH } from './plate-modifiers';
import { PRICE_OVERRIDE_NOTE } from './price-overrides';

const tags = ['Orders'];
const OrderDishParams = Type.Object({
  id: Uuid({ description: 'The order' }),
  dishId: Uuid({ description: 'The order-dish id (not the menu dish id)' }),
});
const TOTAL_NOTE = 'The order total is updated in the same transaction. A completed or cancelled order: 400.';

export const orderDishesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/orders/:id/dishes',
    {
      schema: {
        tags,
        operationId: 'listOrderDishes',
        summary: 'Dishes of an order',
        params: IdParams,
        response: { 200: Type.Array(OrderDishView), 204: NoContent, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listOrderDishes(ctx, request.params.id)),
  );

  app.post(
    '/orders/:id/dishes',
    {
      schema: {
        tags,
        operationId: 'addOrderDishes',
        summary: 'Add dishes to an order',
        description: `\`price_at_order\` defaults to the dish's current price. ${PRICE_OVERRIDE_NOTE} ${ENTRY_RULES} ${TOTAL_NOTE}`,
        headers: IdempotencyHeaders,
        params: IdParams,
        body: DishEntries,
        response: {
          201: Type.Object({ message: Type.String(), ids: Type.Array(Uuid()) }),
          ...errors(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const { ids } = await service.addDishes(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send({ message: 'Dishes added successfully', ids });
    },
  );

  app.put(
    '/orders/:id/dishes/:dishId',
    {
      schema: {
        tags,
        operationId: 'updateOrderDish',
        summary: 'Update one dish of an order',
        description:
          `${PRICE_OVERRIDE_NOTE} Keeping the price the dish has is no override. \`notes\`, \`seat\` and ` +
          '`course` may change at any time. `modifiers` (the whole new choice, checked as when adding) only ' +
          `while the plate is pending: after it is sent, 400 \`${service.MODIFIERS_FROZEN}\`; a new choice ` +
          'reprices the plate (dish price + deltas) and a `price_at_order` sent with it must match (400 ' +
          `\`${PRICE_MISMATCH}\`). Sending back the options the plate has is no change. The other fields of the ` +
          'plate as GET shows it are ignored, except `status`: the same value is fine, another answers 400 ' +
          'naming the route that changes it (`POST /orders/{id}/send`, `POST …/serve`, `PUT …/status`). ' +
          TOTAL_NOTE,
        params: OrderDishParams,
        body: OrderDishUpdateRequest,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await service.updateOrderDish(
        ctx,
        principalOf(request),
        request.params.id,
        request.params.dishId,
        request.body,
      );
      return { message: 'Dish updated successfully' };
    },
  );

  app.delete(
    '/orders/:id/dishes/:dishId',
    {
      schema: {
        tags,
        operationId: 'removeOrderDish',
        summary: 'Remove one dish from an order',
        description: TOTAL_NOTE,
        params: OrderDishParams,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await service.removeOrderDish(ctx, principalOf(request), request.params.id, request.params.dishId);
      return { message: 'Dish removed successfully' };
    },
  );

  app.delete(
    '/orders/:id/dishes',
    {
      schema: {
        tags,
        operationId: 'removeAllOrderDishes',
        summary: 'Remove every dish from an order',
        description: TOTAL_NOTE,
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await service.removeAllOrderDishes(ctx, principalOf(request), request.params.id);
      return { message: 'All dishes removed successfully' };
    },
  );
};
