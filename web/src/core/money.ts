import { useMemo } from 'preact/hooks';
import { api, ok } from '../api/client';
import { createStore, useStore } from '../api/store';
import { language } from './i18n';
import { moneyFormatter, satsFormatter } from './money-format';

export { moneyFormatter, satsFormatter };

/**
 * The restaurant's base currency (ISO code), loaded after login. Null until then: no currency is
 * assumed, so a screen never shows euros for a restaurant in pesos.
 */
export const baseCurrency = createStore<string | null>(null);

export async function loadBaseCurrency(): Promise<void> {
  const [base, currencies] = await Promise.all([ok(api.GET('/base-currency')), ok(api.GET('/currencies'))]);
  const code = currencies.find((currency) => currency.id === base.currency_id)?.code;
  if (code) baseCurrency.set(code);
}

/** Formats integer cents in the base currency and the chosen language. */
export function useMoney(): (cents: number) => string {
  const lang = useStore(language);
  const currency = useStore(baseCurrency);
  // Built once per language and currency, not on every render of every screen that shows money.
  return useMemo(() => moneyFormatter(lang, currency), [lang, currency]);
}

/** Formats satoshis in the chosen language, so a Lightning amount reads "16,115 sats", never "16115". */
export function useSats(): (sats: number) => string {
  const lang = useStore(language);
  return useMemo(() => satsFormatter(lang), [lang]);
}
