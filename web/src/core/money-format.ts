import { type Language, LOCALES } from './i18n';

// Apart from money.ts, which loads the base currency through the staff API client: the guest's page
// formats money too and must not pull that client in.

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

/** Whole satoshis grouped the language's way: 1,234,567 in es-MX and en-US alike. */
export function satsFormatter(lang: Language): (sats: number) => string {
  const formatter = new Intl.NumberFormat(LOCALES[lang], { maximumFractionDigits: 0 });
  return (sats: number) => formatter.format(sats);
}
