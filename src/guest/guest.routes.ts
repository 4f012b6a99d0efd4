import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { TooManyRequestsError } from '../core/errors';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { errors, IdParams, MessageReply } from '../core/schemas';
import { cfdiFileResponse, sendInvoiceFile } from '../fiscal/fiscal.api';
import { InvoiceBody } from '../fiscal/fiscal.schemas';
import { createGuestLink, hashToken, revokeGuestLinks } from '../tickets/tickets.api';
import {
  GuestBillView,
  GuestInvoiceFileQuery,
  GuestInvoiceView,
  GuestLightningBody,
  GuestLinkView,
  GuestPaymentParams,
  GuestPaymentView,
  GuestTaxInvoiceView,
  GuestTokenParams,
} from './guest.schemas';
import * as service from './guest.service';

/**
 * Enough for a page that polls every second and a table of friends on one link; a bad request
 * counts like any other. Per address too, so one client cannot walk through guessed tokens.
 */
const PER_TOKEN_PER_MINUTE = 240;
const PER_ADDRESS_PER_MINUTE = 600;

const tokenOf = (request: FastifyRequest) => (request.params as { token?: string }).token ?? '';

/** Staff routes of guest links: minting one for a bill and revoking them. */
export const guestLinksRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['Guests'];
  app.post(
    '/tickets/:id/guest-link',
    {
      schema: {
        operationId: 'createGuestLink',
        tags,
        summary: "A link to the bill's guest page",
        description:
          'Each call mints a new link; earlier ones stay valid. The token (256 random bits) is stored only ' +
          'as its hash and opens only this bill, read-only except for paying it. It lives until the bill is ' +
          'paid or canceled plus 24 h, and at most 7 days. `url` is `POS_PUBLIC_URL` + `/g/{token}`; ' +
          'without `POS_PUBLIC_URL`: 503 `Guest links need POS_PUBLIC_URL`.',
        params: IdParams,
        response: { 201: GuestLinkView, ...errors(400, 401, 404, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createGuestLink(ctx, principalOf(request), request.params.id)),
  );

  app.delete(
    '/tickets/:id/guest-link',
    {
      schema: {
        operationId: 'revokeGuestLinks',
        tags,
        summary: 'Revoke every guest link of a bill',
        description: 'Their pages answer 404 from now on, like unknown tokens.',
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 404) },
      },
    },
    async (request) => {
      await revokeGuestLinks(ctx, principalOf(request), request.params.id);
      return { message: 'Guest links revoked' };
    },
  );
};

/**
 * The guest's API: no login (a staff cookie sent along is never looked at), rate limited per token
 * and per address, never cached. An unknown, revoked or expired token: 404 `Resource not found`.
 */
