import { createHash } from 'node:crypto';
import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { CardTerminal, TerminalDevice } from '../core/card-terminal';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { TICKET_STATUS } from '../core/db/ticket-status';
import { PlatformError } from '../core/delivery-platform';
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
} from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import * as keys from '../core/idempotency.repo';
import { newId } from '../core/ids';
import { toCents } from '../core/money';
import { toIsoUtc } from '../core/time';
import { recordEvent } from '../events/events.api';
import { authorize } from '../permissions/permissions.api';
import { loadSettings, updateSettings } from '../settings/settings.api';
import { shiftForRecording } from '../shifts/shifts.api';
import { lockTicketWithOrder } from '../tickets/tickets.api';
import * as charges from './card-terminal.repo';
import { CARD_TERMINAL } from './card-terminal.repo';
import {
  applyProviderOrder,
  CHECK_AFTER_MS,
  noteNotification,
  sendCharge,
} from './card-terminal-settlement.service';
import { toPaymentView } from './payment-views';
import * as payments from './payments.repo';
import type { CardTerminalBody, CardTerminalCharge, PaymentView, TerminalView } from './payments.schemas';

export const NOT_CONFIGURED = 'The card terminal is not configured (POS_MP_ACCESS_TOKEN)';
/** How long the terminal shows a charge before the provider expires it. */
export const CHARGE_EXPIRY_SECONDS = 300;
const NO_TERMINAL =
  'No terminal named: send terminal_id, or choose the default terminal (PUT /settings/terminals)';
export const TERMINAL_BUSY = 'The terminal is busy with another charge: wait for it, or cancel it';

export function terminalOf(ctx: AppContext): CardTerminal {
  if (!ctx.cardTerminal) throw new ServiceUnavailableError(NOT_CONFIGURED);
  return ctx.cardTerminal;
}

/** The provider's refusal as the till's 4xx; an answer that never came (or a 5xx) as 503. */
export function asHttpError(error: unknown): unknown {
  if (!(error instanceof PlatformError)) return error;
  if (error.isRetryable) return new ServiceUnavailableError(error.message);
  if (error.status === 409) return new ConflictError(error.message);
  return new BadRequestError(error.message);
}

export async function listTerminals(ctx: AppContext, principal: Principal): Promise<TerminalView[]> {
  authorize(principal, 'payments.take');
  const [devices, settings] = await Promise.all([
    terminalOf(ctx)
      .listTerminals()
      .catch((error: unknown) => {
        throw asHttpError(error);
      }),
    loadSettings(ctx.db),
  ]);
  return devices.map((device: TerminalDevice) => ({
    id: device.id,
    operating_mode: device.operatingMode,
    store_id: device.storeId,
    pos_id: device.posId,
    is_default: device.id === settings.defaultTerminalId,
  }));
}

export async function setDefaultTerminal(
  ctx: AppContext,
  principal: Principal,
  terminalId: string | null,
): Promise<{ default_terminal_id: string | null }> {
  authorize(principal, 'settings.write');
  if (terminalId !== null) {
    const devices = await terminalOf(ctx)
      .listTerminals()
      .catch((error: unknown) => {
        throw asHttpError(error);
      });
    const device = devices.find((candidate) => candidate.id === terminalId);
    if (!device) throw new BadRequestError(`Mercado Pago has no terminal ${terminalId} in this account`);
    if (device.operatingMode !== 'PDV') {
      throw new BadRequestError(
        `Terminal ${terminalId} is in ${device.operatingMode} mode: switch it to PDV (integrated) mode first`,
      );
    }
  }
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await loadSettings(trx);
    await updateSettings(trx, { default_terminal_id: terminalId, updated_at: now });
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'settings.updated',
      target: { type: 'settings', id: 'terminals' },
      before: { default_terminal_id: before.defaultTerminalId },
      after: { default_terminal_id: terminalId },
    });
  });
  return { default_terminal_id: terminalId };
}

