import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { errors, IdParams } from '../core/schemas';
import { PrintQueuedReply, ReceiptQuery } from '../printing/printers.schemas';
import { NO_RECEIPT_PRINTER } from '../printing/printing.api';
import * as service from './receipts.service';

const tags = ['Tickets'];

export const receiptsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/tickets/:id/receipt',
    {
      schema: {
        operationId: 'getTicketReceipt',
        tags,
        summary: 'The receipt of a bill',
        description:
          'Business header, table, waiter, date in the restaurant’s time zone, the dishes grouped by dish and ' +
          'price, subtotal, discount, total, tax share, payments (sats and rate for Lightning), tip, change ' +
          'and footer, in lines of `width` characters (default 48), in the language of the `locale` setting ' +
          '(es-MX: "Cuenta", "Mesero", "IVA incluido 16 %", amounts as $1,234.50; or en-US). A pending bill’s is ' +
          'the guest check brought to the table before payment: marked `*** PRECUENTA ***` (`*** GUEST CHECK ***`), ' +
          'with the balance due. `format=escpos`: the same lines as ESC/POS bytes for a thermal printer. A receipt ' +
          'printed again (POST /tickets/{id}/print) while the bill is in the same state is marked ' +
          '`*** REIMPRESIÓN ***` (`*** REPRINT ***`).',
        params: IdParams,
        querystring: ReceiptQuery,
        response: {
          200: {
            description: 'The receipt',
            content: {
              'text/plain': { schema: Type.String({ example: '      Casa Pepe\n---\n1 x Tacos   50.00\n' }) },
              'application/octet-stream': { schema: Type.String({ format: 'binary' }) },
            },
          },
          ...errors(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const { width = 48, format = 'text' } = request.query;
      if (format === 'escpos') {
        const bytes = await service.getReceiptEscpos(ctx, request.params.id, width);
        // The type provider reads only JSON response schemas; the octet-stream one above documents this.
        return reply.type('application/octet-stream').send(Buffer.from(bytes) as unknown as string);
      }
      const text = await service.getReceiptText(ctx, request.params.id, width);
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );

  app.post(
    '/tickets/:id/print',
    {
      schema: {
        operationId: 'printTicketReceipt',
        tags,
        summary: 'Print the receipt of a bill',
        description:
          'Queues the receipt for the receipt printer and answers at once (202): a printer that is off or ' +
          'unreachable never fails the request; the job is retried until it prints (see ' +
          `\`GET /printers/{id}/jobs\`). No receipt printer set up: 400 \`${NO_RECEIPT_PRINTER}\`.`,
        headers: IdempotencyHeaders,
        params: IdParams,
        response: { 202: PrintQueuedReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { jobId } = await service.printReceipt(
        ctx,
        principalOf(request),
        request.params.id,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(202).send({ id: jobId, message: 'Receipt queued for printing' });
    },
  );
};