export const guestRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['Guests'];
  const perToken = app.createRateLimit({
    max: PER_TOKEN_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `guest-token ${hashToken(tokenOf(request))}`,
  });
  const perAddress = app.createRateLimit({
    max: PER_ADDRESS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `guest-address ${request.ip}`,
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    for (const limit of [perAddress, perToken]) {
      const outcome = await limit(request);
      if (!outcome.isAllowed && outcome.isExceeded) throw new TooManyRequestsError(outcome.ttlInSeconds);
    }
  });
  const config = { public: true };

  app.get(
    '/guest/:token',
    {
      config,
      schema: {
        operationId: 'getGuestBill',
        tags,
        summary: 'The bill of a guest link',
        description:
          'What the paper check shows (plates with options and seats, discount, tax included, total, paid, ' +
          "balance; the waiter by first name only), each seat's part of the total, the bill status (1 pending, " +
          '2 paid, 3 canceled), and the tip settings; no tips (each phone knows its own). `payable` is the ' +
          'balance less Lightning invoices other guests may still pay. A page ' +
          'may poll this every second: it turns paid as soon as the bill is.',
        params: GuestTokenParams,
        response: { 200: GuestBillView, ...errors(429), 404: MessageReply },
      },
    },
    (request) => service.getGuestBill(ctx, request.params.token),
  );

  app.post(
    '/guest/:token/lightning',
    {
      config,
      schema: {
        operationId: 'requestGuestLightning',
        tags,
        summary: 'A Lightning invoice for (part of) the bill, for a guest',
        description:
          'The same Lightning bill payment as POST /tickets/{id}/lightning, recorded with `created_by: null` ' +
          'and `source: "guest"`. `amount` defaults to all that is payable; `1 ≤ amount ≤ payable`; `tip` at ' +
          'most `max_tip_percent` % of the amount. Several guests may each have an invoice pending at once, ' +
          'but these and the payments never add up to more than the bill: 400 beyond. Money that arrives ' +
          'anyway is recorded.',
        headers: IdempotencyHeaders,
        params: GuestTokenParams,
        body: GuestLightningBody,
        response: { 201: GuestInvoiceView, ...errors(400, 409, 429, 503), 404: MessageReply },
      },
    },
    async (request, reply) => {
      const token = request.params.token;
      const claim = idempotencyClaimOf(ctx, request, `guest ${hashToken(token)}`);
      return reply.code(201).send(await service.requestGuestLightning(ctx, token, request.body, claim));
    },
  );

  app.get(
    '/guest/:token/payments/:id',
    {
      config,
      schema: {
        operationId: 'getGuestPayment',
        tags,
        summary: "Whether a guest's own invoice was paid",
        description:
          'For the page that showed the invoice: `pending`, `settled` or `expired`. Only guest payments of ' +
          "this link's bill; any other id: 404. The stored state (settled by webhook, lookup or sweep).",
        params: GuestPaymentParams,
        response: { 200: GuestPaymentView, ...errors(400, 429), 404: MessageReply },
      },
    },
    (request) => service.getGuestPayment(ctx, request.params.token, request.params.id),
  );

  app.get(
    '/guest/:token/receipt',
    {
      config,
      schema: {
        operationId: 'getGuestReceipt',
        tags,
        summary: 'The digital receipt of a guest link',
        description:
          'The lines of the paper receipt (48 characters wide), as text, less what would tell one guest ' +
          "another's tip: the tips, the cash handed over and change, and the sats each wallet paid.",
        params: GuestTokenParams,
        response: {
          200: { description: 'The receipt', content: { 'text/plain': { schema: Type.String() } } },
          ...errors(429),
          404: MessageReply,
        },
      },
    },
    async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(await service.getGuestReceipt(ctx, request.params.token)),
  );

  app.post(
    '/guest/:token/invoice',
    {
      config,
      schema: {
        operationId: 'invoiceGuestBill',
        tags,
        summary: "The guest's e-invoice (CFDI) of the paid bill, to their RFC",
        description:
          'The same body and checks as the till’s POST /tickets/{id}/invoice: the PAC’s refusals come back ' +
          'as 400 with the reason and change nothing. The answer carries the key to the PDF and XML, which ' +
          'the link alone never opens.',
        params: GuestTokenParams,
        body: InvoiceBody,
        response: { 201: GuestTaxInvoiceView, ...errors(400, 409, 429, 503), 404: MessageReply },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.invoiceGuestBill(ctx, request.params.token, request.body)),
  );

  for (const format of ['pdf', 'xml'] as const) {
    app.get(
      `/guest/:token/invoice.${format}`,
      {
        config,
        schema: {
          operationId: format === 'pdf' ? 'getGuestInvoicePdf' : 'getGuestInvoiceXml',
          tags,
          summary: `The bill's own e-invoice as ${format.toUpperCase()}`,
          description:
            'Only with the `key` that POST /guest/{token}/invoice answered to the phone that asked for the ' +
            'invoice; without it, 404 (whoever else holds the link sees only that the bill is invoiced).',
          params: GuestTokenParams,
          querystring: GuestInvoiceFileQuery,
          response: {
            200: cfdiFileResponse(format),
            ...errors(429, 503),
            404: MessageReply,
          },
        },
      },
      async (request, reply) =>
        sendInvoiceFile(
          reply,
          await service.guestInvoiceFile(ctx, request.params.token, format, request.query.key),
          format,
        ),
    );
  }
};
