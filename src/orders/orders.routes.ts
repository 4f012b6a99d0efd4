import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { Money } from '../core/money';
import { errors, IdMessageReply, IdParams, MessageReply, NoContent, roundTripBody } from '../core/schemas';
import type { CancelBillsOfOrder } from './order-bills.repo';
import { sendOrderPage } from './order-page';
import * as queries from './order-queries.service';
import { orderViewFor } from './order-views';
import {
  CompleteOrderView,
  OrderBody,
  OrderPageReply,
  OrdersQuery,
  OrderUpdateBody,
  OrderView,
  OrderWithDishesBody,
} from './orders.schemas';
import * as service from './orders.service';
import { ENTRY_RULES } from './plate-modifiers';
import { PRICE_OVERRIDE_NOTE } from './price-overrides';

const tags = ['Orders'];
const ORDER_RULES =
  "`user_id` defaults to the caller and `waiter` to that user's name; `status` defaults to pending; " +
  '`total` is ignored (always the sum of the dishes). An active order on a table marks the table ' +
  'occupied; a table holds one active order at a time (else 400).';

/** The permissions that depend on the body: src/roles/request-permissions.ts. */
const CANCEL_NOTE =
  'Cancelling needs `orders.cancel`, and `tickets.cancel` when the order has pending bills (cancelled with it).';

export const ordersRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  cancelBillsOfOrder: CancelBillsOfOrder;
}> = async (app, { ctx, cancelBillsOfOrder }) => {
  app.get(
    '/orders',
    {
      schema: {
        tags,
        operationId: 'listOrders',
        summary: 'List orders',
        description:
          'Newest first, `limit` (default 100, max 1000) and `offset`; the X-Total-Count header carries ' +
          'the count of all matches. `from`/`to` are inclusive Unix ms; `date` is a day in the time zone of GET /settings. `channel=delivery`: the orders of every delivery app.',
        querystring: OrdersQuery,
        response: { 200: OrderPageReply, 204: NoContent, ...errors(400, 401) },
      },
    },
    async (request, reply) => sendOrderPage(request, reply, await queries.listOrders(ctx, request.query)),
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags,
        operationId: 'getOrder',
        summary: 'Get an order',
        params: IdParams,
        response: { 200: OrderView, ...errors(400, 401, 404) },
      },
    },
    async (request) => orderViewFor(principalOf(request), await service.getOrder(ctx, request.params.id)),
  );

  app.get(
    '/orders/:id/complete',
    {
      schema: {
        tags,
        operationId: 'getOrderWithDishes',
        summary: 'An order with its dishes',
        params: IdParams,
        response: { 200: CompleteOrderView, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      const { order, dishes } = await service.getCompleteOrder(ctx, request.params.id);
      return { order: orderViewFor(principalOf(request), order), dishes };
    },
  );

  app.post(
    '/orders',
    {
      schema: {
        tags,
        operationId: 'createOrder',
        summary: 'Open an order',
        description: `${ORDER_RULES} The other fields of an order view (\`id\`, \`total\`, \`created_at\`…) are accepted and ignored, as on PUT.`,
        headers: IdempotencyHeaders,
        body: roundTripBody(OrderView, OrderBody),
        response: { 201: IdMessageReply, ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const { id } = await service.createOrder(ctx, principalOf(request), {
        order: request.body,
        dishes: [],
        claim: idempotencyClaimOf(ctx, request),
      });
      return reply.code(201).send({ message: 'Order added successfully', id });
    },
  );

  app.post(
    '/orders/with-dishes',
    {
      schema: {
        tags,
        operationId: 'createOrderWithDishes',
        summary: 'Open an order with its dishes',
        description: `All or nothing, in one transaction. ${ORDER_RULES} ${PRICE_OVERRIDE_NOTE} ${ENTRY_RULES}`,
        headers: IdempotencyHeaders,
        body: OrderWithDishesBody,
        response: { 201: IdMessageReply, ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const { id } = await service.createOrder(ctx, principalOf(request), {
        ...request.body,
        claim: idempotencyClaimOf(ctx, request),
      });
      return reply.code(201).send({ message: 'Order added successfully', id });
    },
  );

  app.put(
    '/orders/:id',
    {
      schema: {
        tags,
        operationId: 'updateOrder',
        summary: 'Update an order',
        description:
          'Omitted fields keep their values; `total` is ignored. Status moves pending → preparing → ready → ' +
          'completed, or any non-final state → cancelled; sending the current status changes nothing. ' +
          'Completing or cancelling frees the table; changing `table_id` of an active order moves it. ' +
          `${CANCEL_NOTE} Cancelling while a Lightning invoice of one of its bills can still be paid: 409.`,
        params: IdParams,
        body: roundTripBody(OrderView, OrderUpdateBody),
        response: { 200: MessageReply, ...errors(400, 401, 404, 409) },
      },
    },
    async (request) => {
      await service.updateOrder(
        ctx,
        cancelBillsOfOrder,
        principalOf(request),
        request.params.id,
        request.body,
      );
      return { message: 'Order updated successfully' };
    },
  );

  app.post(
    '/orders/:id/close',
    {
      schema: {
        tags,
        operationId: 'closeOrder',
        summary: 'Close a paid order and free its table',
        description:
          'Completes an active order (pending, preparing or ready) whose payments cover its total, in one ' +
          'step, and frees its table: what the till does once a table has paid. 400 ' +
          '`Cannot close an order with a balance due`, or `Cannot close a <status> order` when it is no ' +
          'longer active.',
        params: IdParams,
        response: { 200: OrderView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.closeOrder(ctx, principalOf(request), request.params.id),
  );

  app.delete(
    '/orders/:id',
    {
      schema: {
        tags,
        operationId: 'deleteOrder',
        summary: 'Delete an order',
        description:
          'Logical delete: the order leaves every list, filter and sales total, and its table is freed. ' +
          'Its pending bills are cancelled with it, which needs `tickets.cancel` too. ' +
          'While a Lightning invoice of one of its bills can still be paid: 409.',
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 404, 409) },
      },
    },
    async (request) => {
      await service.deleteOrder(ctx, cancelBillsOfOrder, principalOf(request), request.params.id);
      return { message: 'Order deleted successfully' };
    },
  );

  app.put(
    '/orders/:id/calculate-total',
    {
      schema: {
        tags,
        operationId: 'calculateOrderTotal',
        summary: 'Recalculate and store the total',
        params: IdParams,
        response: {
          200: Type.Object({ message: Type.String(), total: Money() }),
          ...errors(400, 401, 404),
        },
      },
    },
    async (request) => {
      const { total } = await service.calculateTotal(ctx, request.params.id);
      return { message: 'Total calculated successfully', total };
    },
  );
};
