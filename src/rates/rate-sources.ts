import { isPublicRateSource, type PublicRateSourceName, parseFixedPrice } from '../config';
import { coinbaseSource } from './coinbase';
import { coinGeckoSource } from './coingecko';
import type { RateSource } from './exchange-rate';

/**
 * The public price APIs POS_RATE_SOURCE can name (config.ts reads the name, without knowing the
 * sources); POS_RATE_SOURCE_URL replaces their address.
 */
const PUBLIC_RATE_SOURCES: Readonly<Record<PublicRateSourceName, (access: RateSourceAccess) => RateSource>> =
  {
    coingecko: ({ url, key }) => coinGeckoSource(url, key),
    coinbase: ({ url }) => coinbaseSource(url),
  };

/** Another address for a public source, and its API key where it takes one. */
export type RateSourceAccess = { url?: string; key?: string };

/**
 * `coingecko` or `coinbase` (at `access.url` when given), or `fixed:<price>` for a restaurant that
 * sets its own price or has no internet; none configured: no source.
 */
export function rateSourceFromConfig(
  value: string | undefined,
  access: RateSourceAccess = {},
): RateSource | undefined {
  if (value === undefined) return undefined;
  if (isPublicRateSource(value)) return PUBLIC_RATE_SOURCES[value](access);
  const price = parseFixedPrice(value);
  if (price === undefined) return undefined;
  return { name: value, fetchBtcPrice: async () => price };
}
