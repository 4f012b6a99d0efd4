import type { Config } from '../config';
import type { Clock } from './clock';
import type { Db, DialectName } from './db/database';
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
}>;
