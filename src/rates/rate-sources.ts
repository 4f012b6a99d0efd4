import { isPublicRateSource, type PublicRateSourceName, parseFixedPrice } from '../config';
import { coinbaseSource } from './coinbase';
import { coinGeckoSource } from './coingecko';
import type { RateSource } from './exchange-rate';

/**
 * The public price APIs POS_RATE_SOURCE can name (config.ts reads the name, without knowing the
 * sources); POS_RATE_SOURCE_URL replaces their address.
 */
const PUBLIC_RATE_SOURCES: Readonly<Record<PublicRateSourceName, (url?: string) => RateSource>> = {
  coingecko: coinGeckoSource,
  coinbase: coinbaseSource,
};

/**
 * `coingecko` or `coinbase` (at `url` when given), or `fixed:<price>` for a restaurant that sets its
 * own price or has no internet; none configured: no source.
 */
export function rateSourceFromConfig(value: string | undefined, url?: string): RateSource | undefined {
  if (value === undefined) return undefined;
  if (isPublicRateSource(value)) return PUBLIC_RATE_SOURCES[value](url);
  const price = parseFixedPrice(value);
  if (price === undefined) return undefined;
  return { name: value, fetchBtcPrice: async () => price };
}
