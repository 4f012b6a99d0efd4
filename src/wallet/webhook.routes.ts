import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { errors, messageChoices } from '../core/schemas';
import { handlePhoenixdWebhook, type SettleArrived } from './webhook.service';

const MESSAGES = {
  recorded: 'Payment recorded',
  'already recorded': 'Payment already recorded',
  ignored: 'Event ignored',
} as const;

const WebhookReply = Type.Object({
  message: Type.String({ example: MESSAGES.recorded, description: messageChoices(Object.values(MESSAGES)) }),
});

/**
 * phoenixd's webhook. The signature covers the exact bytes sent, so in this plugin (and only here)
 * JSON bodies are kept as the raw string and parsed after the signature is checked.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{
  ctx: AppContext;
  settleArrived: SettleArrived;
}> = async (app, { ctx, settleArrived }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/webhook/phoenixd',
    {
      config: { public: true },
      schema: {
        tags: ['Webhooks'],
        operationId: 'receivePhoenixdWebhook',
        summary: "phoenixd's payment webhook",
        description:
          'Configure phoenixd with `webhook=<this URL>` and `webhook-secret=` PHOENIXD_WEBHOOK_SECRET. ' +
          'Header X-Phoenix-Signature: hex HMAC-SHA256 of the raw body keyed with the secret; missing or ' +
          'wrong: 401. A `payment_received` event {type, timestamp, amountSat, paymentHash, externalId, ' +
          'payerNote, payerKey} is recorded once per payment hash; other events are acknowledged and ignored. ' +
          'amountSat is net of the liquidity fee phoenixd took and may be negative. Impossible values ' +
          '(amountSat fractional or beyond 21 million bitcoin either way, timestamp negative, fractional or ' +
          'past year 9999): 400. The payment is recorded as the node knows it: when the node does not know it ' +
          'as received, 404 `Resource not found` and nothing is recorded; when the node cannot be asked, 503 ' +
          'and nothing is recorded. phoenixd posts each event once and ignores the answer: a bill whose ' +
          'webhook was lost is settled by the sweep and the catch-up read of the node’s paid payments, and ' +
          'the next listing of incoming payments records it. Each bill’s invoice carries PHOENIXD_WEBHOOK_URL ' +
          'when set, so phoenixd posts its payment here even without `webhook=`. ' +
          'Without a configured node the signed payload is recorded as is. ' +
          '503 also when no webhook secret is configured.',
        response: { 200: WebhookReply, ...errors(400, 401, 404, 503) },
      },
    },
    async (request) => {
      const signature = request.headers['x-phoenix-signature'];
      const rawBody = typeof request.body === 'string' ? request.body : '';
      const outcome = await handlePhoenixdWebhook(
        ctx,
        settleArrived,
        rawBody,
        typeof signature === 'string' ? signature : undefined,
      );
      return { message: MESSAGES[outcome] };
    },
  );
};
