import { type AuditActor, recordAudit } from '../audit/audit.api';
import type { AppContext } from '../core/context';
import { BadRequestError, NotFoundError } from '../core/errors';
import type { IdempotencyClaim } from '../core/idempotency';
import type {
  CreateInvoiceInput,
  GeneratedInvoice,
  NodeBalance,
  NodeInfo,
  NodeOutgoingPayment,
  OnChainOutcome,
  PaymentOutcome,
  PaymentSent,
} from '../core/lightning-node';
import { runPaymentOnce } from '../core/payment-once';
import { callNode } from './node-call';
import { fetchAllPages } from './pages';
import type { OutgoingListQuery, OutgoingPaymentView } from './wallet.schemas';

/**
 * The outgoing record of a new on-chain transaction is searched among those made since a little
 * before it was sent: the node's clock and ours may differ.
 */
const CLOCK_SLACK_MS = 10 * 60 * 1000;

export const getInfo = (ctx: AppContext): Promise<NodeInfo> => callNode(ctx, (node) => node.getInfo());

export const getBalance = (ctx: AppContext): Promise<NodeBalance> =>
  callNode(ctx, (node) => node.getBalance());

export const createInvoice = (ctx: AppContext, input: CreateInvoiceInput): Promise<GeneratedInvoice> =>
  callNode(ctx, (node) => node.createInvoice(input));

function txIdOrThrow(outcome: OnChainOutcome): string {
  if (!outcome.isSent) throw new BadRequestError(`Payment failed: ${outcome.reason}`);
  return outcome.txId;
}

function toPaymentSent(outcome: PaymentOutcome): PaymentSent {
  if (!outcome.isSent) throw new BadRequestError(`Payment failed: ${outcome.reason}`);
  const { isSent: _isSent, ...sent } = outcome;
  return sent;
}

/**
 * The money left outside our database, so there is no business transaction to share: the entry is
 * written on its own once the node has answered, inside the once-only send, so a replayed answer is
 * not recorded twice. The preimage (the proof of payment) stays out of it.
 */
async function auditPayment(ctx: AppContext, actor: AuditActor, kind: string, sent: object): Promise<void> {
  await ctx.db.transaction().execute((trx) =>
    recordAudit(trx, {
      at: ctx.clock.now(),
      actor,
      action: 'wallet.payment_sent',
      target: { type: 'wallet', id: null },
      after: { kind, ...sent },
    }),
  );
}

async function auditedPaymentSent(
  ctx: AppContext,
  actor: AuditActor,
  kind: string,
  outcome: PaymentOutcome,
): Promise<PaymentSent> {
  const sent = toPaymentSent(outcome);
  const { paymentPreimage: _preimage, ...recorded } = sent;
  await auditPayment(ctx, actor, kind, recorded);
  return sent;
}

export function payInvoice(
  ctx: AppContext,
  actor: AuditActor,
  input: { invoice: string; amountSat?: number },
  claim?: IdempotencyClaim,
) {
  return runPaymentOnce(ctx, claim, async () =>
    auditedPaymentSent(ctx, actor, 'invoice', await callNode(ctx, (node) => node.payInvoice(input))),
  );
}

export function payOffer(
  ctx: AppContext,
  actor: AuditActor,
  input: { offer: string; amountSat?: number; message?: string },
  claim?: IdempotencyClaim,
) {
  return runPaymentOnce(ctx, claim, async () =>
    auditedPaymentSent(ctx, actor, 'offer', await callNode(ctx, (node) => node.payOffer(input))),
  );
}

/**
 * phoenixd answers a txid only; the fees are in the outgoing record that transaction created.
 * phoenixd's outgoing list has no order, so every record made since the send began is read (all
 * of them: the default list leaves out pending ones, as a fresh transaction is). The money has left
 * by then, so neither a record not (yet) found nor a node that stops answering may turn the answer
 * into an error that invites a second payment: the fees then read 0 and the record shows them later.
 */
async function feesOfTransaction(ctx: AppContext, txId: string, sentFrom: number): Promise<number> {
  try {
    const from = Math.max(0, sentFrom - CLOCK_SLACK_MS);
    const recent = await callNode(ctx, (node) =>
      fetchAllPages((page) => node.listOutgoingPayments({ ...page, from, all: true })),
    );
    const record = recent.find((payment) => payment.txId === txId);
    return record ? Math.floor(record.feesMsat / 1000) : 0;
  } catch {
    return 0;
  }
}

export function payOnChain(
  ctx: AppContext,
  actor: AuditActor,
  input: { address: string; amountSat: number; feerateSatByte: number },
  claim?: IdempotencyClaim,
) {
  return runPaymentOnce(ctx, claim, async () => {
    const sentFrom = ctx.clock.now();
    const txId = txIdOrThrow(await callNode(ctx, (node) => node.sendToAddress(input)));
    const sent = { txId, amountSat: input.amountSat, feesSat: await feesOfTransaction(ctx, txId, sentFrom) };
    await auditPayment(ctx, actor, 'onchain', { ...sent, address: input.address });
    return sent;
  });
}

export function bumpFee(
  ctx: AppContext,
  actor: AuditActor,
  feerateSatByte: number,
  claim?: IdempotencyClaim,
) {
  return runPaymentOnce(ctx, claim, async () => {
    const sentFrom = ctx.clock.now();
    const txId = txIdOrThrow(await callNode(ctx, (node) => node.bumpFee(feerateSatByte)));
    const bumped = {
      txId,
      newFeerateSatByte: feerateSatByte,
      additionalFeesSat: await feesOfTransaction(ctx, txId, sentFrom),
    };
    await auditPayment(ctx, actor, 'bumpfee', bumped);
    return bumped;
  });
}

function outgoingToView(payment: NodeOutgoingPayment): OutgoingPaymentView {
  return {
    paymentId: payment.paymentId,
    kind: payment.subType,
    paymentHash: payment.paymentHash,
    preimage: payment.preimage,
    txId: payment.txId,
    invoice: payment.invoice,
    sentSat: payment.sentSat,
    feesSat: Math.floor(payment.feesMsat / 1000),
    feesMsat: payment.feesMsat,
    status: payment.isPaid ? 'SENT' : payment.completedAt === null ? 'PENDING' : 'FAILED',
    createdAt: payment.createdAt,
    completedAt: payment.completedAt,
  };
}

export async function listOutgoing(
  ctx: AppContext,
  query: OutgoingListQuery,
): Promise<OutgoingPaymentView[]> {
  const range = { from: query.from, to: query.to };
  const payments = await callNode(ctx, (node) =>
    query.all
      ? fetchAllPages((page) => node.listOutgoingPayments({ ...range, ...page, all: true }))
      : node.listOutgoingPayments({ ...range, limit: query.limit, offset: query.offset }),
  );
  return payments.map(outgoingToView);
}

export async function getOutgoing(ctx: AppContext, paymentId: string): Promise<OutgoingPaymentView> {
  const payment = await callNode(ctx, (node) => node.getOutgoingPayment(paymentId));
  if (!payment) throw new NotFoundError();
  return outgoingToView(payment);
}

export async function getOutgoingByHash(ctx: AppContext, paymentHash: string): Promise<OutgoingPaymentView> {
  const payment = await callNode(ctx, (node) => node.getOutgoingPaymentByHash(paymentHash.toLowerCase()));
  if (!payment) throw new NotFoundError();
  return outgoingToView(payment);
}
