import type { AuditActor } from '../audit/audit.api';
import { recordAudit } from '../audit/audit.api';
import type { NewTerminalCharge, TerminalOrder, TerminalRefund } from '../core/card-terminal';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { PlatformError } from '../core/delivery-platform';
import { fromCents } from '../core/money';
import { recordEvent } from '../events/events.api';
import { refreshSalesFacts } from '../orders/orders.api';
import { loadSettings } from '../settings/settings.api';
import { lockTicketWithOrder } from '../tickets/tickets.api';
import * as charges from './card-terminal.repo';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import { settlePendingIn } from './settle-pending';

/** How soon a charge or a refund still moving is read back when no notification came. */
export const CHECK_AFTER_MS = 3000;
/** Long enough for one run to read every charge it claimed; a stopped instance's claim runs out. */
const CLAIM_MS = 30_000;
const BATCH = 50;
/**
 * A charge whose creation got no answer is asked for again with the same key until this long past
 * its expiry: by then the provider has expired any order it made, so nobody can pay it any more.
 */
const GIVE_UP_AFTER_EXPIRY_MS = 60_000;

/** The actor of what the provider did by itself: a refund it processed later. */
const PROVIDER_ACTOR: AuditActor = { id: null, name: 'Mercado Pago' };

/** The provider's reasons, as the cashier reads them. */
const REASONS: Readonly<Record<string, string>> = {
  rejected_by_issuer: 'El banco rechazó la tarjeta',
  insufficient_amount: 'Fondos insuficientes',
  insufficient_funds: 'Fondos insuficientes',
  rejected_high_risk: 'Rechazada por seguridad',
  high_risk: 'Rechazada por seguridad',
  card_expired: 'La tarjeta está vencida',
  invalid_card: 'Tarjeta inválida',
  bad_filled_security_code: 'Código de seguridad incorrecto',
  max_attempts_exceeded: 'Se superó el número de intentos',
  canceled_by_terminal: 'Cancelado en la terminal',
  canceled_by_api: 'Cancelado desde la caja',
  expired: 'El cobro expiró sin pago en la terminal',
};

export function failureReason(status: string, detail: string): string {
  const known = REASONS[detail] ?? REASONS[status];
  if (known !== undefined) return known;
  if (status === 'canceled') return 'Cancelado';
  return `La terminal no pudo cobrar (${detail || status})`;
}

/**
 * Brings a charge up to date with the provider's order: the card paid (settled once, with its card's
 * details from the Payments API), the charge ended unpaid (its reason in Spanish), or what the terminal
 * does meanwhile; then its refunds. Safe to repeat: every step is a conditional update.
 */
export async function applyProviderOrder(
  ctx: AppContext,
  row: payments.PaymentRow,
  order: TerminalOrder,
): Promise<void> {
  const now = ctx.clock.now();
  if (row.status === 'pending') await applyChargeState(ctx, row, order, now);
  await applyRefunds(ctx, row.id, order);
  await scheduleNextCheck(ctx.db, row.id, now);
}

async function applyChargeState(
  ctx: AppContext,
  row: payments.PaymentRow,
  order: TerminalOrder,
  now: number,
): Promise<void> {
  switch (order.status) {
    case 'processed':
    case 'refunded':
      return settleCard(ctx, row, order, now);
    case 'failed':
    case 'expired':
    case 'canceled':
      return endCharge(
        ctx,
        row.id,
        {
          state: order.status === 'failed' ? 'failed' : order.status,
          reason: failureReason(order.status, order.statusDetail),
        },
        now,
      );
    case 'created':
    case 'at_terminal':
    case 'action_required':
      if (order.status === row.terminal_state) return;
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await charges.updatePendingState(trx, row.id, { state: order.status, nextCheckAt: null })))
          return;
        await recordEvent(trx, { type: 'payment.updated', data: await viewOf(trx, row.id), at: now });
      });
      return;
    default:
      return;
  }
}

async function settleCard(
  ctx: AppContext,
  row: payments.PaymentRow,
  order: TerminalOrder,
  now: number,
): Promise<void> {
  const reference = order.paymentReference;
  const details =
    reference !== null && ctx.cardTerminal ? await ctx.cardTerminal.getPaymentDetails(reference) : undefined;
  await ctx.db.transaction().execute((trx) =>
    settlePendingIn(trx, row, now, (db) =>
      charges.markCardSettled(
        db,
        row.id,
        {
          brand: details?.brand ?? order.brand,
          cardType: details?.cardType ?? order.cardType,
          lastFour: details?.lastFour ?? null,
          authorizationCode: details?.authorizationCode ?? null,
          feeCents: details?.feeCents ?? null,
          paymentReference: reference,
          transactionId: order.transactionId,
        },
        now,
      ),
    ),
  );
}

