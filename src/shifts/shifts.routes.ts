import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { publishAuditHead, publishedHead } from '../audit/audit.api';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, IdParams, NoContent } from '../core/schemas';
import { PrintQueuedReply } from '../printing/printers.schemas';
import { NO_RECEIPT_PRINTER } from '../printing/printing.api';
import {
  CashMovementBody,
  CloseShiftBody,
  OpenShiftBody,
  ShiftReport,
  ShiftsQuery,
  ShiftView,
} from './shifts.schemas';
import * as service from './shifts.service';

const tags = ['Shifts'];
const conflict = (message: string) =>
  Type.Object({ message: Type.String({ example: message }) }, { description: 'Conflict' });
const OWN_OR_MANAGE = 'Your own shift, or anyone’s with `shifts.manage`.';

export const shiftsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/shifts',
    {
      schema: {
        operationId: 'openShift',
        tags,
        summary: 'Open a shift for your till',
        description: `One open shift per user; a second: 409 \`${service.SHIFT_ALREADY_OPEN}\`. Cash payments and refunds you record while it is open belong to it.`,
        body: OpenShiftBody,
        response: { 201: ShiftView, ...errors(400, 401, 403), 409: conflict(service.SHIFT_ALREADY_OPEN) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.openShift(ctx, principalOf(request), request.body)),
  );

  app.get(
    '/shifts/current',
    {
      schema: {
        operationId: 'getCurrentShift',
        tags,
        summary: 'Your open shift',
        description: 'With the cash expected in the drawer so far. No open shift: 404.',
        response: { 200: ShiftView, ...errors(401, 403, 404) },
      },
    },
    (request) => service.currentShift(ctx, principalOf(request)),
  );

  app.get(
    '/shifts',
    {
      schema: {
        operationId: 'listShifts',
        tags,
        summary: 'Shift history',
        description:
          'Newest first. Without `shifts.manage`, only your own. `from`/`to` (Unix ms) and `date` (local day) filter on the opening time. None: 204.',
        querystring: ShiftsQuery,
        response: { 200: Type.Array(ShiftView), 204: NoContent, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) =>
      listOrNoContent(reply, await service.listShifts(ctx, principalOf(request), request.query)),
  );

  app.get(
    '/shifts/:id',
    {
      schema: {
        operationId: 'getShift',
        tags,
        summary: 'Get a shift',
        description: OWN_OR_MANAGE,
        params: IdParams,
        response: { 200: ShiftView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getShift(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/shifts/:id/cash-movements',
    {
      schema: {
        operationId: 'addShiftCashMovement',
        tags,
        summary: 'Record a pay-in or a pay-out',
        description:
          `${OWN_OR_MANAGE} A closed shift: 409 \`${service.SHIFT_CLOSED}\`. A pay-out larger than the ` +
          `expected cash: 400 \`${service.PAY_OUT_EXCEEDS_CASH} (<expected>)\`, unless sent with ` +
          '`force: true` by a user with shifts.manage (else 403); a forced pay-out is audited and listed on ' +
          'the Z report.',
        params: IdParams,
        body: CashMovementBody,
        response: {
          201: IdMessageReply,
          ...errors(400, 401, 403, 404),
          409: conflict(service.SHIFT_CLOSED),
        },
      },
    },
    async (request, reply) => {
      const id = await service.addCashMovement(ctx, principalOf(request), request.params.id, request.body);
      return reply.code(201).send({ id, message: 'Cash movement recorded' });
    },
  );

  app.post(
    '/shifts/:id/close',
    {
      schema: {
        operationId: 'closeShift',
        tags,
        summary: 'Close a shift with the counted cash',
        description:
          `${OWN_OR_MANAGE} The server computes \`expected_cash\` from the stored payments, refunds and ` +
          `movements, and \`difference\` = counted − expected. Closed shifts never change: 409 \`${service.SHIFT_CLOSED}\`.`,
        params: IdParams,
        body: CloseShiftBody,
        response: { 200: ShiftView, ...errors(400, 401, 403, 404), 409: conflict(service.SHIFT_CLOSED) },
      },
    },
    async (request) => {
      const closed = await service.closeShift(ctx, principalOf(request), request.params.id, request.body);
      // Published outside the database at every close (the log, the anchor file), so a log cut back
      // later shows against it.
      request.log.info({ shift_id: closed.id, audit_head: await publishedHead(ctx.db) }, 'audit head');
      await publishAuditHead(ctx.db, ctx.clock.now());
      return closed;
    },
  );

  app.get(
    '/shifts/:id/report',
    {
      schema: {
        operationId: 'getShiftReport',
        tags,
        summary: 'Z report of a shift',
        description: `${OWN_OR_MANAGE} Every figure is summed from the stored rows; an open shift reports so far.`,
        params: IdParams,
        response: { 200: ShiftReport, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const report = await service.shiftReport(ctx, principalOf(request), request.params.id);
      // The head the report prints is the one the anchor holds from now on.
      await publishAuditHead(ctx.db, ctx.clock.now());
      return report;
    },
  );

  app.post(
    '/shifts/:id/report/print',
    {
      schema: {
        operationId: 'printShiftReport',
        tags,
        summary: 'Print the Z report of a shift',
        description:
          `${OWN_OR_MANAGE} Queues the key figures of GET /shifts/{id}/report (no charts) for the receipt ` +
          'printer, in the paper’s language and at its width, and answers at once (202); the job is retried ' +
          'until it prints. An open shift’s is headed as a corte X (so far). No receipt printer set up: 400 ' +
          `\`${NO_RECEIPT_PRINTER}\`.`,
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 202: PrintQueuedReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { jobId } = await service.printShiftReport(
        ctx,
        principalOf(request),
        request.params.id,
        idempotencyClaimOf(ctx, request),
      );
      // As for GET /shifts/{id}/report: the head on the paper is the one the anchor holds from now on.
      await publishAuditHead(ctx.db, ctx.clock.now());
      return reply.code(202).send({ id: jobId, message: 'Z report queued for printing' });
    },
  );
};
