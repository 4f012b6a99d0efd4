import { useMemo } from 'preact/hooks';
import { api, ok } from '../api/client';
import { language } from './i18n';
import { createStore, useStore } from './store';

/** The restaurant's base currency (ISO code), loaded after login. */
export const baseCurrency = createStore('EUR');

export async function loadBaseCurrency(): Promise<void> {
  const [base, currencies] = await Promise.all([ok(api.GET('/base-currency')), ok(api.GET('/currencies'))]);
  const code = currencies.find((currency) => currency.id === base.currency_id)?.code;
  if (code) baseCurrency.set(code);
}

/** Formats integer cents in the base currency and the chosen language: 1250 → "€12.50" / "12,50 €". */
export function useMoney(): (cents: number) => string {
  const lang = useStore(language);
  const currency = useStore(baseCurrency);
  // Built once per language and currency, not on every render of every screen that shows money.
  return useMemo(() => {
    const formatter = new Intl.NumberFormat(lang, { style: 'currency', currency });
    return (cents: number) => formatter.format(cents / 100);
  }, [lang, currency]);
}
