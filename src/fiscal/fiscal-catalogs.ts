import type { FiscalCatalogsView } from './fiscal.schemas';
import { CFDI_USES, PAYMENT_FORMS, TAX_REGIMES } from './sat-catalogs';

export function fiscalCatalogs(): FiscalCatalogsView {
  return {
    tax_regimes: Object.entries(TAX_REGIMES).map(([code, regime]) => ({ code, ...regime })),
    cfdi_uses: Object.entries(CFDI_USES).map(([code, use]) => ({
      code,
      name: use.name,
      regimes: [...use.regimes],
    })),
    payment_forms: Object.entries(PAYMENT_FORMS).map(([code, name]) => ({ code, name })),
  };
}
