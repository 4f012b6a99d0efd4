import type { FiscalCatalogsView } from './fiscal.schemas';
import { CFDI_USES, PAYMENT_FORMS, TAX_REGIMES } from './sat-catalogs';

/**
 * Each list by its SAT code, as the SAT publishes it: an object's keys come back with the integer-like
 * ones ("12") before the rest ("01"), which buried "01 · Efectivo" under 12…31.
 */
const byCode = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);

export function fiscalCatalogs(): FiscalCatalogsView {
  return {
    tax_regimes: Object.entries(TAX_REGIMES)
      .map(([code, regime]) => ({ code, ...regime }))
      .sort(byCode),
    cfdi_uses: Object.entries(CFDI_USES)
      .map(([code, use]) => ({
        code,
        name: use.name,
        regimes: [...use.regimes],
      }))
      .sort(byCode),
    payment_forms: Object.entries(PAYMENT_FORMS)
      .map(([code, name]) => ({ code, name }))
      .sort(byCode),
  };
}