async function endCharge(
  ctx: AppContext,
  id: string,
  end: { state: 'failed' | 'canceled' | 'expired'; reason: string },
  now: number,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await charges.markChargeEnded(trx, id, end))) return;
    const type = end.state === 'canceled' ? 'payment.canceled' : 'payment.failed';
    await recordEvent(trx, { type, data: await viewOf(trx, id), at: now });
  });
}

/** Refunds the provider has processed leave the bill; failed ones give their amount back to refund. */
async function applyRefunds(ctx: AppContext, paymentId: string, order: TerminalOrder): Promise<void> {
  for (const refund of await charges.pendingRefundsOf(ctx.db, paymentId)) {
    if (refund.provider_refund_id === null) {
      await sendRefund(ctx, refund);
      continue;
    }
    const atProvider = order.refunds.find((candidate) => candidate.id === refund.provider_refund_id);
    if (atProvider) await applyRefund(ctx, refund, atProvider);
  }
}

/**
 * Asks the provider for a pending refund, under its own key, so asking again (an answer lost, the
 * watch job) refunds once. A refusal fails the refund with the provider's reason and rethrows it.
 */
export async function sendRefund(
  ctx: AppContext,
  refund: charges.RefundRow,
): Promise<TerminalRefund | undefined> {
  const payment = await payments.findPayment(ctx.db, refund.payment_id);
  if (!ctx.cardTerminal || payment?.provider_order_id == null || payment.provider_transaction_id === null) {
    return undefined;
  }
  let atProvider: TerminalRefund;
  try {
    atProvider = await ctx.cardTerminal.refund(
      { id: payment.provider_order_id, transactionId: payment.provider_transaction_id },
      { idempotencyKey: String(refund.provider_key), amountCents: Number(refund.amount_cents) },
    );
  } catch (error) {
    if (error instanceof PlatformError && !error.isRetryable) {
      await endRefund(ctx, refund, { status: 'failed', reason: error.message });
    }
    throw error;
  }
  await charges.fillProviderRefund(ctx.db, refund.id, atProvider.id);
  await applyRefund(ctx, { ...refund, provider_refund_id: atProvider.id }, atProvider);
  return atProvider;
}

async function applyRefund(
  ctx: AppContext,
  refund: charges.RefundRow,
  atProvider: TerminalRefund,
): Promise<void> {
  if (atProvider.status === 'processed') await endRefund(ctx, refund, { status: 'processed', reason: null });
  if (atProvider.status === 'failed') {
    await endRefund(ctx, refund, { status: 'failed', reason: 'Mercado Pago no pudo devolver el dinero' });
  }
}

/**
 * A processed refund takes its money off the payment, the bill and the order, under the order's lock
 * and once (the refund's conditional update); a failed one changes no money.
 */
async function endRefund(
  ctx: AppContext,
  refund: charges.RefundRow,
  end: { status: 'processed' | 'failed'; reason: string | null },
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const payment = await payments.findPayment(trx, refund.payment_id);
    if (!payment) return;
    const ticket = await lockTicketWithOrder(trx, payment.ticket_id);
    if (!(await charges.markRefundEnded(trx, refund.id, end))) return;
    if (end.status === 'failed') {
      await recordEvent(trx, { type: 'payment.updated', data: await viewOf(trx, payment.id), at: now });
      return;
    }
    const cents = Number(refund.amount_cents);
    const leftCents = Number(payment.amount_cents) - Number(payment.refunded_cents);
    const status = cents >= leftCents ? 'refunded' : 'partially_refunded';
    await payments.subtractRefund(
      trx,
      { id: payment.id, ticketId: ticket.id, orderId: ticket.order_id },
      { cents, status },
      now,
    );
    await refreshSalesFacts(trx, ticket.order_id);
    await recordAudit(trx, {
      at: now,
      actor: PROVIDER_ACTOR,
      action: 'payment.refunded',
      target: { type: 'payment', id: payment.id },
      before: toPaymentView(payment),
      after: {
        refund_id: refund.id,
        amount: fromCents(cents),
        reason: refund.reason,
        payment_status: status,
      },
    });
    await recordEvent(trx, { type: 'payment.refunded', data: await viewOf(trx, payment.id), at: now });
  });
}

