import { AuditAnchorFile, bindAuditAnchor } from './audit/audit-anchor';
import { prepareAuditChain } from './audit/audit-chain';
import type { Config } from './config';
import type { Clock } from './core/clock';
import type { DatabaseHandle, Db, DialectName } from './core/db/database';
import { PrincipalCache } from './core/principal-cache';
import { loadSecrets, type Secrets } from './core/secrets';
import { TokenService } from './core/tokens';
import { EventFeed } from './events/event-feed';
import type { LightningNode } from './lightning/lightning.types';
import { lightningNodeFromConfig } from './lightning/phoenixd.client';
import { ExchangeRates, type RateSource } from './rates/exchange-rate';
import { rateSourceFromConfig } from './rates/rate-sources';
import { ensureSettings } from './settings/initial-settings';

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
  /** The price of 1 BTC in the settings' base currency, for Lightning bills. */
  rates: ExchangeRates;
  /** Wakes readers of the events outbox when new positions are visible (see events/event-feed.ts). */
  events: EventFeed;
}>;

/** The context of a migrated database: the server's, and the admin CLI's, so both apply the same rules. */
export async function createContext(
  config: Config,
  database: DatabaseHandle,
  clock: Clock,
  rateSource: RateSource | undefined = rateSourceFromConfig(config.rateSource, {
    url: config.rateSourceUrl,
    key: config.rateSourceKey,
  }),
): Promise<AppContext> {
  const secrets = await loadSecrets(database.db, { jwtSecret: config.jwtSecret, pinKey: config.pinKey });
  await ensureSettings({ db: database.db, config, clock });
  await prepareAuditChain(database.db, secrets.auditKey);
  bindAuditAnchor(
    database.db,
    config.auditAnchorFile === undefined ? undefined : new AuditAnchorFile(config.auditAnchorFile),
  );
  return Object.freeze({
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    secrets,
    tokens: new TokenService(secrets.jwtSecret, clock),
    principals: new PrincipalCache(clock),
    lightning: lightningNodeFromConfig(config.phoenixd),
    rates: new ExchangeRates(rateSource, clock),
    events: new EventFeed(database, config.databaseUrl),
  });
}
