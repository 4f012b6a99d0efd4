import type { Config } from '../config';
import type { Clock } from '../core/clock';
import type { Db } from '../core/db/database';
import { DEFAULT_PAPER_LOCALE } from './paper-locales';
import * as repo from './settings.repo';

/**
 * Creates the settings row from the configuration the first time a database is used. Looked for
 * first, so an instance on a read-only replica starts without writing. Apart from the settings
 * service: the context runs it while it is being built, before there is an AppContext.
 */
export async function ensureSettings(ctx: {
  db: Db;
  config: Pick<Config, 'timeZone' | 'baseCurrency'>;
  clock: Clock;
}): Promise<void> {
  if (await repo.findSettings(ctx.db)) return;
  await repo.insertSettingsIfMissing(ctx.db, {
    timezone: ctx.config.timeZone,
    base_currency: ctx.config.baseCurrency,
    locale: ctx.config.baseCurrency === 'MXN' ? DEFAULT_PAPER_LOCALE : 'en-US',
    updated_at: ctx.clock.now(),
  });
}
