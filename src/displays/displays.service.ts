import { randomInt } from 'node:crypto';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type FailureRule, limitFailures } from '../core/failure-limiter';
import { fromCents } from '../core/money';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import { findPayment, type PaymentRow, toPaymentView } from '../payments/payments.api';
import { authorize } from '../permissions/permissions.api';
import { findTicket, viewOf } from '../tickets/tickets.api';
import * as displays from './displays.repo';
import type { DisplayCurrentBody, DisplayView } from './displays.schemas';

/** Long enough to walk to the display and type it; short enough that a code seen over a shoulder goes stale. */
const CODE_LIFETIME_MS = 5 * 60 * 1000;
/** Six digits: quick to type, and a million codes to guess among during those minutes. */
const CODE_SPACE = 1_000_000;
const CODE_ATTEMPTS = 5;
export const UNKNOWN_CODE = 'Unknown or expired pairing code';
/**
 * Wrong codes a display account may type, and an address may send, in ten minutes: a code lives five,
 * so guessing one of a million takes tens of thousands of years of windows, not seconds.
 */
const PAIRING_FAILURES_PER_DISPLAY: FailureRule = { scope: 'display-pair', max: 10, windowMs: 600_000 };
const PAIRING_FAILURES_PER_ADDRESS: FailureRule = {
  scope: 'display-pair-address',
  max: 30,
  windowMs: 600_000,
};

/** A new pairing code for the caller's till; an earlier one of theirs stops working. */
export async function createPairingCode(
  ctx: AppContext,
  principal: Principal,
): Promise<{ code: string; expires_at: string }> {
  authorize(principal, 'payments.take');
  const now = ctx.clock.now();
  const expiresAt = now + CODE_LIFETIME_MS;
  // Two tills may draw the same live code; the primary key refuses the second, which draws again.
  for (let attempt = 1; ; attempt++) {
    const code = String(randomInt(CODE_SPACE)).padStart(6, '0');
    try {
      await ctx.db.transaction().execute(async (trx) => {
        await displays.dropStaleCodes(trx, principal.id, now);
        await displays.insertCode(trx, { code, cashier_id: principal.id, expires_at: expiresAt });
      });
      return { code, expires_at: toIsoUtc(expiresAt) };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === CODE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Pairs the calling display with the till whose code it typed; a code pairs one display, once. Wrong
 * codes spend failure budgets as wrong PINs do; past them even the right code waits (429).
 */
export async function pairDisplay(
  ctx: AppContext,
  principal: Principal,
  code: string,
  clientAddress: string,
): Promise<{ cashier: string }> {
  authorize(principal, 'display.view');
  const buckets = [
    { rule: PAIRING_FAILURES_PER_DISPLAY, key: principal.id },
    { rule: PAIRING_FAILURES_PER_ADDRESS, key: clientAddress },
  ];
  const isWrongCode = (error: unknown) => error instanceof BadRequestError && error.message === UNKNOWN_CODE;
  return limitFailures(ctx.db, ctx.clock, buckets, () => pairWithCode(ctx, principal, code), isWrongCode);
}

function pairWithCode(ctx: AppContext, principal: Principal, code: string): Promise<{ cashier: string }> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const found = await displays.lockLiveCode(trx, code, now);
    if (!found) throw new BadRequestError(UNKNOWN_CODE);
    await displays.deleteCode(trx, code);
    await displays.pair(trx, principal.id, found.cashier_id, now);
    return { cashier: found.name };
  });
}

/** What the caller's till shows now: a bill of theirs, and a Lightning payment of that bill, or nothing. */
export async function setDisplayCurrent(
  ctx: AppContext,
  principal: Principal,
  body: DisplayCurrentBody,
): Promise<void> {
  authorize(principal, 'payments.take');
  const ticketId = body.ticket_id;
  const paymentId = body.payment_id ?? null;
  if (ticketId === null && paymentId !== null) throw new BadRequestError('A payment needs its bill');
  if (ticketId !== null && !(await findTicket(ctx.db, ticketId))) throw new NotFoundError();
  if (paymentId !== null) {
    const payment = await findPayment(ctx.db, paymentId);
    if (payment?.ticket_id !== ticketId || (payment.payment_hash === null && payment.terminal_id === null)) {
      throw new BadRequestError('Not a Lightning or card-terminal payment of this bill');
    }
  }
  await displays.setCurrent(ctx.db, {
    cashier_id: principal.id,
    ticket_id: ticketId,
    payment_id: paymentId,
    updated_at: ctx.clock.now(),
  });
}

/** What the display says of a card-terminal charge: "Pague en la terminal", the amount, how it went. */
function terminalOf(payment: PaymentRow): NonNullable<DisplayView['terminal']> {
  const view = toPaymentView(payment);
  return {
    payment_id: view.id,
    status: view.status,
    amount: view.amount,
    tip: view.tip,
    failure_reason: view.terminal?.failure_reason ?? null,
  };
}

/** The bill, and its Lightning payment, that the till this display is paired to shows; nothing else. */
export async function getDisplayCurrent(ctx: AppContext, principal: Principal): Promise<DisplayView> {
  authorize(principal, 'display.view');
  const pairing = await displays.findPairing(ctx.db, principal.id);
  if (!pairing) return { cashier: null, bill: null, lightning: null };
  const { cashier, ticket_id: ticketId, payment_id: paymentId } = pairing;
  if (!ticketId) return { cashier, bill: null, lightning: null };
  const { id, status, total, paid, balance } = await viewOf(ctx.db, ticketId);
  const payment = paymentId ? await findPayment(ctx.db, paymentId) : undefined;
  return {
    cashier,
    bill: { id, status, total, paid, balance },
    lightning:
      payment && payment.payment_hash !== null
        ? {
            payment_id: payment.id,
            status: payment.status,
            amount: fromCents(Number(payment.amount_cents)),
            tip: fromCents(Number(payment.tip_cents)),
            amount_sat: Number(payment.amount_sat),
            invoice: payment.invoice ?? '',
            expires_at: toIsoUtcOrNull(payment.expires_at),
          }
        : null,
    ...(payment && payment.terminal_id !== null && { terminal: terminalOf(payment) }),
  };
}
