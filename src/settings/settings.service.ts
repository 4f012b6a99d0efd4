import { recordAudit } from '../audit/audit.api';
import type { CurrencyCode } from '../config';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, ConflictError } from '../core/errors';
import { toCents } from '../core/money';
import { isValidTimeZone } from '../core/time';
import { authorize } from '../permissions/permissions.api';
import type { PaperLocale } from './paper-locales';
import * as repo from './settings.repo';
import type { SettingsView, UpdateSettingsBody } from './settings.schemas';

/** The restaurant's settings as the code uses them. */
export type Settings = Readonly<{
  businessName: string;
  address: string;
  taxId: string;
  phone: string;
  receiptFooter: string;
  /** Hundredths of a percent: 16% is 1600. */
  taxRateBasisPoints: number;
  pricesIncludeTax: boolean;
  /** IANA zone where the restaurant's days start. */
  timeZone: string;
  baseCurrency: CurrencyCode;
  requireShiftForCash: boolean;
  webhooksBlockPrivateTargets: boolean;
  blindShiftClose: boolean;
  closePaidOrders: boolean;
  /** The language paper prints in. */
  locale: PaperLocale;
  /** Tip percentages the guest page offers. */
  tipSuggestions: readonly number[];
  /** A guest's tip is at most this percent of what they pay. */
  maxTipPercent: number;
  /** The card terminal a till charges on when it names none. */
  defaultTerminalId: string | null;
}>;

export const CURRENCY_CHANGE_REFUSED = 'The base currency cannot change while a bill is pending';

/**
 * Read from the database on every call: one primary-key row, and never stale after a change made by
 * this or another instance.
 */
export async function loadSettings(db: Db): Promise<Settings> {
  const row = await repo.findSettings(db);
  if (!row) throw new Error('The business settings row is missing; the server creates it at start-up');
  return toSettings(row);
}

function toSettings(row: repo.SettingsRow): Settings {
  return {
    businessName: row.business_name,
    address: row.address,
    taxId: row.tax_id,
    phone: row.phone,
    receiptFooter: row.receipt_footer,
    taxRateBasisPoints: Number(row.tax_rate_bp),
    pricesIncludeTax: Number(row.prices_include_tax) === 1,
    timeZone: row.timezone,
    baseCurrency: row.base_currency as CurrencyCode,
    requireShiftForCash: Number(row.require_shift_for_cash) === 1,
    webhooksBlockPrivateTargets: Number(row.webhooks_block_private_targets) === 1,
    blindShiftClose: Number(row.blind_shift_close) === 1,
    closePaidOrders: Number(row.close_paid_orders) === 1,
    locale: row.locale as PaperLocale,
    tipSuggestions: JSON.parse(row.tip_suggestions) as number[],
    maxTipPercent: Number(row.max_tip_percent),
    defaultTerminalId: row.default_terminal_id,
  };
}

function toView(settings: Settings): SettingsView {
  return {
    business_name: settings.businessName,
    address: settings.address,
    tax_id: settings.taxId,
    phone: settings.phone,
    receipt_footer: settings.receiptFooter,
    tax_rate: settings.taxRateBasisPoints / 100,
    prices_include_tax: settings.pricesIncludeTax,
    timezone: settings.timeZone,
    base_currency: settings.baseCurrency,
    require_shift_for_cash: settings.requireShiftForCash,
    webhooks_block_private_targets: settings.webhooksBlockPrivateTargets,
    blind_shift_close: settings.blindShiftClose,
    close_paid_orders: settings.closePaidOrders,
    locale: settings.locale,
    tip_suggestions: [...settings.tipSuggestions],
    max_tip_percent: settings.maxTipPercent,
  };
}

export async function getSettings(ctx: AppContext): Promise<SettingsView> {
  return toView(await loadSettings(ctx.db));
}

/**
 * Bills keep their amounts in the currency they were made in, so the currency changes only when no
 * bill is pending; the settings row is locked meanwhile.
 */
export async function updateSettings(
  ctx: AppContext,
  principal: Principal,
  input: UpdateSettingsBody,
): Promise<SettingsView> {
  authorize(principal, 'settings.write');
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone)) {
    throw new BadRequestError('timezone must be an IANA time zone, such as America/Mexico_City');
  }
  return ctx.db.transaction().execute(async (trx) => {
    const before = await repo.lockSettings(trx);
    if (!before) throw new Error('The business settings row is missing; the server creates it at start-up');
    const changesCurrency = input.base_currency !== undefined && input.base_currency !== before.base_currency;
    if (changesCurrency && (await repo.hasPendingBill(trx))) throw new ConflictError(CURRENCY_CHANGE_REFUSED);
    await repo.updateSettings(trx, {
      ...(input.business_name !== undefined && { business_name: input.business_name }),
      ...(input.address !== undefined && { address: input.address ?? '' }),
      ...(input.tax_id !== undefined && { tax_id: input.tax_id ?? '' }),
      ...(input.phone !== undefined && { phone: input.phone ?? '' }),
      ...(input.receipt_footer !== undefined && { receipt_footer: input.receipt_footer ?? '' }),
      ...(input.tax_rate !== undefined && { tax_rate_bp: toCents(input.tax_rate) }),
      ...(input.prices_include_tax !== undefined && { prices_include_tax: input.prices_include_tax ? 1 : 0 }),
      ...(input.timezone !== undefined && { timezone: input.timezone }),
      ...(input.base_currency !== undefined && { base_currency: input.base_currency }),
      ...(input.require_shift_for_cash !== undefined && {
        require_shift_for_cash: input.require_shift_for_cash ? 1 : 0,
      }),
      ...(input.webhooks_block_private_targets !== undefined && {
        webhooks_block_private_targets: input.webhooks_block_private_targets ? 1 : 0,
      }),
      ...(input.blind_shift_close !== undefined && { blind_shift_close: input.blind_shift_close ? 1 : 0 }),
      ...(input.close_paid_orders !== undefined && { close_paid_orders: input.close_paid_orders ? 1 : 0 }),
      ...(input.locale !== undefined && { locale: input.locale }),
      ...(input.tip_suggestions !== undefined && { tip_suggestions: JSON.stringify(input.tip_suggestions) }),
      ...(input.max_tip_percent !== undefined && { max_tip_percent: input.max_tip_percent }),
      updated_at: ctx.clock.now(),
    });
    const after = toView(await loadSettings(trx));
    await recordAudit(trx, {
      at: ctx.clock.now(),
      actor: principal,
      action: 'settings.updated',
      target: { type: 'settings', id: null },
      before: toView(toSettings(before)),
      after,
    });
    return after;
  });
}
