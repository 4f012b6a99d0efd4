import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import { PRIVATE_TARGET } from './webhook-targets';
import {
  CreatedWebhookView,
  DeliveriesQuery,
  DeliveryPageReply,
  DeliveryParams,
  WebhookBody,
  WebhookView,
} from './webhooks.schemas';
import * as service from './webhooks.service';

const tags = ['Webhooks'];

const DELIVERY_FORMAT =
  'Each matching event is POSTed to the URL as JSON `{"id","type","at","data"}`: `id` is the event ' +
  'position (also in the `POS-Event-Id` header; the same event keeps it on every retry), `at` the Unix ms ' +
  'of the change, `data` the record as its GET shows it. `POS-Signature: t=<unix s>,v1=<hex>` where ' +
  '`v1` is the HMAC-SHA256, keyed with the secret, of `<t>.<body>`; receivers should refuse old `t`. ' +
  'Any 2xx answer is a delivery. Anything else, a redirect (never followed) or no answer within 10 s is ' +
  'retried after 10 s, doubling up to every hour, until 24 h after the first attempt; then the delivery ' +
  'is `failed` and the next one goes. Each webhook gets its events in order: a delivery waits until ' +
  'every earlier one is delivered or failed.';

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/webhooks',
    {
      schema: {
        operationId: 'listWebhooks',
        tags,
        summary: 'List webhooks',
        description: 'Oldest first, without their secrets. None: 204 with no body.',
        response: { 200: Type.Array(WebhookView), 204: NoContent, ...errors(401, 403) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listWebhooks(ctx, principalOf(request))),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'getWebhook',
        tags,
        summary: 'Get a webhook',
        description: 'Without its secret, which only the creation answer shows.',
        params: IdParams,
        response: { 200: WebhookView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getWebhook(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Add a webhook',
        description:
          'Events recorded from now on whose type is in `events` (or every event for `*`) are delivered ' +
          `to \`url\`. A URL that is not http or https: 400 \`${service.URL_NOT_HTTP}\`; with the setting ` +
          '`webhooks_block_private_targets` on, a URL at (or resolving to) a loopback, link-local or private ' +
          `address: 400 \`${PRIVATE_TARGET}\`. Views show the URL with its credentials (user-info, ` +
          '`token`/`key`/`secret`/`signature`… query values) as `***`. The answer holds ' +
          `the signing \`secret\`, shown only here. ${DELIVERY_FORMAT}`,
        body: WebhookBody,
        response: { 201: CreatedWebhookView, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createWebhook(ctx, principalOf(request), request.body)),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'updateWebhook',
        tags,
        summary: 'Change a webhook',
        description:
          'Replaces `url`, `events` and `description`; the secret stays. Deliveries already queued go to ' +
          'the new URL; the new `events` apply to events recorded from now on. The masked URL of the views, ' +
          'sent back unchanged, keeps the stored URL with its credentials.',
        params: IdParams,
        body: roundTripBody(WebhookView, WebhookBody),
        response: { 200: WebhookView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.updateWebhook(ctx, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'deleteWebhook',
        tags,
        summary: 'Remove a webhook',
        description: 'Its deliveries and their log go with it; nothing more is sent.',
        params: IdParams,
        response: { 200: IdMessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.deleteWebhook(ctx, principalOf(request), request.params.id);
      return { id: request.params.id, message: 'Webhook deleted successfully' };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: 'Deliveries of a webhook',
        description:
          'Newest event first, each with every attempt (status code, duration, error); `limit` (default ' +
          '100, max 1000) and `offset`; X-Total-Count carries the count of all deliveries. Finished ' +
          `deliveries are kept for 30 days. ${DELIVERY_FORMAT}`,
        params: IdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryPageReply, 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const page = await service.listDeliveries(ctx, principalOf(request), request.params.id, request.query);
      reply.header('X-Total-Count', String(page.totalCount));
      return listOrNoContent(reply, page.items);
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        operationId: 'retryWebhookDelivery',
        tags,
        summary: 'Send a delivery again',
        description:
          'Queues the delivery to be sent now: a failed (or delivered) one gets a new 24 h of retries, a ' +
          'pending one skips the rest of its wait. It keeps its place in the order of events, so later ' +
          `pending deliveries wait for it. While it is being sent: 409 \`${service.DELIVERY_BEING_SENT}\`.`,
        params: DeliveryParams,
        response: {
          202: IdMessageReply,
          ...errors(400, 401, 403, 404),
          409: Type.Object(
            { message: Type.String({ example: service.DELIVERY_BEING_SENT }) },
            { description: 'Conflict' },
          ),
        },
      },
    },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      await service.retryDelivery(ctx, principalOf(request), id, deliveryId);
      return reply.code(202).send({ id: deliveryId, message: 'Delivery queued for retry' });
    },
  );
};
