import type { CurrencyCode } from '../config';

/**
 * The prices of 1 BTC a source may answer and still be believed, per base currency. A wrong answer
 * (a unit mix-up, a broken or hijacked source) is costly: 1e12 MXN/BTC would invoice a 100.00 bill
 * at 1 sat, a tiny price at millions. The band is deliberately wide, a check of the order of
 * magnitude rather than of the market: in USD from 1,000 (BTC last traded that low in 2017) to
 * 10,000,000 (about a hundred times today's price); in MXN the same band at 10 to 20 pesos per
 * dollar, rounded out to 10,000 … 200,000,000. BTC as the base is 1 by definition and asks no source.
 * Widen a band here, and in the README, when a currency is added or the market leaves it.
 */
export const PLAUSIBLE_BTC_PRICE: Readonly<
  Record<Exclude<CurrencyCode, 'BTC'>, { min: number; max: number }>
> = Object.freeze({
  USD: Object.freeze({ min: 1_000, max: 10_000_000 }),
  MXN: Object.freeze({ min: 10_000, max: 200_000_000 }),
});

/** Whether `btcPrice` (1 BTC in `currency`) is a price a source can be trusted to have meant. */
export function isPlausibleBtcPrice(currency: CurrencyCode, btcPrice: number): boolean {
  if (currency === 'BTC') return btcPrice === 1;
  const band = PLAUSIBLE_BTC_PRICE[currency];
  return Number.isFinite(btcPrice) && btcPrice >= band.min && btcPrice <= band.max;
}
