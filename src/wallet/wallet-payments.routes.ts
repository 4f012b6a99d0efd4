import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { listOrNoContent } from '../core/replies';
import { errors, NoContent } from '../core/schemas';
import * as incoming from './incoming-payments.service';
import {
  IncomingListQuery,
  IncomingPaymentView,
  OutgoingListQuery,
  OutgoingPaymentView,
  PaymentHashParams,
  PaymentIdParams,
} from './wallet.schemas';
import * as service from './wallet.service';

const tags = ['Wallet'];

/** Payment history. Administrators with a wallet token (the registering scope adds both checks). */
export const walletPaymentsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/wallet/payments/incoming',
    {
      schema: {
        tags,
        operationId: 'listIncomingPayments',
        summary: 'Incoming payments, newest first',
        description:
          "The node's payments merged with the ones this server recorded (webhook or earlier listings), " +
          'so history survives a node swap; where both know a payment the node wins. ' +
          '`from`/`to` filter on createdAt. 204 when none.',
        querystring: IncomingListQuery,
        response: { 200: Type.Array(IncomingPaymentView), 204: NoContent, ...errors(400, 401, 403, 503) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await incoming.listIncoming(ctx, request.query)),
  );

  app.get(
    '/wallet/payments/incoming/:paymentHash',
    {
      schema: {
        tags,
        operationId: 'getIncomingPayment',
        summary: 'One incoming payment',
        params: PaymentHashParams,
        response: { 200: IncomingPaymentView, ...errors(400, 401, 403, 404, 503) },
      },
    },
    (request) => incoming.getIncoming(ctx, request.params.paymentHash),
  );

  app.get(
    '/wallet/payments/outgoing',
    {
      schema: {
        tags,
        operationId: 'listOutgoingPayments',
        summary: 'Outgoing payments',
        description:
          'Lightning payments and on-chain operations (kind splice_out, splice_cpfp, …), as the node lists them. 204 when none.',
        querystring: OutgoingListQuery,
        response: { 200: Type.Array(OutgoingPaymentView), 204: NoContent, ...errors(400, 401, 403, 503) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listOutgoing(ctx, request.query)),
  );

  app.get(
    '/wallet/payments/outgoing/:paymentId',
    {
      schema: {
        tags,
        operationId: 'getOutgoingPayment',
        summary: 'One outgoing payment by id',
        params: PaymentIdParams,
        response: { 200: OutgoingPaymentView, ...errors(400, 401, 403, 404, 503) },
      },
    },
    (request) => service.getOutgoing(ctx, request.params.paymentId),
  );

  app.get(
    '/wallet/payments/outgoingbyhash/:paymentHash',
    {
      schema: {
        tags,
        operationId: 'getOutgoingPaymentByHash',
        summary: 'One outgoing payment by payment hash',
        description: 'When several attempts share the hash, the successful (else the pending) one.',
        params: PaymentHashParams,
        response: { 200: OutgoingPaymentView, ...errors(400, 401, 403, 404, 503) },
      },
    },
    (request) => service.getOutgoingByHash(ctx, request.params.paymentHash),
  );
};
