import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, IdParams, MessageReply, NoContent } from '../core/schemas';
import * as methods from './payment-methods.service';
import {
  PaymentBody,
  PaymentCreatedReply,
  PaymentMethodBody,
  PaymentMethodUpdateBody,
  PaymentMethodView,
  PaymentView,
  RefundBody,
  RefundCreatedReply,
} from './payments.schemas';
import * as service from './payments.service';
import * as refunds from './refunds.service';

const tags = ['Payments'];
const adminOnly = { adminOnly: true };

export const paymentsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/tickets/:id/payments',
    {
      schema: {
        operationId: 'recordPayment',
        tags,
        summary: 'Record a payment on a bill',
        description:
          'For every active method but `lightning` (use POST /tickets/{id}/lightning): the payment is ' +
          'settled when recorded. `amount` counts against the balance and is at most the balance; `tip` ' +
          'comes on top. Cash may send `tendered` ≥ amount + tip and the answer carries the `change`. ' +
          'When the balance reaches 0 the bill becomes Paid (2) in the same transaction.',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: PaymentBody,
        response: { 201: PaymentCreatedReply, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const recorded = await service.recordPayment(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send({ ...recorded, message: 'Payment recorded successfully' });
    },
  );

  app.get(
    '/tickets/:id/payments',
    {
      schema: {
        operationId: 'listTicketPayments',
        tags,
        summary: 'Payments of a bill',
        description: 'Oldest first.',
        params: IdParams,
        response: { 200: Type.Array(PaymentView), 204: NoContent, ...errors(400, 401, 404) },
      },
    },
    async (request, reply) =>
      listOrNoContent(reply, await service.listTicketPayments(ctx, request.params.id)),
  );

  app.get(
    '/payments/:id',
    {
      schema: {
        operationId: 'getPayment',
        tags,
        summary: 'Get a payment',
        params: IdParams,
        response: { 200: PaymentView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.getPayment(ctx, request.params.id),
  );

  app.post(
    '/payments/:id/refund',
    {
      config: adminOnly,
      schema: {
        operationId: 'refundPayment',
        tags,
        summary: 'Refund a payment',
        description:
          'Cash, card and other recorded methods: records money given back, at most what is left of the ' +
          "payment's `amount` (default: all of it; tips are not refunded). The bill's and the order's " +
          '`paid` fall by the refund; a Paid bill stays Paid. The payment becomes `partially_refunded` or ' +
          '`refunded`. Lightning payments: 400 (not supported yet).',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: RefundBody,
        response: { 201: RefundCreatedReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const refund = await refunds.refundPayment(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send({ ...refund, message: 'Refund recorded successfully' });
    },
  );

  app.get(
    '/payment-methods',
    {
      schema: {
        operationId: 'listPaymentMethods',
        tags,
        summary: 'Payment methods',
        description: 'Inactive methods included, marked `is_active: false`.',
        response: { 200: Type.Array(PaymentMethodView), ...errors(401) },
      },
    },
    () => methods.listPaymentMethods(ctx),
  );

  app.post(
    '/payment-methods',
    {
      config: adminOnly,
      schema: {
        operationId: 'createPaymentMethod',
        tags,
        summary: 'Add a payment method',
        description: 'A code already in use: 400.',
        headers: IdempotencyHeaders,
        body: PaymentMethodBody,
        response: { 201: IdMessageReply, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { id } = await methods.createPaymentMethod(ctx, request.body, idempotencyClaimOf(ctx, request));
      return reply.code(201).send({ id, message: 'Payment method created successfully' });
    },
  );

  app.put(
    '/payment-methods/:id',
    {
      config: adminOnly,
      schema: {
        operationId: 'updatePaymentMethod',
        tags,
        summary: 'Rename or (de)activate a payment method',
        description: 'An inactive method takes no new payments; its past payments stay as they are.',
        params: IdParams,
        body: PaymentMethodUpdateBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await methods.updatePaymentMethod(ctx, request.params.id, request.body);
      return { message: 'Payment method updated successfully' };
    },
  );
};
