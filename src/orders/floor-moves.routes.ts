import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { errors, IdParams } from '../core/schemas';
import { MergeOrderBody, MoveDishesBody, MovedDishesView, MoveOrderBody } from './floor-moves.schemas';
import * as service from './floor-moves.service';
import { CompleteOrderView, OrderView } from './orders.schemas';

const tags = ['Orders'];
const ONE_TRANSACTION =
  'All in one transaction, with the `order.updated`, `order.dishes_changed` and `table.updated` events ' +
  'and an audit entry; an order that is not open (pending, preparing or ready): 400.';

export const floorMovesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/orders/:id/move',
    {
      schema: {
        tags,
        operationId: 'moveOrder',
        summary: 'Move a party to another table',
        description:
          'The open order moves to a free table: the old table becomes available, the new one occupied ' +
          `by the order. A table that is occupied or reserved: 400 \`Table is not free\`. ${ONE_TRANSACTION}`,
        params: IdParams,
        body: MoveOrderBody,
        response: { 200: OrderView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.moveOrder(ctx, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/orders/:id/merge',
    {
      schema: {
        tags,
        operationId: 'mergeOrders',
        summary: 'Merge another table’s order into this one',
        description:
          'Every plate of the other open order moves into this one (totals follow), its guests are added, ' +
          'and the other order, now empty, is cancelled and frees its table. A source with bills or ' +
          `payments: 400 \`Cannot merge an order that has bills\`. ${ONE_TRANSACTION}`,
        params: IdParams,
        body: MergeOrderBody,
        response: { 200: CompleteOrderView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.mergeOrders(ctx, principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/orders/:id/dishes/move',
    {
      schema: {
        tags,
        operationId: 'moveOrderDishes',
        summary: 'Move plates to another order',
        description:
          'The plates keep their ids, prices and kitchen statuses; both totals change. All or nothing: a plate ' +
          `not on this order, on a live bill or voided: 400. ${ONE_TRANSACTION}`,
        params: IdParams,
        body: MoveDishesBody,
        response: { 200: MovedDishesView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.moveDishes(ctx, principalOf(request), request.params.id, request.body),
  );
};
