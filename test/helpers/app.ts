import { after, describe } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { buildApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { manualClock } from '../../src/core/clock';
import type { DatabaseHandle, Db, DialectName } from '../../src/core/db/database';
import type { RateSource } from '../../src/rates/exchange-rate';
import { announceSkippedTargets, type DatabaseTarget, databaseTargets, openTestDatabase } from './database';

export const TEST_PIN_KEY = 'test-pin-key-0123456789abcdef0123456789';
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef012345';

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    POS_PIN_KEY: TEST_PIN_KEY,
    POS_JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  });
}

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  dialect: DialectName;
  clock: ReturnType<typeof manualClock>;
  config: Config;
  /** The database URL, for a second app instance on the same database. */
  databaseUrl: string;
  /** The open database, for a second app instance sharing it. */
  database: DatabaseHandle;
};

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** A fresh app on a fresh database for one test, closed when the test ends. */
export async function buildTestApp(
  t: TestContext,
  target: DatabaseTarget,
  options: {
    env?: Record<string, string>;
    logStream?: NodeJS.WritableStream;
    rateSource?: RateSource;
    /** Run background jobs on their timers; by default they run only when a test asks. */
    startJobs?: boolean;
    /** Kysely plugins the app's queries go through, e.g. to count them. */
    plugins?: KyselyPlugin[];
  } = {},
): Promise<TestApp> {
  const opened = await openTestDatabase(target);
  const { url, dispose } = opened;
  const db = (options.plugins ?? []).reduce(
    (plugged, plugin) => plugged.withPlugin(plugin),
    opened.database.db,
  );
  const database = { ...opened.database, db };
  const clock = manualClock(Date.UTC(2026, 10, 22, 18, 0, 0));
  const config = testConfig({ ...options.env, DATABASE_URL: url });
  const app = await buildApp(config, {
    database,
    clock,
    logStream: options.logStream,
    startJobs: options.startJobs ?? false,
    ...(options.rateSource && { rateSource: options.rateSource }),
  });
  t.after(async () => {
    await app.close();
    await dispose();
  });
  return { app, db: database.db, dialect: database.dialect, clock, config, databaseUrl: url, database };
}

/** Runs a suite once per database target: `describeEachDatabase('orders', (target) => { ... })`. */
export function describeEachDatabase(name: string, suite: (target: DatabaseTarget) => void): void {
  announceSkippedTargets();
  for (const target of databaseTargets) {
    describe(`${name} [${target.name}]`, () => suite(target));
  }
}

/** The `cookie` request header that carries the cookies a response set. */
export function cookieHeader(...responses: LightMyRequestResponse[]): string {
  const jar = new Map<string, string>();
  for (const response of responses) {
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

export { after };
