import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { errors, IdParams, MessageReply } from '../core/schemas';
import * as service from './card-terminal.service';
import { CardTerminalBody, CardTerminalCharge, TerminalSettingsBody, TerminalView } from './payments.schemas';

const tags = ['Card terminal'];

const NotificationQuery = Type.Object(
  {
    'data.id': Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "The provider's order id" }),
    ),
    type: Type.Optional(Type.String({ maxLength: 50, description: '`order` for Point orders' })),
  },
  { additionalProperties: true },
);

/** Mercado Pago Point: the terminals, a charge on one, and the provider's notifications. */
export const cardTerminalRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/tickets/:id/card-terminal',
    {
      schema: {
        operationId: 'chargeOnCardTerminal',
        tags,
        summary: 'Charge a bill on the card terminal',
        description:
          'Mercado Pago Point shows `amount + tip` on the terminal (`terminal_id`, default ' +
          "the restaurant's default terminal) and the guest taps or inserts the card there; the card is never " +
          'keyed into the POS. 201 `{payment_id, status: "pending", terminal_id, expires_at}`: the payment is ' +
          '`pending` (`terminal.state` `created`, then `at_terminal`, or `action_required`: "Revise la ' +
          'terminal") until the provider says; it settles once, by its signed notification or by the watch job ' +
          "reading it back every few seconds, with the card's brand, last four digits, authorisation code and " +
          "the provider's fee. A declined or expired charge becomes `failed` with `terminal.failure_reason` in " +
          "Spanish and leaves the bill open. `Idempotency-Key` is honoured end to end: it becomes the provider's " +
          '`X-Idempotency-Key` (scoped to the caller), so a retry, also after an answer that was lost, answers ' +
          'the same charge and makes no second one. One pending charge per terminal: 409 `The terminal is busy ' +
          'with another charge: wait for it, or cancel it`. An amount above the balance (less what other ' +
          'terminals are charging on this bill), or one the provider refuses (below its minimum), or a terminal ' +
          'not in PDV mode: 400 with the reason, nothing kept. No access token configured: 503. Mercado Pago ' +
          'not answering: the charge stays pending and is sent again with the same key by the watch job.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: CardTerminalBody,
        response: { 201: CardTerminalCharge, ...errors(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const charge = await service.chargeOnTerminal(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send(charge);
    },
  );

  app.get(
    '/terminals',
    {
      schema: {
        operationId: 'listTerminals',
        tags,
        summary: "The account's card terminals",
        description:
          "Mercado Pago's terminal list with each one's operating mode: only a terminal in " +
          '`PDV` mode takes charges from the POS (switch it in the Mercado Pago app; it applies after the ' +
          'terminal restarts). `is_default`: the one a till charges on when it names none. 503: no access ' +
          'token configured, or Mercado Pago not answering.',
        response: { 200: Type.Array(TerminalView), ...errors(401, 403, 503) },
      },
    },
    (request) => service.listTerminals(ctx, principalOf(request)),
  );

  app.put(
    '/settings/terminals',
    {
      schema: {
        operationId: 'setDefaultTerminal',
        tags,
        summary: 'Choose the default card terminal',
        description:
          "The terminal must be one of the account's, in `PDV` mode (400 otherwise); null " +
          'clears the default, and then each till must name its terminal. Audited as `settings.updated`.',
        body: TerminalSettingsBody,
        response: {
          200: Type.Object({ default_terminal_id: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(400, 401, 403, 503),
        },
      },
    },
    (request) => service.setDefaultTerminal(ctx, principalOf(request), request.body.default_terminal_id),
  );

  app.post(
    '/terminals/mercadopago/webhook',
    {
      config: { public: true },
      schema: {
        operationId: 'receiveMercadoPagoNotification',
        tags,
        summary: "Mercado Pago's notifications",
        description:
          'Set this URL in the application\'s notifications ("Your integrations") with the Point orders topic. ' +
          '`x-signature: ts=<ts>,v1=<hex>` is the HMAC-SHA256 with POS_MP_WEBHOOK_SECRET of ' +
          '`id:<data.id from the query, lower-cased>;request-id:<x-request-id>;ts:<ts>;`; missing or wrong: 401 ' +
          'and nothing changes. The body is not signed and is not read: the order named is read back from ' +
          'Mercado Pago by a job within a second, so a notification sent twice, out of order or never settles ' +
          'the charge once all the same. 503: no access token configured.',
        querystring: NotificationQuery,
        response: { 200: MessageReply, ...errors(401, 503) },
      },
    },
    async (request) => {
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      await service.receiveNotification(ctx, {
        dataId: request.query['data.id'],
        type: request.query.type,
        requestId: header('x-request-id'),
        signature: header('x-signature'),
      });
      return { message: 'Received' };
    },
  );
};
