import type { CurrencyCode } from '../config';
import type { RateSource } from './exchange-rate';
import { fetchJson, isRecord, positivePrice } from './fetch-json';

export const COINBASE_URL = 'https://api.coinbase.com';

/** A decimal as Coinbase writes amounts: digits, optionally a point and more digits, no sign or exponent. */
const AMOUNT = /^\d{1,15}(\.\d{1,18})?$/;

/**
 * Coinbase's public spot price: `GET /v2/prices/BTC-MXN/spot` answers
 * `{"data":{"amount":"1234567.89","base":"BTC","currency":"MXN"}}`, the amount a decimal string.
 */
export function coinbaseSource(baseUrl = COINBASE_URL): RateSource {
  return {
    name: 'coinbase',
    async fetchBtcPrice(currency: CurrencyCode) {
      const url = new URL(`/v2/prices/BTC-${currency}/spot`, baseUrl);
      return parseCoinbasePrice(await fetchJson(url.href), currency);
    },
  };
}

export function parseCoinbasePrice(body: unknown, currency: CurrencyCode): number {
  const data = isRecord(body) ? body.data : undefined;
  if (!isRecord(data)) throw new Error('Coinbase answer without "data"');
  // A price of another pair would be off by orders of magnitude; it is refused, not converted.
  if (data.base !== 'BTC' || data.currency !== currency) {
    throw new Error(`Coinbase quoted ${String(data.base)}-${String(data.currency)}, not BTC-${currency}`);
  }
  if (typeof data.amount !== 'string' || !AMOUNT.test(data.amount)) {
    throw new Error(`Coinbase amount is not a decimal: ${JSON.stringify(data.amount)}`);
  }
  return positivePrice(Number(data.amount));
}