/**
 * Charges part of a bill on a terminal. The charge is reserved first, in one transaction with the
 * `Idempotency-Key`'s answer, so a retry answers the same charge and the terminal's partial unique
 * index keeps one pending charge per terminal; then the provider is asked to show it. A refusal
 * removes the reservation and frees the key; an answer that never came leaves the charge pending,
 * and the watch job asks again with the same provider key, which makes no second charge.
 */
export async function chargeOnTerminal(
  ctx: AppContext,
  principal: Principal,
  ticketId: string,
  input: CardTerminalBody,
  claim: IdempotencyClaim | undefined,
): Promise<CardTerminalCharge> {
  authorize(principal, 'payments.take');
  terminalOf(ctx);
  const now = ctx.clock.now();
  let reserved: payments.PaymentRow | undefined;
  let answer: CardTerminalCharge;
  try {
    answer = await inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      reserved = await reserveIn(trx, principal, ticketId, input, claim, now);
      return chargeAnswer(reserved);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(TERMINAL_BUSY);
    throw error;
  }
  if (reserved === undefined) return answer;
  const row = reserved;
  try {
    await sendCharge(ctx, row);
  } catch (error) {
    if (!(error instanceof PlatformError) || error.isRetryable) return answer;
    await ctx.db.transaction().execute(async (trx) => {
      await charges.deleteCharge(trx, row.id);
      if (claim) await keys.releaseKey(trx, claim);
    });
    throw error.status === 409
      ? new ConflictError(`${TERMINAL_BUSY} (${error.message})`)
      : asHttpError(error);
  }
  return answer;
}

async function reserveIn(
  trx: Db,
  principal: Principal,
  ticketId: string,
  input: CardTerminalBody,
  claim: IdempotencyClaim | undefined,
  now: number,
): Promise<payments.PaymentRow> {
  const settings = await loadSettings(trx);
  const terminalId = input.terminal_id ?? settings.defaultTerminalId;
  if (terminalId === null) throw new BadRequestError(NO_TERMINAL);
  const ticket = await lockTicketWithOrder(trx, ticketId);
  if (Number(ticket.status) === TICKET_STATUS.canceled) throw new BadRequestError('Ticket is canceled');
  if (Number(ticket.status) === TICKET_STATUS.paid) throw new BadRequestError('Ticket is already paid');
  const method = await payments.findPaymentMethodByCode(trx, CARD_TERMINAL);
  if (!method || Number(method.is_active) !== 1) {
    throw new BadRequestError('The card_terminal payment method is inactive');
  }
  if (await charges.findPendingOnTerminal(trx, terminalId)) throw new ConflictError(TERMINAL_BUSY);
  const owedCents = Number(ticket.total_cents) - Number(ticket.paid_cents);
  const balanceCents = owedCents - (await charges.pendingChargesCents(trx, ticketId));
  const amountCents = input.amount === undefined ? balanceCents : toCents(input.amount);
  if (amountCents <= 0) throw new BadRequestError('Nothing left to pay');
  if (amountCents > balanceCents) {
    throw new BadRequestError(
      balanceCents < owedCents
        ? 'Amount exceeds the balance left by the charges pending on terminals'
        : 'Amount exceeds the balance',
    );
  }
  const id = newId();
  const row = await payments.insertPayment(trx, {
    id,
    ticket_id: ticketId,
    method: CARD_TERMINAL,
    amount_cents: amountCents,
    tip_cents: toCents(input.tip ?? 0),
    tendered_cents: null,
    change_cents: null,
    status: 'pending',
    created_by: principal.id,
    created_at: now,
    settled_at: null,
    amount_sat: null,
    rate: null,
    payment_hash: null,
    invoice: null,
    expires_at: now + CHARGE_EXPIRY_SECONDS * 1000,
    received_sat: null,
    shift_id: await shiftForRecording(trx, principal.id, false),
    terminal_id: terminalId,
    terminal_state: 'created',
    provider_key: providerKeyOf(claim, id),
    next_check_at: now + CHECK_AFTER_MS,
  });
  await recordEvent(trx, { type: 'payment.pending', data: toPaymentView(row), at: now });
  return row;
}

