import { ConfigError, loadConfig } from '../config';
import { systemClock } from '../core/clock';
import { migrateToLatest, openDatabase } from '../core/db/database';
import { createContext } from '../create-context';
import { DEMO_ADMIN, seedDemoRestaurant } from './demo-restaurant';

/** `npm run seed`: a demo restaurant in an empty database, for trying the POS. Never run by the server. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database.db);
    const ctx = await createContext(config, database, systemClock);
    const summary = await seedDemoRestaurant(ctx);
    console.log(
      `Demo restaurant created: ${summary.dishes} dishes, ${summary.tables} tables, ${summary.orders} orders of today.`,
    );
    console.log('Log in with (demo PINs: change them before real service, npm run pos -- reset-pin):');
    for (const user of summary.users) console.log(`  ${user.role.padEnd(7)}  ${user.name}  PIN ${user.pin}`);
    console.log(`Wallet password of ${DEMO_ADMIN.name}: ${DEMO_ADMIN.walletPassword}`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError
      ? `Invalid configuration: ${error.problems.join('; ')}`
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error);
  console.error(`error: ${message}`);
  process.exitCode = 1;
});
