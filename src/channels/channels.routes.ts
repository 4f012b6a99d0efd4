import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { authErrors, errors, IdParams, MessageReply } from '../core/schemas';
import * as orders from './channel-orders.service';
import {
  ChannelParams,
  ChannelSettingsBody,
  ChannelView,
  DenyBody,
  MapBody,
  PauseBody,
} from './channels.schemas';
import * as service from './channels.service';

const tags = ['Delivery apps'];

/** Uber Eats and Rappi: their stores, their webhooks, and what a person does with their orders. */
export const channelsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(webhookRoutes, { ctx });

  app.get(
    '/channels',
    {
      schema: {
        tags,
        operationId: 'listChannels',
        summary: 'The delivery apps and their state',
        description:
          'Each configured platform (POS_UBEREATS_*, POS_RAPPI_*) with its store, whether it takes orders, ' +
          'its pause, its last order and the last error it answered. An unconfigured platform is not listed.',
        response: { 200: Type.Array(ChannelView), ...authErrors() },
      },
    },
    () => service.listChannels(ctx),
  );

  app.post(
    '/channels/:channel/pause',
    {
      schema: {
        tags,
        operationId: 'pauseChannel',
        summary: 'Stop taking orders from a delivery app for some minutes',
        description:
          'The platform is told at once and stops sending orders until the minutes are up (Rappi has no ' +
          '"until": the POS turns the store on again itself). 404: the platform is not configured.',
        params: ChannelParams,
        body: PauseBody,
        response: { 200: ChannelView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.pauseChannel(ctx, request.params.channel, request.body.minutes),
  );

  app.post(
    '/channels/:channel/resume',
    {
      schema: {
        tags,
        operationId: 'resumeChannel',
        summary: 'Take orders from a delivery app again',
        params: ChannelParams,
        response: { 200: ChannelView, ...errors(401, 403, 404) },
      },
    },
    (request) => service.resumeChannel(ctx, request.params.channel),
  );

  app.put(
    '/channels/:channel/settings',
    {
      schema: {
        tags,
        operationId: 'updateChannelSettings',
        summary: "A delivery app's settings",
        description:
          '`auto_accept` (default on): orders are accepted as they arrive; off, the kitchen and the till ' +
          "accept or deny each before the platform's deadline. `commission_percent`: what the platform keeps " +
          'of each sale, for the reports (its own figure per order wins where its API gives one).',
        params: ChannelParams,
        body: ChannelSettingsBody,
        response: { 200: ChannelView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.updateChannelSettings(ctx, request.params.channel, request.body),
  );

  app.post(
    '/channels/:channel/menu-sync',
    {
      schema: {
        tags,
        operationId: 'syncChannelMenu',
        summary: 'Publish the menu to a delivery app',
        description:
          'The live menu (categories, dishes with their prices, modifier groups and options, availability) ' +
          "is queued for upload in the platform's format; the upload replaces the platform's menu. 202: " +
          'queued; `GET /channels` shows an error the platform answers.',
        params: ChannelParams,
        response: { 202: MessageReply, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.syncMenu(ctx, request.params.channel);
      return reply.code(202).send({ message: 'Menu queued for upload' });
    },
  );

  app.post(
    '/orders/:id/accept',
    {
      schema: {
        tags,
        operationId: 'acceptChannelOrder',
        summary: 'Accept a delivery order',
        description:
          'For `auto_accept` off: the order goes to the kitchen, gets its bill paid by the platform and the ' +
          'platform is told. 409 when it is not awaiting acceptance (`held`: map its items first), or its ' +
          'deadline (`accept_by`) has passed.',
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await orders.acceptOrder(ctx, principalOf(request), request.params.id);
      return { message: 'Order accepted' };
    },
  );

  app.post(
    '/orders/:id/deny',
    {
      schema: {
        tags,
        operationId: 'denyChannelOrder',
        summary: 'Deny a delivery order',
        description:
          'The order is cancelled (nothing was cooked or charged) and the platform is told why, with the ' +
          'items the menu lacks. 409 when it is no longer awaiting an answer.',
        params: IdParams,
        body: DenyBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await orders.denyOrder(ctx, principalOf(request), request.params.id, request.body.reason.trim());
      return { message: 'Order denied' };
    },
  );

  app.post(
    '/orders/:id/map',
    {
      schema: {
        tags,
        operationId: 'mapChannelOrderItems',
        summary: "Say which dishes a held delivery order's unknown items are",
        description:
          "Each `index` is a line of the order's `unmapped_items`. Once every line maps, the order awaits " +
          'acceptance (accepted at once with `auto_accept`); lines that still do not map stay listed. 400: ' +
          'the order is not held, or a line does not exist.',
        params: IdParams,
        body: MapBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await orders.mapOrderItems(ctx, principalOf(request), request.params.id, request.body.items);
      return { message: 'Items mapped' };
    },
  );

  app.post(
    '/orders/:id/ready',
    {
      schema: {
        tags,
        operationId: 'markChannelOrderReady',
        summary: 'Tell the delivery app the order is ready for pickup',
        description:
          "The kitchen's ready on every plate does this by itself; this is for doing it by hand. The order " +
          'closes. 409 when it is not being cooked (already ready, denied or cancelled).',
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await orders.markReadyByHand(ctx, principalOf(request), request.params.id);
      return { message: 'Order ready' };
    },
  );
};

/**
 * The platforms' webhooks. The signature covers the exact bytes sent, so in this plugin (and only
 * here) JSON bodies are kept as the raw string.
 */
const webhookRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    '/channels/:channel/webhook',
    {
      config: { public: true },
      schema: {
        tags,
        operationId: 'receiveChannelWebhook',
        summary: "A delivery app's webhook",
        description:
          'Uber Eats: `X-Uber-Signature`, the hex HMAC-SHA256 of the raw body keyed with the client secret. ' +
          'Rappi: `Rappi-Signature: t=<timestamp>,sign=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` keyed ' +
          "with the secret of the event's webhook, which the POS registers through Rappi's API where " +
          'POS_PUBLIC_URL is set (`NEW_ORDER`, `ORDER_EVENT_CANCEL`). Missing or wrong: 401 and nothing is ' +
          'stored. Each event (Uber: `orders.notification`, `orders.cancel`) is stored once (a delivery sent ' +
          'twice, or an order also read, adds nothing) and answered 200 at once; a job takes it in within a ' +
          'second. 404: the platform is not configured.',
        params: ChannelParams,
        response: { 200: MessageReply, ...errors(401, 404) },
      },
    },
    async (request) => {
      const rawBody = typeof request.body === 'string' ? request.body : '';
      await service.receiveWebhook(ctx, request.params.channel, rawBody, request.headers);
      return { message: 'Received' };
    },
  );
};
