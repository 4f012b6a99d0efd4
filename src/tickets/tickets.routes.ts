import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApprovalHeaders } from '../approvals/approvals.schemas';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdParams, MessageReply, NoContent } from '../core/schemas';
import {
  CreatedTicketsReply,
  TicketBody,
  TicketPageReply,
  TicketsQuery,
  TicketView,
} from './tickets.schemas';
import * as service from './tickets.service';

const tags = ['Tickets'];

export const ticketsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/orders/:id/tickets',
    {
      schema: {
        operationId: 'createTicket',
        tags,
        summary: 'Bill an order, whole or split',
        description:
          'Body `{}` bills the whole unbilled balance (with every dish not yet on a bill); ' +
          '`{"order_dish_ids":[...]}` bills exactly those dishes; `{"amount":n}` bills a share of the ' +
          'unbilled balance; `{"by_seat":true}` makes one bill per seat with unbilled plates, plates ' +
          'without a seat on one more, all at once (`ids` lists them; a percent discount applies to each). ' +
          'A dish is on at most one live bill and live bills never add up to more ' +
          'than the order total, also when cashiers split at once. Optional `discount` (`tickets.discount`, ' +
          "or a manager's approval in `X-Manager-Approval`, POST /auth/approvals; a 100 % discount with " +
          'its reason is a comp): ' +
          '`total = subtotal − discount`; a bill discounted to 0 is paid at once. Nothing left: 400 ' +
          '`Nothing left to bill`; a cancelled order or one without dishes: 400.',
        headers: Type.Object({ ...IdempotencyHeaders.properties, ...ApprovalHeaders.properties }),
        params: IdParams,
        body: TicketBody,
        response: { 201: CreatedTicketsReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id, ids } = await service.createTicket(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send({ id, ...(ids ? { ids } : {}), message: 'Ticket created successfully' });
    },
  );

  app.get(
    '/orders/:id/tickets',
    {
      schema: {
        operationId: 'listOrderTickets',
        tags,
        summary: 'Bills of an order',
        description: 'Oldest first, cancelled ones included.',
        params: IdParams,
        response: { 200: Type.Array(TicketView), 204: NoContent, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listOrderTickets(ctx, request.params.id)),
  );

  app.get(
    '/tickets',
    {
      schema: {
        operationId: 'listTickets',
        tags,
        summary: 'List bills',
        description:
          'Newest first, `limit` (default 100, max 1000) and `offset`; X-Total-Count carries the count of ' +
          'all matches. `from`/`to` are inclusive Unix ms of creation.',
        querystring: TicketsQuery,
        response: { 200: TicketPageReply, 204: NoContent, ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      const page = await service.listTickets(ctx, request.query);
      reply.header('X-Total-Count', String(page.totalCount));
      return listOrNoContent(reply, page.items);
    },
  );

  app.get(
    '/tickets/:id',
    {
      schema: {
        operationId: 'getTicket',
        tags,
        summary: 'Get a bill',
        params: IdParams,
        response: { 200: TicketView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.getTicket(ctx, request.params.id),
  );

  app.post(
    '/tickets/:id/cancel',
    {
      schema: {
        operationId: 'cancelTicket',
        tags,
        summary: 'Cancel a bill',
        description:
          'Only while nothing is paid on it (else 400 `Ticket has payments: refund them first`) and no ' +
          'Lightning invoice of it can still be paid (else 409 `Ticket has a pending Lightning invoice: wait ' +
          'until it is paid or expires`: the node cannot withdraw an invoice); its dishes and amount become ' +
          'billable again.',
        params: IdParams,
        response: { 200: MessageReply, ...errors(400, 401, 404, 409) },
      },
    },
    async (request) => {
      await service.cancelTicket(ctx, request.params.id);
      return { message: 'Ticket canceled successfully' };
    },
  );
};