/** Read back again soon while the charge or one of its refunds is still moving; never once all is final. */
async function scheduleNextCheck(db: Db, id: string, now: number): Promise<void> {
  const row = await payments.findPayment(db, id);
  if (!row) return;
  const isMoving = row.status === 'pending' || (await charges.pendingRefundsOf(db, id)).length > 0;
  await charges.setNextCheck(db, id, isMoving ? now + CHECK_AFTER_MS : null);
}

/**
 * The watch job: reads back every charge and refund due (a notification marks its charge due at
 * once; otherwise each is read every few seconds while it moves), and sends again what got no answer.
 * One charge's failure does not stop the others.
 */
export async function watchTerminalCharges(ctx: AppContext): Promise<void> {
  const terminal = ctx.cardTerminal;
  if (!terminal) return;
  const now = ctx.clock.now();
  const claimed = await charges.claimDueChecks(ctx.db, { now, claimUntil: now + CLAIM_MS, limit: BATCH });
  const failures: unknown[] = [];
  for (const row of claimed) {
    try {
      if (row.provider_order_id === null) await sendChargeAgain(ctx, row, now);
      else await applyProviderOrder(ctx, row, await terminal.getOrder(row.provider_order_id));
    } catch (error) {
      await charges.setNextCheck(ctx.db, row.id, now + CHECK_AFTER_MS);
      failures.push(error);
    }
  }
  if (failures.length > 0)
    throw new AggregateError(failures, 'Card terminal: some charges could not be read back');
}

/**
 * What the provider is asked to charge for a payment: the same body each time it is sent, since the
 * provider's idempotency key answers only the body it first came with.
 */
async function chargeOf(db: Db, row: payments.PaymentRow): Promise<NewTerminalCharge> {
  const { businessName } = await loadSettings(db);
  const table = await charges.tableNameOfTicket(db, row.ticket_id);
  return {
    terminalId: String(row.terminal_id),
    amountCents: Number(row.amount_cents) + Number(row.tip_cents),
    externalReference: row.id,
    idempotencyKey: String(row.provider_key),
    expiresInSeconds: Math.round((Number(row.expires_at) - Number(row.created_at)) / 1000),
    description: table === undefined ? businessName : `${businessName}, mesa ${table}`,
  };
}

/**
 * Sends the charge to the provider and follows what it answers. A refusal is the provider's no (the
 * caller decides what it means); an answer that never came leaves the charge to the watch job.
 */
export async function sendCharge(ctx: AppContext, row: payments.PaymentRow): Promise<void> {
  const terminal = ctx.cardTerminal;
  if (!terminal) return;
  const order = await terminal.createCharge(await chargeOf(ctx.db, row));
  await charges.fillProviderOrder(ctx.db, row.id, { orderId: order.id, transactionId: order.transactionId });
  await applyProviderOrder(ctx, { ...row, provider_order_id: order.id }, order);
}

/** The charge's creation got no answer: the same key makes it, or answers the order it made. */
async function sendChargeAgain(ctx: AppContext, row: payments.PaymentRow, now: number): Promise<void> {
  const expiresAt = Number(row.expires_at);
  try {
    await sendCharge(ctx, row);
  } catch (error) {
    const isRefused = error instanceof PlatformError && !error.isRetryable;
    if (isRefused || now > expiresAt + GIVE_UP_AFTER_EXPIRY_MS) {
      const reason = isRefused
        ? `No se pudo enviar el cobro a la terminal (${error.message})`
        : 'Mercado Pago no respondió: cobre de nuevo';
      await endCharge(ctx, row.id, { state: 'failed', reason }, now);
      return;
    }
    throw error;
  }
}

/**
 * A verified notification names an order: its charge is read back by the watch job's next run (the
 * request only marks it, so the notification is answered at once and nothing is lost if we stop).
 */
export async function noteNotification(ctx: AppContext, providerOrderId: string): Promise<void> {
  await charges.checkSoon(ctx.db, providerOrderId, ctx.clock.now());
}

async function viewOf(db: Db, id: string) {
  const row = await payments.findPayment(db, id);
  if (!row) throw new Error(`payment ${id} vanished inside its own transaction`);
  return toPaymentView(row);
}
