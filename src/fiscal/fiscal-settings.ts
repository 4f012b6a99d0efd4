import { recordAudit } from '../audit/audit.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import { authorize } from '../permissions/permissions.api';
import { loadSettings } from '../settings/settings.api';
import * as repo from './fiscal.repo';
import type { FiscalSettingsView, UpdateFiscalSettingsBody } from './fiscal.schemas';
import {
  type GlobalPeriodicity,
  isValidRfc,
  PAYMENT_FORMS,
  regimeFitsRfc,
  TAX_REGIMES,
} from './sat-catalogs';

export type FiscalSettings = Readonly<{
  enabled: boolean;
  rfc: string;
  legalName: string;
  taxRegime: string;
  postalCode: string;
  series: string;
  productKey: string;
  unitKey: string;
  globalPeriodicity: GlobalPeriodicity;
  paymentForms: Readonly<Record<string, string>>;
  enabledSince: number | null;
  scannedThrough: number | null;
}>;

export const PAC_KEY_MISSING =
  'E-invoicing needs the PAC key on the server: set POS_PAC_KEY (or POS_PAC_KEY_FILE)';
/** Mexican law has menu prices include IVA; a CFDI's amounts are built on that. */
const PRICES_MUST_INCLUDE_TAX =
  'E-invoicing needs prices that include IVA: set prices_include_tax and tax_rate (16, or 8 in the border region) in the settings';

export async function loadFiscalSettings(db: Db): Promise<FiscalSettings> {
  const row = await repo.findFiscalSettings(db);
  if (!row) {
    return {
      enabled: false,
      rfc: '',
      legalName: '',
      taxRegime: '601',
      postalCode: '',
      series: '',
      productKey: '90101501',
      unitKey: 'E48',
      globalPeriodicity: 'month',
      paymentForms: { cash: '01', card: '04', transfer: '03', ubereats: '31', rappi: '31' },
      enabledSince: null,
      scannedThrough: null,
    };
  }
  return {
    enabled: Number(row.enabled) === 1,
    rfc: row.rfc,
    legalName: row.legal_name,
    taxRegime: row.tax_regime,
    postalCode: row.postal_code,
    series: row.series,
    productKey: row.product_key,
    unitKey: row.unit_key,
    globalPeriodicity: row.global_periodicity as GlobalPeriodicity,
    paymentForms: JSON.parse(row.payment_forms) as Record<string, string>,
    enabledSince: row.enabled_since === null ? null : Number(row.enabled_since),
    scannedThrough: row.scanned_through === null ? null : Number(row.scanned_through),
  };
}

/** E-invoicing is on only with the settings enabled and a PAC key: either alone does nothing. */
export function isFiscalOn(ctx: AppContext, settings: FiscalSettings): boolean {
  return settings.enabled && ctx.config.pac.key !== undefined;
}

export async function getFiscalSettings(ctx: AppContext): Promise<FiscalSettingsView> {
  return toView(ctx, await loadFiscalSettings(ctx.db));
}

function toView(ctx: AppContext, settings: FiscalSettings): FiscalSettingsView {
  return {
    enabled: settings.enabled,
    rfc: settings.rfc,
    legal_name: settings.legalName,
    tax_regime: settings.taxRegime,
    postal_code: settings.postalCode,
    series: settings.series,
    product_key: settings.productKey,
    unit_key: settings.unitKey,
    global_periodicity: settings.globalPeriodicity,
    payment_forms: { ...settings.paymentForms },
    pac_configured: ctx.config.pac.key !== undefined,
  };
}

/**
 * Saving the settings also retries the bills whose receipt failed: what failed was most often a
 * setting (a payment method without its SAT form, a product key the PAC refused) the manager has
 * just fixed.
 */
export async function updateFiscalSettings(
  ctx: AppContext,
  principal: Principal,
  input: UpdateFiscalSettingsBody,
): Promise<FiscalSettingsView> {
  authorize(principal, 'settings.write');
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const before = await loadFiscalSettings(trx);
    const after: FiscalSettings = {
      ...before,
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(input.rfc !== undefined && { rfc: input.rfc.toUpperCase() }),
      ...(input.legal_name !== undefined && { legalName: input.legal_name.trim().toUpperCase() }),
      ...(input.tax_regime !== undefined && { taxRegime: input.tax_regime }),
      ...(input.postal_code !== undefined && { postalCode: input.postal_code }),
      ...(input.series !== undefined && { series: input.series }),
      ...(input.product_key !== undefined && { productKey: input.product_key }),
      ...(input.unit_key !== undefined && { unitKey: input.unit_key }),
      ...(input.global_periodicity !== undefined && { globalPeriodicity: input.global_periodicity }),
      ...(input.payment_forms !== undefined && { paymentForms: input.payment_forms }),
    };
    await checkSettings(ctx, trx, after);
    const isFirstEnabled = after.enabled && before.enabledSince === null;
    await repo.saveFiscalSettings(trx, {
      enabled: after.enabled ? 1 : 0,
      rfc: after.rfc,
      legal_name: after.legalName,
      tax_regime: after.taxRegime,
      postal_code: after.postalCode,
      series: after.series,
      product_key: after.productKey,
      unit_key: after.unitKey,
      global_periodicity: after.globalPeriodicity,
      payment_forms: JSON.stringify(after.paymentForms),
      enabled_since: isFirstEnabled ? now : before.enabledSince,
      scanned_through: isFirstEnabled ? now : before.scannedThrough,
      updated_at: now,
    });
    await repo.retryFailedDocuments(trx, now);
    await recordAudit(trx, {
      at: now,
      actor: principal,
      action: 'settings.updated',
      target: { type: 'fiscal_settings', id: null },
      before: toView(ctx, before),
      after: toView(ctx, after),
    });
    return toView(ctx, after);
  });
}

async function checkSettings(ctx: AppContext, db: Db, settings: FiscalSettings): Promise<void> {
  if (settings.rfc !== '' && !isValidRfc(settings.rfc, { allowGeneric: false })) {
    throw new BadRequestError('rfc is not a valid RFC (its shape or check digit is wrong)');
  }
  if (!Object.hasOwn(TAX_REGIMES, settings.taxRegime)) {
    throw new BadRequestError(`tax_regime ${settings.taxRegime} is not in the SAT catalogue`);
  }
  if (settings.rfc !== '' && !regimeFitsRfc(settings.taxRegime, settings.rfc)) {
    throw new BadRequestError(
      `tax_regime ${settings.taxRegime} is not for an RFC of ${settings.rfc.length} characters`,
    );
  }
  for (const form of Object.values(settings.paymentForms)) {
    if (form === '99') {
      throw new BadRequestError(
        "payment_forms: 99 (Por definir) is refused: a paid bill's payment form is known",
      );
    }
    if (!Object.hasOwn(PAYMENT_FORMS, form)) {
      throw new BadRequestError(`payment_forms: ${form} is not a SAT payment form`);
    }
  }
  if (!settings.enabled) return;
  if (ctx.config.pac.key === undefined) throw new BadRequestError(PAC_KEY_MISSING);
  if (settings.rfc === '' || settings.legalName === '' || settings.postalCode === '') {
    throw new BadRequestError('E-invoicing needs the rfc, legal_name and postal_code of the restaurant');
  }
  const business = await loadSettings(db);
  if (!business.pricesIncludeTax || ![1600, 800].includes(business.taxRateBasisPoints)) {
    throw new BadRequestError(PRICES_MUST_INCLUDE_TAX);
  }
}
