import { publishedHead, recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { fromCents, taxShareCents, toCents } from '../core/money';
import { localDaysToRange, toIsoUtc, toIsoUtcOrNull } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import { enqueueOnReceiptPrinter, reportPaperSetup } from '../printing/printing.api';
import { loadSettings } from '../settings/settings.api';
import { lightningFigures } from './lightning-fees';
import { shiftReportLines } from './shift-report-paper';
import * as repo from './shifts.repo';
import type {
  CashMovementBody,
  CloseShiftBody,
  OpenShiftBody,
  ShiftReport,
  ShiftsQuery,
  ShiftView,
} from './shifts.schemas';

export const SHIFT_ALREADY_OPEN = 'A shift is already open';
export const OPEN_A_SHIFT_FIRST = 'Open a shift first';
export const SHIFT_CLOSED = 'The shift is closed';
export const CASH_REFUND_NEEDS_A_DRAWER =
  'A cash refund comes out of a drawer: open your shift, or name the shift whose drawer pays it';
export const UNKNOWN_DRAWER = 'No shift has that id';
export const PAY_OUT_EXCEEDS_CASH = 'Pay-out exceeds the cash expected in the drawer';

export async function openShift(
  ctx: AppContext,
  principal: Principal,
  body: OpenShiftBody,
): Promise<ShiftView> {
  authorize(principal, 'shifts.use');
  const id = newId();
  try {
    await repo.insertShift(ctx.db, {
      id,
      user_id: principal.id,
      opening_cash_cents: toCents(body.opening_cash),
      opened_at: ctx.clock.now(),
      closed_at: null,
      closed_by: null,
      counted_cash_cents: null,
      expected_cash_cents: null,
      notes: null,
    });
  } catch (error) {
    // The partial unique index decides between two tills opening at once.
    if (isUniqueViolation(error)) throw new ConflictError(SHIFT_ALREADY_OPEN);
    throw error;
  }
  return viewOf(ctx.db, await mustFind(ctx.db, id), await hidesExpectedCash(ctx.db, principal));
}

export async function currentShift(ctx: AppContext, principal: Principal): Promise<ShiftView> {
  authorize(principal, 'shifts.use');
  const shift = await repo.findOpenShiftOf(ctx.db, principal.id);
  if (!shift) throw new NotFoundError();
  return viewOf(ctx.db, shift, await hidesExpectedCash(ctx.db, principal));
}

/** Newest first; without `shifts.manage` a user sees only their own. */
export async function listShifts(
  ctx: AppContext,
  principal: Principal,
  query: ShiftsQuery,
): Promise<ShiftView[]> {
  authorize(principal, 'shifts.use');
  const mayManage = principal.permissions.has('shifts.manage');
  if (query.user_id !== undefined && query.user_id !== principal.id && !mayManage) throw new ForbiddenError();
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new BadRequestError('from must not be after to');
  }
  const filter: repo.ShiftFilter = {
    userId: query.user_id ?? (mayManage ? undefined : principal.id),
    from: query.from,
    to: query.to,
  };
  if (query.date !== undefined) {
    const day = localDaysToRange(query.date, query.date, (await loadSettings(ctx.db)).timeZone);
    filter.from = Math.max(day.from, query.from ?? day.from);
    filter.to = Math.min(day.to - 1, query.to ?? day.to - 1);
  }
  const rows = await repo.findShifts(ctx.db, filter, query);
  const isBlind = await hidesExpectedCash(ctx.db, principal);
  return Promise.all(rows.map((row) => viewOf(ctx.db, row, isBlind)));
}

export async function getShift(ctx: AppContext, principal: Principal, id: string): Promise<ShiftView> {
  const shift = await shiftOfCaller(ctx.db, principal, id);
  return viewOf(ctx.db, shift, await hidesExpectedCash(ctx.db, principal));
}

