import type { Config } from '../config';
import type { LightningNode } from '../lightning/lightning.types';
import type { ExchangeRates } from '../rates/exchange-rate';
import type { Clock } from './clock';
import type { Db, DialectName } from './db/database';
import type { PrincipalCache } from './principal-cache';
import type { Secrets } from './secrets';
import type { TokenService } from './tokens';

/** What features are handed: built once at start-up, never a global. */
export type AppContext = Readonly<{
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  secrets: Secrets;
  tokens: TokenService;
  /** Who each live session belongs to; forget it after changing sessions or users. */
  principals: PrincipalCache;
  /** The restaurant's Lightning node; undefined when no phoenixd password is configured. */
  lightning: LightningNode | undefined;
  /** The price of 1 BTC in the base currency, for Lightning bills. */
  rates: ExchangeRates;
}>;
