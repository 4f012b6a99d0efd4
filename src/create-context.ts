import { AuditAnchorFile, bindAuditAnchor } from './audit/audit-anchor';
import { prepareAuditChain } from './audit/audit-chain';
import { cardTerminalFromConfig } from './card-terminals/card-terminals';
import type { Config } from './config';
import type { Clock } from './core/clock';
import type { AppContext } from './core/context';
import type { DatabaseHandle } from './core/db/database';
import { PrincipalCache } from './core/principal-cache';
import { loadSecrets } from './core/secrets';
import { TokenService } from './core/tokens';
import { deliveryPlatformsFromConfig } from './delivery-apps/delivery-apps';
import { EventFeed } from './events/event-feed';
import { lightningNodeFromConfig } from './lightning/phoenixd.client';
import { FacturapiClient } from './pac/facturapi.client';
import { tcpPrinterTransport } from './printing/printer-socket';
import { ExchangeRates, type RateSource } from './rates/exchange-rate';
import { rateSourceFromConfig } from './rates/rate-sources';
import { ensureSettings } from './settings/initial-settings';

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
    pac:
      config.pac.key === undefined
        ? undefined
        : new FacturapiClient(config.pac.url, config.pac.key, config.pac.timeoutMs),
    printers: tcpPrinterTransport(),
    deliveryApps: deliveryPlatformsFromConfig(config.deliveryApps, () => clock.now()),
    cardTerminal: cardTerminalFromConfig(config.cardTerminal),
  });
}
