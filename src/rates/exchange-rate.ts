import type { CurrencyCode } from '../config';
import type { Clock } from '../core/clock';
import type { ExchangeRate, ExchangeRates as ExchangeRatesPort, RateLog } from '../core/context';
import { ServiceUnavailableError } from '../core/errors';
import { isPlausibleBtcPrice, PLAUSIBLE_BTC_PRICE } from './plausible-price';

export const RATE_UNAVAILABLE = 'Exchange rate unavailable';

/** A rate older than this is not used to price an invoice. */
export const MAX_RATE_AGE_MS = 10 * 60 * 1000;
/** A rate younger than this is used without asking the source again. */
export const RATE_CACHE_MS = 60 * 1000;

/** No usable rate: none configured, the source failing, or the last good one too old. */
export class ExchangeRateUnavailableError extends ServiceUnavailableError {
  constructor() {
    super(RATE_UNAVAILABLE);
  }
}

/** Where the price of 1 BTC in the base currency comes from. */
export type RateSource = { name: string; fetchBtcPrice(currency: CurrencyCode): Promise<number> };

/**
 * The current price of 1 BTC in the base currency: cached for a minute; when the source fails the
 * last good price serves until it is ten minutes old, then nothing does. A BTC base needs no source.
 */
export class ExchangeRates implements ExchangeRatesPort {
  /** The last good price of each currency the base has been. */
  private readonly last = new Map<CurrencyCode, ExchangeRate>();
  /** The fetch under way per currency; callers arriving meanwhile wait for it instead of asking again. */
  private readonly inFlight = new Map<CurrencyCode, Promise<ExchangeRate>>();
  private log: RateLog | undefined;

  constructor(
    private readonly source: RateSource | undefined,
    private readonly clock: Clock,
  ) {}

  useLog(log: RateLog): void {
    this.log = log;
  }

  /** `currency` is the base currency of the settings, read by the caller for this request. */
  async current(currency: CurrencyCode): Promise<ExchangeRate> {
    const now = this.clock.now();
    if (currency === 'BTC') return { currency: 'BTC', btcPrice: 1, source: 'identity', fetchedAt: now };
    const last = this.last.get(currency);
    if (last && now - last.fetchedAt < RATE_CACHE_MS) return last;
    let pending = this.inFlight.get(currency);
    if (!pending) {
      pending = this.refresh(currency, now).finally(() => this.inFlight.delete(currency));
      this.inFlight.set(currency, pending);
    }
    return pending;
  }

  private async refresh(currency: CurrencyCode, now: number): Promise<ExchangeRate> {
    if (this.source) {
      try {
        const btcPrice = await this.source.fetchBtcPrice(currency);
        if (isPlausibleBtcPrice(currency, btcPrice)) {
          const rate = { currency, btcPrice, source: this.source.name, fetchedAt: now };
          this.last.set(currency, rate);
          return rate;
        }
        // Treated as a failed fetch: never priced with, never kept as the last good rate.
        this.log?.warn(
          {
            currency,
            btcPrice,
            source: this.source.name,
            band: currency === 'BTC' ? 1 : PLAUSIBLE_BTC_PRICE[currency],
          },
          'exchange rate refused: implausible price of 1 BTC',
        );
      } catch {
        // The last good price below still serves while it is fresh enough.
      }
    }
    const last = this.last.get(currency);
    if (last && this.clock.now() - last.fetchedAt <= MAX_RATE_AGE_MS) return last;
    throw new ExchangeRateUnavailableError();
  }
}
