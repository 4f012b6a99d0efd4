import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { errors, NoContent } from '../core/schemas';
import { DisplayCurrentBody, DisplayView, PairBody, PairedView, PairingCodeView } from './displays.schemas';
import * as service from './displays.service';

const tags = ['Customer display'];

/** The customer display at the counter: paired to one till by a code, it shows what that till shows. */
export const displaysRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/displays/pairing-code',
    {
      schema: {
        operationId: 'createDisplayPairingCode',
        tags,
        summary: "A code that pairs a customer display with the caller's till",
        description:
          "Six digits, valid 5 minutes and for one display; a new code replaces the caller's earlier one.",
        response: { 201: PairingCodeView, ...errors(401, 403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createPairingCode(ctx, principalOf(request))),
  );

  app.post(
    '/displays/pair',
    {
      schema: {
        operationId: 'pairDisplay',
        tags,
        summary: 'Pair the calling display with the till whose code it was given',
        description:
          'The display user (one account per screen) stays paired, across log-ins, until it pairs again. ' +
          'An unknown, used or expired code: 400 `Unknown or expired pairing code`. Wrong codes are ' +
          'limited as PINs are (10 per display account and 30 per address in ten minutes): past that, ' +
          '429 with `Retry-After`, even for the right code.',
        body: PairBody,
        response: { 200: PairedView, ...errors(400, 401, 403, 429) },
      },
    },
    async (request) => service.pairDisplay(ctx, principalOf(request), request.body.code, request.ip),
  );

  app.put(
    '/displays/till',
    {
      schema: {
        operationId: 'setDisplayCurrent',
        tags,
        summary: "What the caller's till shows its customer display",
        description:
          'The bill being paid (`ticket_id`, null for none) and, while the guest pays it by Lightning, the ' +
          'payment whose QR code the display shows.',
        body: DisplayCurrentBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.setDisplayCurrent(ctx, principalOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/displays/current',
    {
      schema: {
        operationId: 'getDisplayCurrent',
        tags,
        summary: 'What the paired till shows: its bill, and the Lightning QR while one is asked for',
        description:
          "Only the paired till's current bill; `cashier` null when this display is not paired. The " +
          'display polls it every second.',
        response: { 200: DisplayView, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.getDisplayCurrent(ctx, principalOf(request));
    },
  );
};
