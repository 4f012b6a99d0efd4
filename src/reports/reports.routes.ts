import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { errors } from '../core/schemas';
import { PrintQueuedReply } from '../printing/printers.schemas';
import { NO_RECEIPT_PRINTER } from '../printing/printing.api';
import { Dashboard, DashboardQuery } from './dashboard.schemas';
import { dashboard } from './dashboard.service';
import { inventoryCsv, inventoryReport } from './inventory-report.service';
import {
  DayParams,
  DayReport,
  InventoryQuery,
  InventoryReport,
  OpenBalances,
  SalesQuery,
  SalesRow,
} from './reports.schemas';
import * as service from './reports.service';

const tags = ['Reports'];

export const reportsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/reports/sales',
    {
      schema: {
        operationId: 'getSalesReport',
        tags,
        summary: 'Sales by day, hour, payment method, dish, category or waiter',
        description:
          'The bills paid between the two local days, summed by the database. Bills split across ' +
          'payment methods or dishes share their amounts out in proportion, to the cent, so every ' +
          'grouping has the same totals. `Accept: text/csv` answers the same rows as CSV with a header.',
        querystring: SalesQuery,
        response: {
          200: {
            description: 'The rows, in key order',
            content: {
              'application/json': { schema: Type.Array(SalesRow) },
              'text/csv': { schema: Type.String() },
            },
          },
          ...errors(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const rows = await service.salesReport(ctx, principalOf(request), request.query);
      if (!wantsCsv(request.headers.accept)) return reply.type('application/json').send(rows);
      return reply.type('text/csv; charset=utf-8').send(service.salesCsv(rows));
    },
  );

  app.get(
    '/reports/inventory',
    {
      schema: {
        operationId: 'getInventoryReport',
        tags,
        summary: 'Stock per item: opening, movements by reason, closing',
        description:
          'For every live item, and every deleted one that moved between the two local days: its stock ' +
          'at the start of the first day, what sales, void returns, waste, receiving, adjustments and ' +
          'counts moved, and its stock at the end of the last day, in the item’s unit. Opening plus the ' +
          'movements is the closing, exactly. `Accept: text/csv` answers the items as CSV with a header.',
        querystring: InventoryQuery,
        response: {
          200: {
            description: 'The period and its items: ingredients, then products, by name',
            content: {
              'application/json': { schema: InventoryReport },
              'text/csv': { schema: Type.String() },
            },
          },
          ...errors(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const report = await inventoryReport(ctx, principalOf(request), request.query);
      if (!wantsCsv(request.headers.accept)) return reply.type('application/json').send(report);
      return reply.type('text/csv; charset=utf-8').send(inventoryCsv(report));
    },
  );

  app.get(
    '/reports/open-balances',
    {
      schema: {
        operationId: 'getOpenBalances',
        tags,
        summary: 'Unpaid orders and overpaid bills',
        description:
          'Completed or cancelled orders not paid in full, and bills that took more than their total.',
        response: { 200: OpenBalances, ...errors(401, 403) },
      },
    },
    (request) => service.openBalances(ctx, principalOf(request)),
  );

  app.get(
    '/reports/day/:date',
    {
      schema: {
        operationId: 'getDayReport',
        tags,
        summary: 'Day report: the X/Z of the whole restaurant for a local day',
        description:
          'The Z report’s figures over every payment and refund of the day, whatever shift took them: ' +
          'sales as /reports/sales counts them for that day (same net), payments by method, and one ' +
          'line per shift plus a line for the money taken or given back outside any shift.',
        params: DayParams,
        response: { 200: DayReport, ...errors(400, 401, 403) },
      },
    },
    (request) => service.dayReport(ctx, principalOf(request), request.params.date),
  );

  app.post(
    '/reports/day/:date/print',
    {
      schema: {
        operationId: 'printDayReport',
        tags,
        summary: 'Print the day report',
        description:
          'Queues the key figures of GET /reports/day/{date} (no charts) for the receipt printer, in the ' +
          'paper’s language and at its width, one line per shift, and answers at once (202); the job is ' +
          `retried until it prints. No receipt printer set up: 400 \`${NO_RECEIPT_PRINTER}\`.`,
        headers: IdempotencyHeaders,
        params: DayParams,
        response: { 202: PrintQueuedReply, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { jobId } = await service.printDayReport(
        ctx,
        principalOf(request),
        request.params.date,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(202).send({ id: jobId, message: 'Day report queued for printing' });
    },
  );

  app.get(
    '/reports/dashboard',
    {
      schema: {
        operationId: 'getDashboard',
        tags,
        summary: 'Dashboard: one local day at a glance, against the same weekday of the last four weeks',
        description:
          'For a local day (today by default): net sales and covers per hour with the usual of the same ' +
          'weekday over the last four weeks, the totals and averages, sales by tender, channel and waiter, ' +
          'the top and bottom dishes, the dishes 86’d, table turn and kitchen times (median and p90), voids, ' +
          'comps, and what is open now. Sales count the Paid bills by their paid_at, as /reports/day does.',
        querystring: DashboardQuery,
        response: { 200: Dashboard, ...errors(400, 401, 403) },
      },
    },
    (request) => dashboard(ctx, principalOf(request), request.query.date),
  );
};

/** CSV only when asked for by name: a client that accepts anything gets JSON. */
function wantsCsv(accept: string | undefined): boolean {
  return accept?.split(',').some((type) => type.trim().split(';')[0] === 'text/csv') ?? false;
}