export async function addCashMovement(
  ctx: AppContext,
  principal: Principal,
  shiftId: string,
  body: CashMovementBody,
): Promise<string> {
  const amountCents = toCents(body.amount);
  if (amountCents === 0) throw new BadRequestError('amount must not be 0');
  await shiftOfCaller(ctx.db, principal, shiftId);
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    // Under the shift's lock: cash payments and refunds wait for it, so the drawer cannot change
    // between counting it and taking the pay-out from it.
    const shift = await lockOpen(trx, shiftId);
    const expectedCents = await expectedCashCents(trx, shift);
    const isBeyondDrawer = amountCents < 0 && expectedCents + amountCents < 0;
    if (isBeyondDrawer) {
      if (!body.force) {
        // A blind count would be worth nothing if a refused pay-out told the figure.
        if (await hidesExpectedCash(trx, principal)) throw new BadRequestError(PAY_OUT_EXCEEDS_CASH);
        throw new BadRequestError(`${PAY_OUT_EXCEEDS_CASH} (${fromCents(expectedCents).toFixed(2)})`);
      }
      authorize(principal, 'shifts.manage');
    }
    const now = ctx.clock.now();
    await repo.insertMovement(trx, {
      id,
      shift_id: shiftId,
      amount_cents: amountCents,
      reason: body.reason,
      created_by: principal.id,
      created_at: now,
      is_forced: isBeyondDrawer ? 1 : 0,
    });
    if (isBeyondDrawer) {
      await recordAudit(trx, {
        at: now,
        actor: principal,
        action: 'shift.pay_out_forced',
        target: { type: 'shift', id: shiftId },
        before: { expected_cash: fromCents(expectedCents) },
        after: {
          pay_out: fromCents(-amountCents),
          reason: body.reason,
          expected_cash: fromCents(expectedCents + amountCents),
        },
      });
    }
  });
  return id;
}

/**
 * The server counts what should be in the drawer from the stored rows, under the shift's lock: a
 * payment racing the close either committed first and is counted, or finds the shift closed.
 */
export async function closeShift(
  ctx: AppContext,
  principal: Principal,
  shiftId: string,
  body: CloseShiftBody,
): Promise<ShiftView> {
  await shiftOfCaller(ctx.db, principal, shiftId);
  await ctx.db.transaction().execute(async (trx) => {
    const shift = await lockOpen(trx, shiftId);
    const now = ctx.clock.now();
    const countedCents = toCents(body.counted_cash);
    const expectedCents = await expectedCashCents(trx, shift);
    const notes = body.notes ?? null;
    await repo.closeShift(trx, shiftId, {
      closedAt: now,
      closedBy: principal.id,
      countedCents,
      expectedCents,
      notes,
    });
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'shift.closed',
      target: { type: 'shift', id: shiftId },
      before: {
        status: 'open',
        user_id: shift.user_id,
        opening_cash: fromCents(Number(shift.opening_cash_cents)),
      },
      after: {
        status: 'closed',
        expected_cash: fromCents(expectedCents),
        counted_cash: fromCents(countedCents),
        difference: fromCents(countedCents - expectedCents),
        notes,
      },
    });
  });
  return viewOf(ctx.db, await mustFind(ctx.db, shiftId));
}

