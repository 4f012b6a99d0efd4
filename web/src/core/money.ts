import { useMemo } from 'preact/hooks';
import { api, ok } from '../api/client';
import { type Language, LOCALES, language } from './i18n';
import { createStore, useStore } from './store';

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

/**
 * Integer cents in `currency`, in the language's locale: 125550 MXN → "$1,255.50" in es-MX and in
 * en-US alike. The narrow symbol, because the app only ever shows the restaurant's own currency: a
 * Mexican till reads "$", not "MX$" (en-US) or "MXN"; likewise "€" or "$" for euros or dollars.
 * Without a currency yet, the bare amount with two decimals. Satoshis are grouped in the same locale
 * (useSats).
 */
export function moneyFormatter(lang: Language, currency: string | null): (cents: number) => string {
  const formatter = new Intl.NumberFormat(
    LOCALES[lang],
    currency
      ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }
      : { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  );
  return (cents: number) => formatter.format(cents / 100);
}

/** Formats integer cents in the base currency and the chosen language. */
export function useMoney(): (cents: number) => string {
  const lang = useStore(language);
  const currency = useStore(baseCurrency);
  // Built once per language and currency, not on every render of every screen that shows money.
  return useMemo(() => moneyFormatter(lang, currency), [lang, currency]);
}

/** Whole satoshis grouped the language's way: 1,234,567 in es-MX and en-US alike. */
export function satsFormatter(lang: Language): (sats: number) => string {
  const formatter = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 0 });
  return (sats: number) => formatter.format(sats);
}

/** Formats satoshis in the chosen language, so a Lightning amount reads "16,115 sats", never "16115". */
export function useSats(): (sats: number) => string {
  const lang = useStore(language);
  return useMemo(() => satsFormatter(lang), [lang]);
}
