import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { idempotencyClaimOf } from '../core/idempotency';
import { errors } from '../core/schemas';
import {
  BalanceReply,
  BumpFeeBody,
  BumpFeeReply,
  CreateInvoiceBody,
  InvoiceReply,
  NodeInfoReply,
  OnChainReply,
  PayInvoiceBody,
  PaymentIdempotencyHeaders,
  PaymentSentReply,
  PayOfferBody,
  PayOnChainBody,
} from './wallet.schemas';
import * as service from './wallet.service';

const tags = ['Wallet'];
const PAYMENT_FAILED =
  'A failed payment answers 400 {"message":"Payment failed: <reason from the node>"}. When the node does not ' +
  'answer in time the money may have left: 504 {"message":"Payment outcome unknown: check outgoing payments"}.';

/** For whoever takes payments: the waiter shows the guest a QR code to pay. */
export const invoiceRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/wallet/createinvoice',
    {
      schema: {
        tags,
        operationId: 'createInvoice',
        summary: 'Create a Lightning invoice',
        description: '`description` is required; the other fields are optional.',
        body: CreateInvoiceBody,
        response: { 200: InvoiceReply, ...errors(400, 401, 503) },
      },
    },
    (request) => service.createInvoice(ctx, request.body),
  );
};

/** Administrators with a wallet token (the scope that registers this adds both checks). */
export const walletNodeRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/wallet/getinfo',
    {
      schema: {
        tags,
        operationId: 'getNodeInfo',
        summary: 'Node information and channels',
        response: { 200: NodeInfoReply, ...errors(401, 403, 503) },
      },
    },
    () => service.getInfo(ctx),
  );

  app.get(
    '/wallet/getbalance',
    {
      schema: {
        tags,
        operationId: 'getBalance',
        summary: 'Spendable balance and fee credit',
        response: { 200: BalanceReply, ...errors(401, 403, 503) },
      },
    },
    () => service.getBalance(ctx),
  );

  app.post(
    '/wallet/payinvoice',
    {
      schema: {
        tags,
        operationId: 'payInvoice',
        summary: 'Pay a BOLT11 invoice',
        description: PAYMENT_FAILED,
        headers: PaymentIdempotencyHeaders,
        body: PayInvoiceBody,
        response: { 200: PaymentSentReply, ...errors(400, 401, 403, 503, 504) },
      },
    },
    (request) =>
      service.payInvoice(ctx, principalOf(request), request.body, idempotencyClaimOf(ctx, request)),
  );

  app.post(
    '/wallet/payoffer',
    {
      schema: {
        tags,
        operationId: 'payOffer',
        summary: 'Pay a BOLT12 offer',
        description: PAYMENT_FAILED,
        headers: PaymentIdempotencyHeaders,
        body: PayOfferBody,
        response: { 200: PaymentSentReply, ...errors(400, 401, 403, 503, 504) },
      },
    },
    (request) => service.payOffer(ctx, principalOf(request), request.body, idempotencyClaimOf(ctx, request)),
  );

  app.post(
    '/wallet/payonchain',
    {
      schema: {
        tags,
        operationId: 'payOnchain',
        summary: 'Send bitcoin to an on-chain address',
        description: `Spliced out of the node's channel. ${PAYMENT_FAILED} feesSat are the mining fees of the new transaction.`,
        headers: PaymentIdempotencyHeaders,
        body: PayOnChainBody,
        response: { 200: OnChainReply, ...errors(400, 401, 403, 503, 504) },
      },
    },
    (request) =>
      service.payOnChain(ctx, principalOf(request), request.body, idempotencyClaimOf(ctx, request)),
  );

  app.post(
    '/wallet/bumpfee',
    {
      schema: {
        tags,
        operationId: 'bumpFee',
        summary: 'Speed up the pending on-chain transaction',
        description:
          "The body is a bare JSON number: the new fee rate in sat/byte. It applies to the channel's " +
          'unconfirmed splice (the last on-chain payment), paid for by a child transaction (CPFP). ' +
          PAYMENT_FAILED,
        headers: PaymentIdempotencyHeaders,
        body: BumpFeeBody,
        response: { 200: BumpFeeReply, ...errors(400, 401, 403, 503, 504) },
      },
    },
    (request) => service.bumpFee(ctx, principalOf(request), request.body, idempotencyClaimOf(ctx, request)),
  );
};