/**
 * The provider's `X-Idempotency-Key` for the charge: the caller's `Idempotency-Key` where there is
 * one, scoped to its user and route (two tills' keys "1" are not one charge) and hashed to the
 * provider's 64 characters; otherwise the payment's own id.
 */
function providerKeyOf(claim: IdempotencyClaim | undefined, paymentId: string): string {
  if (!claim) return paymentId;
  return createHash('sha256').update(`${claim.scope}\n${claim.key}`).digest('hex');
}

function chargeAnswer(row: payments.PaymentRow): CardTerminalCharge {
  return {
    payment_id: row.id,
    status: 'pending',
    terminal_id: String(row.terminal_id),
    expires_at: toIsoUtc(Number(row.expires_at)),
  };
}

/**
 * The till withdraws a pending charge. One the terminal has not shown yet is canceled at once; one it
 * shows is canceled where the provider allows it (`x-allow-cancelable-status`), and the terminal's
 * confirmation ends it; where the provider refuses, the cashier cancels on the terminal.
 */
export async function cancelTerminalCharge(
  ctx: AppContext,
  principal: Principal,
  found: payments.PaymentRow,
): Promise<PaymentView> {
  const terminal = terminalOf(ctx);
  if (found.status !== 'pending') throw new ConflictError('This charge is no longer pending');
  if (found.provider_order_id === null) {
    throw new ConflictError('The charge is still being sent to the terminal: try again in a moment');
  }
  const orderId = found.provider_order_id;
  const now = ctx.clock.now();
  let outcome: 'canceled' | 'requested';
  try {
    outcome = await terminal.cancel(orderId, { idempotencyKey: `${found.id}-cancel` });
  } catch (error) {
    if (error instanceof PlatformError && error.status === 409) {
      await readBack(ctx, found);
      const after = await payments.findPayment(ctx.db, found.id);
      if (after?.status !== 'pending') throw new ConflictError('This charge is no longer pending');
      throw new ConflictError(
        'Cancele en la terminal: Mercado Pago no permite cancelar este cobro desde la caja',
      );
    }
    throw asHttpError(error);
  }
  if (outcome === 'requested') {
    await charges.updatePendingState(ctx.db, found.id, {
      state: found.terminal_state ?? 'at_terminal',
      nextCheckAt: now + CHECK_AFTER_MS,
      cancelRequestedAt: now,
    });
  }
  await readBack(ctx, found);
  const after = await payments.findPayment(ctx.db, found.id);
  if (!after) throw new NotFoundError();
  await ctx.db.transaction().execute((trx) =>
    recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'payment.canceled',
      target: { type: 'payment', id: found.id },
      before: toPaymentView(found),
      after: toPaymentView(after),
    }),
  );
  return toPaymentView(after);
}

/**
 * A notification from the provider: its signature covers the order it names, the request id and the
 * instant, not the body, so the body is never trusted; a verified one marks its charge to be read back
 * by the watch job at once. Wrong or missing: 401, nothing changed.
 */
export async function receiveNotification(
  ctx: AppContext,
  notification: {
    dataId: string | undefined;
    type: string | undefined;
    requestId: string | undefined;
    signature: string | undefined;
  },
): Promise<void> {
  const terminal = terminalOf(ctx);
  const { dataId } = notification;
  if (
    dataId === undefined ||
    !terminal.verifyNotification({
      dataId,
      requestId: notification.requestId,
      signature: notification.signature,
    })
  ) {
    throw new UnauthorizedError('Invalid signature');
  }
  if (notification.type === 'order') await noteNotification(ctx, dataId);
}

/** Reads the charge back now; a provider that cannot be asked leaves it to the watch job. */
export async function readBack(ctx: AppContext, row: payments.PaymentRow): Promise<void> {
  if (!ctx.cardTerminal || row.provider_order_id === null) return;
  try {
    await applyProviderOrder(ctx, row, await ctx.cardTerminal.getOrder(row.provider_order_id));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
  }
}
