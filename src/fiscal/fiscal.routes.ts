import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { authErrors, errors, IdParams, roundTripBody } from '../core/schemas';
import {
  CancelInvoiceBody,
  FiscalCatalogsView,
  FiscalReportQuery,
  FiscalReportRow,
  FiscalSettingsView,
  GlobalInvoiceBody,
  GlobalPeriodView,
  InvoiceBody,
  InvoiceView,
  TicketFiscalView,
  UpdateFiscalSettingsBody,
} from './fiscal.schemas';
import { cancelInvoice } from './fiscal-cancellations';
import { fiscalCatalogs } from './fiscal-catalogs';
import { issueGlobalByHand, listGlobalPeriods, NO_OPEN_RECEIPTS } from './fiscal-globals';
import { invoiceTicket } from './fiscal-invoices';
import { fiscalReport, fiscalReportCsv } from './fiscal-report';
import { getFiscalSettings, updateFiscalSettings } from './fiscal-settings';
import { getTicketFiscal, invoiceFile } from './fiscal-views';

const tags = ['E-invoice (CFDI)'];

/** Mexico's e-invoice through a PAC (contract-guest-fiscal.md): settings, the till's invoice, the global invoice. */
export const fiscalRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/settings/fiscal',
    {
      schema: {
        operationId: 'getFiscalSettings',
        tags,
        summary: 'The e-invoice settings',
        description: 'Any signed-in user may read them: the till hides invoicing while `enabled` is false.',
        response: { 200: FiscalSettingsView, ...authErrors() },
      },
    },
    () => getFiscalSettings(ctx),
  );

  app.put(
    '/settings/fiscal',
    {
      schema: {
        operationId: 'updateFiscalSettings',
        tags,
        summary: 'Change the e-invoice settings',
        description:
          'Only the fields sent change. The RFC is checked (shape and check digit), the regime against ' +
          "the SAT catalogue and the RFC's kind, each payment form against c_FormaPago (99 is refused). " +
          'Enabling needs POS_PAC_KEY on the server, the RFC, name and postal code, and prices that include ' +
          'IVA. Saving retries the bills whose receipt failed.',
        body: roundTripBody(FiscalSettingsView, UpdateFiscalSettingsBody),
        response: { 200: FiscalSettingsView, ...errors(400, 401, 403) },
      },
    },
    (request) => updateFiscalSettings(ctx, principalOf(request), request.body),
  );

  app.get(
    '/fiscal/catalogs',
    {
      // Public SAT codes: the guest page's invoice form offers them too.
      config: { public: true },
      schema: {
        operationId: 'getFiscalCatalogs',
        tags,
        summary:
          "The SAT codes the screens offer: regimes, CFDI uses (with each one's regimes), payment forms",
        response: { 200: FiscalCatalogsView },
      },
    },
    () => fiscalCatalogs(),
  );

  app.get(
    '/tickets/:id/fiscal',
    {
      schema: {
        operationId: 'getTicketFiscal',
        tags,
        summary: "A bill's fiscal state: its receipt at the PAC, its invoice, or its global invoice",
        params: IdParams,
        response: { 200: TicketFiscalView, ...errors(400, 401, 403) },
      },
    },
    (request) => getTicketFiscal(ctx, request.params.id),
  );

  app.post(
    '/tickets/:id/invoice',
    {
      schema: {
        operationId: 'invoiceTicket',
        tags,
        summary: "Invoice a paid bill to the guest's RFC",
        description:
          'Its receipt at the PAC becomes an invoice. The PAC’s refusals (RFC not registered, name or ' +
          'postal code not matching, a use the regime may not have) answer 400 with the reason and change ' +
          'nothing. Once invoiced: 409 `This bill is already invoiced`; in a global invoice: 400 ' +
          '`This bill is in the global invoice of <date>`; e-invoicing off: 400 `E-invoicing is not enabled`. ' +
          'After its invoice was canceled for errors (motive 02) the corrected one is issued with POST /invoices ' +
          'at the PAC (Facturapi keeps the receipt invoiced); `replaces` issues a substitute of the valid ' +
          'invoice (related by 04) and cancels the old one with motive 01. 503 while the PAC is still ' +
          'stamping a direct invoice (its 202): it is followed and shows in GET /tickets/{id}/fiscal.',
        params: IdParams,
        body: InvoiceBody,
        response: { 201: InvoiceView, ...errors(400, 401, 403, 409, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await invoiceTicket(ctx, principalOf(request), request.params.id, request.body)),
  );

  for (const format of ['pdf', 'xml'] as const) {
    app.get(
      `/invoices/:id/${format}`,
      {
        schema: {
          operationId: format === 'pdf' ? 'getInvoicePdf' : 'getInvoiceXml',
          tags,
          summary: `The stamped CFDI as ${format.toUpperCase()}, as the PAC has it`,
          params: IdParams,
          response: {
            200: cfdiFileResponse(format),
            ...errors(400, 401, 403, 503),
          },
        },
      },
      async (request, reply) =>
        sendInvoiceFile(reply, await invoiceFile(ctx, request.params.id, format), format),
    );
  }

  app.post(
    '/invoices/:id/cancel',
    {
      schema: {
        operationId: 'cancelInvoice',
        tags,
        summary: 'Cancel a CFDI with the SAT’s motive',
        description:
          'Checked here before the PAC is asked: 01 needs `substitution`, the UUID of a valid invoice of the ' +
          'same bill (issue it with POST /tickets/{id}/invoice and `replaces`); 03 needs the bill canceled or ' +
          'refunded in full; 04 is only for a global invoice. After 02 the bill may be invoiced again. 200 when canceled at ' +
          'once; 202 with `status: "cancel_pending"` when the receiver must accept (followed until it is ' +
          'settled); 409 while a cancellation is under way or once canceled.',
        params: IdParams,
        body: CancelInvoiceBody,
        response: { 200: InvoiceView, 202: InvoiceView, ...errors(400, 401, 403, 409, 503) },
      },
    },
    async (request, reply) => {
      const { statusCode, view } = await cancelInvoice(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
      );
      return reply.code(statusCode).send(view);
    },
  );

  app.get(
    '/invoices/global',
    {
      schema: {
        operationId: 'listGlobalInvoices',
        tags,
        summary: 'The last periods of the global invoice and their state',
        response: { 200: Type.Array(GlobalPeriodView), ...authErrors() },
      },
    },
    () => listGlobalPeriods(ctx),
  );

  app.post(
    '/invoices/global',
    {
      schema: {
        operationId: 'createGlobalInvoice',
        tags,
        summary: 'The global invoice of the open receipts of a closed period, now',
        description:
          `Local dates, both included. None open: 400 \`{"message":"${NO_OPEN_RECEIPTS}"}\`. The SAT allows ` +
          'it until 72 hours after the period closes; later, 400 saying so.',
        body: GlobalInvoiceBody,
        response: { 201: InvoiceView, ...errors(400, 401, 403, 409, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await issueGlobalByHand(ctx, principalOf(request), request.body)),
  );

  app.get(
    '/reports/fiscal',
    {
      schema: {
        operationId: 'getFiscalReport',
        tags: ['Reports', ...tags],
        summary: 'Sales per local day with IVA backed out, tips apart, and how much of it is invoiced',
        description:
          '`total` is what the bills paid that day kept (payments less refunds, tips apart); `base` + `iva` ' +
          '= `total`; `invoiced` + `in_global` + `pending` + `failed` + `untracked` + `canceled` = `total`, ' +
          'each bill counted by the state of its CFDI: `untracked` is bills paid while e-invoicing was off, ' +
          '`canceled` bills whose invoice was canceled and not replaced. `Accept: text/csv` answers CSV.',
        querystring: FiscalReportQuery,
        response: {
          200: {
            description: 'One row per local day',
            content: {
              'application/json': { schema: Type.Array(FiscalReportRow) },
              'text/csv': { schema: Type.String() },
            },
          },
          ...errors(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const rows = await fiscalReport(ctx, principalOf(request), request.query);
      const wantsCsv = request.headers.accept?.split(',').some((type) => type.trim().startsWith('text/csv'));
      if (!wantsCsv) return reply.type('application/json').send(rows);
      return reply.type('text/csv; charset=utf-8').send(fiscalReportCsv(rows));
    },
  );
};

/** A CFDI file as a download named by its UUID. */
export function sendInvoiceFile(
  reply: FastifyReply,
  file: { bytes: Buffer; filename: string },
  format: 'pdf' | 'xml',
): FastifyReply {
  return reply
    .type(format === 'pdf' ? 'application/pdf' : 'application/xml; charset=utf-8')
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .send(file.bytes);
}

/** The 200 of a CFDI file route, as the OpenAPI document describes it. */
export function cfdiFileResponse(format: 'pdf' | 'xml') {
  return {
    description: 'The file',
    content:
      format === 'pdf'
        ? { 'application/pdf': { schema: Type.String({ format: 'binary' }) } }
        : { 'application/xml': { schema: Type.String() } },
  };
}