/** The Z report: every figure is a sum over the stored rows of the shift. */
export async function shiftReport(
  ctx: AppContext,
  principal: Principal,
  shiftId: string,
): Promise<ShiftReport> {
  const shift = await shiftOfCaller(ctx.db, principal, shiftId);
  const isBlind = await hidesExpectedCash(ctx.db, principal);
  const [view, bills, methods, brands, tips, refundsCents, settings, auditHead] = await Promise.all([
    viewOf(ctx.db, shift, isBlind),
    repo.billsClosedIn(ctx.db, shiftId),
    repo.paymentsByMethod(ctx.db, shiftId),
    repo.cardPaymentsByBrand(ctx.db, shiftId),
    repo.tipsByWaiter(ctx.db, shiftId),
    repo.refundsOfShift(ctx.db, shiftId),
    loadSettings(ctx.db),
    publishedHead(ctx.db),
  ]);
  const netCents = bills.subtotal_cents - bills.discount_cents - refundsCents;
  const sum = (values: number[]) => values.reduce((total, value) => total + Number(value), 0);
  return {
    shift: view,
    orders: bills.orders,
    bills: bills.bills,
    gross_sales: fromCents(bills.subtotal_cents),
    discounts: fromCents(bills.discount_cents),
    refunds: fromCents(refundsCents),
    net_sales: fromCents(netCents),
    tax: fromCents(taxShareCents(netCents, settings.taxRateBasisPoints, settings.pricesIncludeTax)),
    covers: bills.covers,
    average_bill: bills.bills === 0 ? null : fromCents(Math.round(netCents / bills.bills)),
    average_per_cover: bills.covers === 0 ? null : fromCents(Math.round(netCents / bills.covers)),
    payments_by_method: methods.map((row) => ({
      method: row.method,
      payments: Number(row.payments),
      amount: fromCents(Number(row.amount_cents)),
      tips: fromCents(Number(row.tips_cents)),
    })),
    payments_total: fromCents(sum(methods.map((row) => row.amount_cents))),
    tips_total: fromCents(sum(methods.map((row) => row.tips_cents))),
    tips_by_waiter: tips.map((row) => ({
      user_id: row.user_id,
      name: row.name,
      tips: fromCents(Number(row.tips_cents)),
    })),
    ...lightningFigures(methods.filter((row) => row.method === 'lightning')),
    card_terminal_by_brand: brands.map((row) => ({
      brand: row.brand,
      payments: Number(row.payments),
      amount: fromCents(Number(row.amount_cents)),
      tips: fromCents(Number(row.tips_cents)),
      fees: fromCents(Number(row.fee_cents)),
    })),
    card_terminal_fees: fromCents(sum(brands.map((row) => row.fee_cents))),
    forced_pay_outs: view.cash_movements.filter((movement) => movement.forced),
    expected_cash: view.expected_cash,
    counted_cash: view.counted_cash,
    difference: view.difference,
    audit_head: auditHead,
  };
}

/**
 * Queues the Z report on the receipt printer: the figures of `shiftReport`, read as the caller may
 * read them (a blind cashier's open shift prints no expected cash), so paper and screen agree.
 */
export async function printShiftReport(
  ctx: AppContext,
  principal: Principal,
  shiftId: string,
  claim: IdempotencyClaim | undefined,
): Promise<{ jobId: string }> {
  const report = await shiftReport(ctx, principal, shiftId);
  const now = ctx.clock.now();
  const setup = reportPaperSetup(await loadSettings(ctx.db), now);
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 202, now }, async (trx) => ({
    jobId: await enqueueOnReceiptPrinter(trx, (width) => shiftReportLines(report, setup, width), now),
  }));
}

/**
 * The shift a payment or refund the user records now belongs to, share-locked until commit. Without
 * an open shift, `needsShift` refuses it: cash, when the restaurant counts its drawers
 * (`require_shift_for_cash`, which the caller read with the rest of its settings).
 */
export async function shiftForRecording(
  trx: Db,
  userId: string,
  needsShift: boolean,
): Promise<string | null> {
  const shiftId = await repo.lockOpenShiftIdOf(trx, userId);
  if (shiftId) return shiftId;
  if (needsShift) throw new BadRequestError(OPEN_A_SHIFT_FIRST);
  return null;
}

/**
 * The drawer a cash refund's money comes out of: the shift named (someone else's needs
 * `shifts.manage`) or the refunder's own open shift. While any drawer is being counted (a shift is
 * open, or `require_shift_for_cash`), cash never leaves one that no shift answers for: a manager
 * without a shift of her own who took it from the cashier's drawer would leave the cashier short at
 * her corte. A restaurant that counts no drawer records the refund with no shift, as before.
 */
