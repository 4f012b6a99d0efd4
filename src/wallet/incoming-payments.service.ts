import type { AppContext } from '../core/context';
import { NotFoundError } from '../core/errors';
import type { NodeIncomingPayment } from '../core/lightning-node';
import * as repo from './incoming-payments.repo';
import { callNode } from './node-call';
import { fetchAllPages } from './pages';
import type { IncomingListQuery, IncomingPaymentView } from './wallet.schemas';

/**
 * Incoming payments come from two places: the node, and our own table of every paid payment we
 * learned of (webhook or an earlier listing). The node wins where both know a payment; the table
 * keeps history that a new node (a swap, a restore) no longer has.
 */
export function nodePaymentToView(payment: NodeIncomingPayment): IncomingPaymentView {
  return {
    paymentHash: payment.paymentHash,
    amountSat: payment.requestedSat ?? payment.receivedSat,
    receivedSat: payment.receivedSat,
    description: payment.description ?? payment.payerNote ?? '',
    externalId: payment.externalId,
    createdAt: payment.createdAt,
    completedAt: payment.completedAt,
    status: payment.isPaid ? 'RECEIVED' : payment.isExpired ? 'EXPIRED' : 'PENDING',
  };
}

function storedToView(row: repo.StoredIncomingPayment): IncomingPaymentView {
  return {
    paymentHash: row.payment_hash,
    amountSat: row.amount_sat,
    receivedSat: row.received_sat,
    description: row.description,
    externalId: row.external_id,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    status: 'RECEIVED',
  };
}

export function nodePaymentToRow(payment: NodeIncomingPayment, now: number): repo.NewIncomingPayment {
  return {
    payment_hash: payment.paymentHash,
    amount_sat: payment.requestedSat ?? payment.receivedSat,
    received_sat: payment.receivedSat,
    fees_sat: Math.floor(payment.feesMsat / 1000),
    description: payment.description ?? payment.payerNote ?? '',
    external_id: payment.externalId,
    status: 'RECEIVED',
    created_at: payment.createdAt,
    completed_at: payment.completedAt,
    recorded_at: now,
  };
}

/** Keeps a copy of every paid payment the node shows us. */
async function rememberPaid(ctx: AppContext, payments: NodeIncomingPayment[]): Promise<void> {
  const paid = payments.filter((payment) => payment.isPaid);
  const now = ctx.clock.now();
  await repo.insertIncomingPayments(
    ctx.db,
    paid.map((payment) => nodePaymentToRow(payment, now)),
  );
}

function mergeNewestFirst(
  fromNode: IncomingPaymentView[],
  stored: IncomingPaymentView[],
  byCompletion: boolean,
): IncomingPaymentView[] {
  const byHash = new Map(stored.map((payment) => [payment.paymentHash, payment]));
  for (const payment of fromNode) byHash.set(payment.paymentHash, payment);
  const timeOf = (payment: IncomingPaymentView) =>
    byCompletion ? (payment.completedAt ?? 0) : payment.createdAt;
  // The node's order (see the repository): payments of one millisecond by hash, so consecutive pages
  // neither repeat nor skip one.
  return [...byHash.values()].sort(
    (a, b) => timeOf(b) - timeOf(a) || a.paymentHash.localeCompare(b.paymentHash),
  );
}

/**
 * One page: the newest `offset + limit` of each source hold the newest `offset + limit` of their
 * union, so the page is cut from the merge of those. `all` lists everything, unpaid included.
 */
export async function listIncoming(
  ctx: AppContext,
  query: IncomingListQuery,
): Promise<IncomingPaymentView[]> {
  const filter = { from: query.from, to: query.to, externalId: query.externalId };
  const wanted = query.offset + query.limit;
  const fromNode = await callNode(ctx, (node) =>
    query.all
      ? fetchAllPages((page) => node.listIncomingPayments({ ...filter, ...page, all: true }))
      : node.listIncomingPayments({ ...filter, limit: wanted, offset: 0 }),
  );
  await rememberPaid(ctx, fromNode);
  const byCompletion = !query.all;
  const stored = await repo.listIncomingPayments(
    ctx.db,
    query.all ? { ...filter, byCompletion } : { ...filter, byCompletion, limit: wanted },
  );
  const merged = mergeNewestFirst(fromNode.map(nodePaymentToView), stored.map(storedToView), byCompletion);
  return query.all ? merged : merged.slice(query.offset, wanted);
}

export async function getIncoming(ctx: AppContext, paymentHash: string): Promise<IncomingPaymentView> {
  const hash = paymentHash.toLowerCase();
  const fromNode = await callNode(ctx, (node) => node.getIncomingPayment(hash));
  if (fromNode) {
    await rememberPaid(ctx, [fromNode]);
    return nodePaymentToView(fromNode);
  }
  const stored = await repo.findIncomingPayment(ctx.db, hash);
  if (!stored) throw new NotFoundError();
  return storedToView(stored);
}
