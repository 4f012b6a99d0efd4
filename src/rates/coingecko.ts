import type { CurrencyCode } from '../config';
import type { RateSource } from './exchange-rate';
import { fetchJson, isRecord, positivePrice } from './fetch-json';

export const COINGECKO_URL = 'https://api.coingecko.com';

/**
 * CoinGecko's public "simple price": `GET /api/v3/simple/price?ids=bitcoin&vs_currencies=mxn`
 * answers `{"bitcoin":{"mxn":1234567.89}}`, the price a JSON number keyed by the lower-case code.
 */
export function coinGeckoSource(baseUrl = COINGECKO_URL): RateSource {
  return {
    name: 'coingecko',
    async fetchBtcPrice(currency: CurrencyCode) {
      const code = currency.toLowerCase();
      const url = new URL('/api/v3/simple/price', baseUrl);
      url.searchParams.set('ids', 'bitcoin');
      url.searchParams.set('vs_currencies', code);
      return parseCoinGeckoPrice(await fetchJson(url.href), currency);
    },
  };
}

export function parseCoinGeckoPrice(body: unknown, currency: CurrencyCode): number {
  const bitcoin = isRecord(body) ? body.bitcoin : undefined;
  if (!isRecord(bitcoin)) throw new Error('CoinGecko answer without "bitcoin"');
  return positivePrice(bitcoin[currency.toLowerCase()]);
}
