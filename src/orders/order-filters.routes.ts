import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { Page } from '../core/paging';
import { BareText, errors, NoContent, Uuid } from '../core/schemas';
import { sendOrderPage } from './order-page';
import * as queries from './order-queries.service';
import { DateRangeQuery, OrderPageReply, OrderStatusSchema, TotalSalesView } from './orders.schemas';

const tags = ['Orders'];
const PAGED =
  'Newest first, `limit` (default 100, max 1000) and `offset`; X-Total-Count carries the count of all matches.';
const pageReplies = { 200: OrderPageReply, 204: NoContent, ...errors(400, 401) };

export const orderFiltersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/orders/user/:userId',
    {
      schema: {
        tags,
        operationId: 'listUserOrders',
        summary: 'Orders of a user',
        description: PAGED,
        params: Type.Object({ userId: Uuid() }),
        querystring: Page,
        response: pageReplies,
      },
    },
    async (request, reply) =>
      sendOrderPage(
        request,
        reply,
        await queries.findOrders(ctx, { userId: request.params.userId }, request.query),
      ),
  );

  app.get(
    '/orders/table/:tableId',
    {
      schema: {
        tags,
        operationId: 'listTableOrders',
        summary: 'Orders of a table',
        description: PAGED,
        params: Type.Object({ tableId: Uuid() }),
        querystring: Page,
        response: pageReplies,
      },
    },
    async (request, reply) =>
      sendOrderPage(
        request,
        reply,
        await queries.findOrders(ctx, { tableId: request.params.tableId }, request.query),
      ),
  );

  app.get(
    '/orders/status/:status',
    {
      config: { malformedIdMessage: 'Missing or malformed status' },
      schema: {
        tags,
        operationId: 'listOrdersByStatus',
        summary: 'Orders with a status',
        description: `${PAGED} An unknown status: 400.`,
        params: Type.Object({ status: OrderStatusSchema }),
        querystring: Page,
        response: {
          ...pageReplies,
          400: Type.Union([BareText('Missing or malformed status'), pageReplies[400]]),
        },
      },
    },
    async (request, reply) =>
      sendOrderPage(
        request,
        reply,
        await queries.findOrders(ctx, { status: request.params.status }, request.query),
      ),
  );

  app.get(
    '/orders/date-range',
    {
      schema: {
        tags,
        operationId: 'listOrdersByDateRange',
        summary: 'Orders created between two days',
        description: `Both days inclusive, in the time zone of GET /settings; start_date after end_date: 400. ${PAGED}`,
        querystring: DateRangeQuery,
        response: pageReplies,
      },
    },
    async (request, reply) =>
      sendOrderPage(request, reply, await queries.listOrdersBetweenDays(ctx, request.query)),
  );

  app.get(
    '/orders/total-sales/:date',
    {
      config: { malformedIdMessage: 'Missing or malformed date' },
      schema: {
        tags,
        operationId: 'getTotalSales',
        summary: 'Total sales of a day',
        description:
          'Sum and count of the completed orders created that day in the time zone of GET /settings (deleted orders ' +
          'excluded). A day without sales answers 200 with zeros.',
        params: Type.Object({ date: Type.String({ format: 'date', example: '2026-11-22' }) }),
        response: { 200: TotalSalesView, 400: BareText('Missing or malformed date'), ...errors(401) },
      },
    },
    (request) => queries.totalSalesOfDay(ctx, request.params.date),
  );
};
