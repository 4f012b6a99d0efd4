import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import {
  PrinterBody,
  PrinterStatusView,
  PrinterView,
  PrintJobPageReply,
  PrintJobsQuery,
} from './printers.schemas';
import * as service from './printers.service';

const tags = ['Printers'];
const conflict = (message: string) =>
  Type.Object({ message: Type.String({ example: message }) }, { description: 'Conflict' });

export const printersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/printers',
    {
      schema: {
        operationId: 'listPrinters',
        tags,
        summary: 'List printers',
        description: 'By name. None: 204 with no body.',
        response: { 200: Type.Array(PrinterView), 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listPrinters(ctx, principalOf(request))),
  );

  app.get(
    '/printers/status',
    {
      schema: {
        operationId: 'listPrinterStatus',
        tags,
        summary: 'Whether each printer prints',
        description:
          'By name, for the kitchen and the till to warn that tickets are waiting: a printer is `failing` ' +
          'while its latest attempt failed (off, unreachable, out of paper) until a job prints on it again. ' +
          'No printers: an empty list.',
        response: { 200: Type.Array(PrinterStatusView), ...errors(401, 403) },
      },
    },
    () => service.listPrinterStatus(ctx),
  );

  app.get(
    '/printers/:id',
    {
      schema: {
        operationId: 'getPrinter',
        tags,
        summary: 'Get a printer',
        params: IdParams,
        response: { 200: PrinterView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getPrinter(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/printers',
    {
      schema: {
        operationId: 'createPrinter',
        tags,
        summary: 'Add a network printer',
        description:
          'An ESC/POS printer reachable over TCP (port 9100 on most). The first `receipt` printer prints ' +
          'bills; `kitchen` printers print the chits of their `station`, or of every station without one. ' +
          `A \`station\` on a receipt printer: 400 \`${service.STATION_NEEDS_KITCHEN}\`.`,
        headers: IdempotencyHeaders,
        body: PrinterBody,
        response: {
          201: IdMessageReply,
          ...errors(400, 401, 403),
          409: conflict(service.PRINTER_NAME_TAKEN),
        },
      },
    },
    async (request, reply) => {
      const id = await service.createPrinter(
        ctx,
        principalOf(request),
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send({ id, message: 'Printer added successfully' });
    },
  );

  app.put(
    '/printers/:id',
    {
      schema: {
        operationId: 'updatePrinter',
        tags,
        summary: 'Change a printer',
        description: 'Replaces every field; jobs already queued keep the bytes they were made with.',
        params: IdParams,
        body: roundTripBody(PrinterView, PrinterBody),
        response: {
          200: IdMessageReply,
          ...errors(400, 401, 403, 404),
          409: conflict(service.PRINTER_NAME_TAKEN),
        },
      },
    },
    async (request) => {
      await service.updatePrinter(ctx, principalOf(request), request.params.id, request.body);
      return { id: request.params.id, message: 'Printer updated successfully' };
    },
  );

  app.delete(
    '/printers/:id',
    {
      schema: {
        operationId: 'deletePrinter',
        tags,
        summary: 'Remove a printer',
        description: 'Its queued jobs are removed with it.',
        params: IdParams,
        response: { 200: IdMessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.deletePrinter(ctx, principalOf(request), request.params.id);
      return { id: request.params.id, message: 'Printer deleted successfully' };
    },
  );

  app.get(
    '/printers/:id/jobs',
    {
      schema: {
        operationId: 'listPrinterJobs',
        tags,
        summary: 'Print jobs of a printer',
        description:
          'Newest first, `limit` (default 100, max 1000) and `offset`; X-Total-Count carries the count of all ' +
          'jobs. A printer that is off or unreachable keeps its jobs `pending` and gets them, in order, when ' +
          'it is back (retried after 2 s, doubling up to every 5 minutes).',
        params: IdParams,
        querystring: PrintJobsQuery,
        response: { 200: PrintJobPageReply, 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const page = await service.listPrinterJobs(ctx, principalOf(request), request.params.id, request.query);
      reply.header('X-Total-Count', String(page.totalCount));
      return listOrNoContent(reply, page.items);
    },
  );
};
