import type { CurrencyCode } from '../config';
import type { RateSource } from './exchange-rate';
import { fetchJson, isRecord, positivePrice } from './fetch-json';

export const COINGECKO_URL = 'https://api.coingecko.com';
const COINGECKO_PRO_HOST = 'pro-api.coingecko.com';

/**
 * The header that carries a key: CoinGecko's paid plans answer only on pro-api.coingecko.com and
 * read `x-cg-pro-api-key`; the free demo plan answers on api.coingecko.com (or a mirror) and reads
 * `x-cg-demo-api-key`. The header rather than the query string keeps the key out of proxies' logs.
 */
export function coinGeckoKeyHeader(baseUrl: string): string {
  return new URL(baseUrl).hostname === COINGECKO_PRO_HOST ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
}

/**
 * CoinGecko's public "simple price": `GET /api/v3/simple/price?ids=bitcoin&vs_currencies=mxn`
 * answers `{"bitcoin":{"mxn":1234567.89}}`, the price a JSON number keyed by the lower-case code.
 * Without a key every caller behind one address shares one small rate limit.
 */
export function coinGeckoSource(baseUrl = COINGECKO_URL, key?: string): RateSource {
  const headers = key === undefined ? {} : { [coinGeckoKeyHeader(baseUrl)]: key };
  return {
    name: 'coingecko',
    async fetchBtcPrice(currency: CurrencyCode) {
      const code = currency.toLowerCase();
      const url = new URL('/api/v3/simple/price', baseUrl);
      url.searchParams.set('ids', 'bitcoin');
      url.searchParams.set('vs_currencies', code);
      return parseCoinGeckoPrice(await fetchJson(url.href, headers), currency);
    },
  };
}

export function parseCoinGeckoPrice(body: unknown, currency: CurrencyCode): number {
  const bitcoin = isRecord(body) ? body.bitcoin : undefined;
  if (!isRecord(bitcoin)) throw new Error('CoinGecko answer without "bitcoin"');
  return positivePrice(bitcoin[currency.toLowerCase()]);
}