export async function drawerForCashRefund(
  trx: Db,
  principal: Principal,
  shiftId: string | undefined,
): Promise<string | null> {
  if (shiftId === undefined) {
    const own = await repo.lockOpenShiftIdOf(trx, principal.id);
    if (own) return own;
    if ((await loadSettings(trx)).requireShiftForCash || (await repo.isAnyShiftOpen(trx))) {
      throw new BadRequestError(CASH_REFUND_NEEDS_A_DRAWER);
    }
    return null;
  }
  const shift = await repo.lockShift(trx, shiftId);
  if (!shift) throw new BadRequestError(UNKNOWN_DRAWER);
  if (shift.user_id !== principal.id) authorize(principal, 'shifts.manage');
  if (shift.closed_at !== null) throw new ConflictError(SHIFT_CLOSED);
  return shift.id;
}

async function expectedCashCents(db: Db, shift: { id: string; opening_cash_cents: number }): Promise<number> {
  const totals = await repo.drawerTotals(db, shift.id);
  return (
    Number(shift.opening_cash_cents) + totals.cashInCents - totals.cashRefundsCents + totals.movementsCents
  );
}

/** The caller's own shift, or anyone's with `shifts.manage`. */
async function shiftOfCaller(db: Db, principal: Principal, id: string): Promise<repo.ShiftRow> {
  authorize(principal, 'shifts.use');
  const shift = await mustFind(db, id);
  if (shift.user_id !== principal.id) authorize(principal, 'shifts.manage');
  return shift;
}

async function lockOpen(trx: Db, id: string) {
  const shift = await repo.lockShift(trx, id);
  if (!shift) throw new NotFoundError();
  if (shift.closed_at !== null) throw new ConflictError(SHIFT_CLOSED);
  return shift;
}

async function mustFind(db: Db, id: string): Promise<repo.ShiftRow> {
  const shift = await repo.findShift(db, id);
  if (!shift) throw new NotFoundError();
  return shift;
}

function toMovementView(movement: repo.MovementRow): ShiftView['cash_movements'][number] {
  return {
    id: movement.id,
    amount: fromCents(Number(movement.amount_cents)),
    reason: movement.reason,
    forced: Number(movement.is_forced) === 1,
    created_by: movement.created_by,
    created_at: toIsoUtc(Number(movement.created_at)),
  };
}

/**
 * Under a blind close (setting `blind_shift_close`) the cashier counts her drawer without knowing
 * what it should hold: an open shift's expected cash is hidden from users without `shifts.manage`.
 * Once closed, the figures are shown to her as to anyone (the close answers them).
 */
async function hidesExpectedCash(db: Db, principal: Principal): Promise<boolean> {
  if (principal.permissions.has('shifts.manage')) return false;
  return (await loadSettings(db)).blindShiftClose;
}

async function viewOf(db: Db, shift: repo.ShiftRow, isBlind = false): Promise<ShiftView> {
  const isClosed = shift.closed_at !== null;
  const [movements, expectedCents] = await Promise.all([
    repo.findMovements(db, shift.id),
    isClosed ? Number(shift.expected_cash_cents) : expectedCashCents(db, shift),
  ]);
  const countedCents = shift.counted_cash_cents === null ? null : Number(shift.counted_cash_cents);
  return {
    id: shift.id,
    user_id: shift.user_id,
    user_name: shift.user_name,
    status: isClosed ? 'closed' : 'open',
    opening_cash: fromCents(Number(shift.opening_cash_cents)),
    opened_at: toIsoUtc(Number(shift.opened_at)),
    closed_at: toIsoUtcOrNull(shift.closed_at),
    closed_by: shift.closed_by,
    cash_movements: movements.map(toMovementView),
    expected_cash: isBlind && !isClosed ? null : fromCents(expectedCents),
    counted_cash: countedCents === null ? null : fromCents(countedCents),
    difference: countedCents === null ? null : fromCents(countedCents - expectedCents),
    notes: shift.notes,
  };
}
