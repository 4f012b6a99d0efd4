import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { errors, IdMessageReply, IdParams, MessageReply, NoContent, roundTripBody } from '../core/schemas';
import * as lightningBills from './lightning-bills.service';
import * as lightningCancel from './lightning-cancel.service';
import * as methods from './payment-methods.service';
import {
  LightningBillBody,
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
          'When the balance reaches 0 the bill becomes Paid (2) in the same transaction. A Lightning ' +
          'payment counts for its `amount + tip` in full once the node says its invoice is paid, whatever ' +
          '`lightning.received_sat` says (see GET /payments/{id}).',
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

  app.post(
    '/tickets/:id/lightning',
    {
      schema: {
        operationId: 'requestLightningPayment',
        tags,
        summary: 'Ask for a Lightning invoice for a bill',
        description:
          'Any signed-in user (the waiter at the table); no wallet password. `amount` (default: the ' +
          'balance) + `tip` are converted to satoshis at the current exchange rate, rounded up to a whole ' +
          'sat (with BTC as the base currency the rate is 1 and 0.01 BTC = 1,000,000 sat). phoenixd makes ' +
          'the invoice (its `externalId` is the payment id, its description names the business and the ' +
          'table) and a `pending` payment is stored: 201 with the payment view. A bill has at most one ' +
          "pending Lightning payment of the till's: asking again while it is unexpired answers that same " +
          'payment with 200 (also when two requests race), so a retry never makes a second invoice. ' +
          "Guests' pending invoices (POST /guest/{token}/lightning) cover part of the balance: `amount` " +
          'defaults to what they leave uncovered, and asking for more (or when they cover it all) answers 409 ' +
          "`A guest's Lightning invoice is pending on this bill: payment <id> for <amount>; <left> is left to " +
          "ask for`; the till may withdraw it (POST /payments/{id}/cancel). The bill's row lock orders the " +
          "till's and the guests' requests, so together they never ask for more than the balance. A payment past its " +
          'expiry is first checked with the node and then `expired`, and a new one is made. The payment ' +
          'settles without any client (webhook, GET /payments/{id}, a background sweep). No exchange rate ' +
          '(none configured, the source answering a price outside the plausible band, or the last one older ' +
          'than 10 minutes): 503 `Exchange rate unavailable`, ' +
          'nothing stored; node not configured or unavailable: 503, nothing stored.',
        params: IdParams,
        body: LightningBillBody,
        response: { 200: PaymentView, 201: PaymentView, ...errors(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const { isNew, payment } = await lightningBills.requestLightningPayment(
        ctx,
        principalOf(request),
        request.params.id,
        request.body,
      );
      return reply.code(isNew ? 201 : 200).send(payment);
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
        description:
          'A pending Lightning payment is first checked with the node (phoenixd GET ' +
          '/payments/incoming/{hash}): paid, it settles now; past its expiry and unpaid, it becomes ' +
          '`expired`. A node that cannot be asked leaves the stored state as the answer. A settled ' +
          'Lightning payment counts for `amount + tip` in full: phoenixd accepts only an invoice paid in ' +
          'full, and `lightning.received_sat` is what reached the node after the liquidity fee it took ' +
          '(less than `lightning.amount_sat`, even negative; the fee is `lightning.fees_msat`). The guest ' +
          'paid `amount_sat`: that is what the ticket shows; the fee is in the Z report.',
        params: IdParams,
        response: { 200: PaymentView, ...errors(400, 401, 404) },
      },
    },
    (request) => service.getPayment(ctx, request.params.id),
  );

  app.post(
    '/payments/:id/cancel',
    {
      schema: {
        operationId: 'cancelLightningPayment',
        tags,
        summary: 'Withdraw a pending Lightning invoice or card-terminal charge',
        description:
          "`payments.take`. A pending Lightning invoice of the bill (a guest's left open on a phone, or the " +
          "till's own) stops counting: the node is asked first (an invoice already paid settles instead: " +
          '409), then the payment becomes `expired` (event `payment.expired`, audit `payment.canceled`) and ' +
          'no longer holds part of the balance. phoenixd cannot withdraw an invoice: one paid anyway is ' +
          'still recorded and the bill shows it overpaid. Not a Lightning payment: 400; no longer ' +
          'pending: 409 `This Lightning invoice is no longer pending`; node unavailable: 503, nothing changed. ' +
          'A pending card-terminal charge (POST /tickets/{id}/card-terminal): one the terminal has not shown ' +
          'yet is canceled at Mercado Pago at once (`canceled`); one the terminal shows is canceled where ' +
          'Mercado Pago allows it (`x-allow-cancelable-status: at_terminal`): `terminal.cancel_requested` is ' +
          'true and the charge becomes `canceled` when the terminal confirms. Where it refuses: 409 `Cancele en ' +
          'la terminal: …`. Still being sent: 409; no longer pending: 409 `This charge is no longer pending`.',
        params: IdParams,
        response: { 200: PaymentView, ...errors(400, 401, 403, 404, 409, 503) },
      },
    },
    (request) => lightningCancel.cancelLightningPayment(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/payments/:id/refund',
    {
      schema: {
        operationId: 'refundPayment',
        tags,
        summary: 'Refund a payment',
        description:
          'Cash, card and other recorded methods: records money given back, at most what is left of the ' +
          "payment's `amount` (default: all of it; tips are not refunded). The bill's and the order's " +
          '`paid` fall by the refund; a Paid bill stays Paid. The payment becomes `partially_refunded` or ' +
          "`refunded`. Cash comes out of a drawer: the refunder's open shift, or the open shift named in " +
          "`shift_id` (another user's needs `shifts.manage`). While any shift is open (or with " +
          '`require_shift_for_cash`), a cash refund with neither answers 400 `A cash refund comes out of a ' +
          'drawer: open your shift, or name the shift whose drawer pays it`; a closed shift named: 409 ' +
          "`The shift is closed`. Lightning payments: `invoice` (the customer's BOLT11) is required and is paid " +
          'through the node for the refunded amount at the rate of the original payment; the ' +
          "`Idempotency-Key` carries the wallet's rules (a retry never pays twice; a node that gave no " +
          'answer: 504 `Payment outcome unknown: check outgoing payments`, and every retry with that key ' +
          'answers the same without calling the node). A refund the node cannot afford because the ' +
          "payment's sats went to its fee credit says so in its 400. Card-terminal payments are refunded by " +
          "Mercado Pago to the card, whole or part, once per `Idempotency-Key` (the refund's own key is " +
          'the provider\'s): the refund answers `status: "pending"` and leaves the bill\'s `paid` when Mercado ' +
          'Pago processes it (or `failed`, with no money moved); one refund of a payment at a time (409).',
        headers: IdempotencyHeaders,
        params: IdParams,
        body: RefundBody,
        response: { 201: RefundCreatedReply, ...errors(400, 401, 403, 404, 409, 503, 504) },
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
      schema: {
        operationId: 'updatePaymentMethod',
        tags,
        summary: 'Rename or (de)activate a payment method',
        description: 'An inactive method takes no new payments; its past payments stay as they are.',
        params: IdParams,
        body: roundTripBody(PaymentMethodView, PaymentMethodUpdateBody),
        response: { 200: MessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await methods.updatePaymentMethod(ctx, request.params.id, request.body);
      return { message: 'Payment method updated successfully' };
    },
  );
};
