import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';
import { hashWalletPassword } from '../../src/core/pin';
import type { RateSource } from '../../src/rates/exchange-rate';
import { PhoenixdSimulator, type SimulatorOptions } from '../phoenixd-sim/simulator';
import { buildTestApp, cookieHeader, TEST_PIN_KEY, type TestApp } from './app';
import { login } from './auth';
import type { DatabaseTarget } from './database';
import { insertUser } from './factories';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

export const WALLET_PASSWORD = 'correct horse battery';
export const WEBHOOK_SECRET = 'test-webhook-secret';

/** An app wired to a fresh phoenixd simulator over real HTTP. */
export async function buildWalletTestApp(
  t: TestContext,
  target: DatabaseTarget,
  options: {
    simulator?: SimulatorOptions;
    env?: Record<string, string>;
    rateSource?: RateSource;
    startJobs?: boolean;
    logStream?: NodeJS.WritableStream;
  } = {},
): Promise<TestApp & { simulator: PhoenixdSimulator }> {
  const simulator = await PhoenixdSimulator.start({ webhookSecret: WEBHOOK_SECRET, ...options.simulator });
  t.after(() => simulator.stop());
  const testApp = await buildTestApp(t, target, {
    env: {
      PHOENIXD_URL: simulator.url,
      PHOENIXD_PASSWORD: simulator.password,
      PHOENIXD_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PHOENIXD_TIMEOUT_MS: '2000',
      PHOENIXD_PAYMENT_TIMEOUT_MS: '2000',
      ...options.env,
    },
    ...(options.rateSource && { rateSource: options.rateSource }),
    ...(options.startJobs !== undefined && { startJobs: options.startJobs }),
    ...(options.logStream && { logStream: options.logStream }),
  });
  return { ...testApp, simulator };
}

/** Lets the simulator's webhook reach the app: the app listens on a real port. */
export async function listenForWebhooks(
  app: FastifyInstance,
  simulator: PhoenixdSimulator,
  port = 0,
): Promise<void> {
  const address = await app.listen({ port, host: '127.0.0.1' });
  simulator.webhookUrl = `${address}/webhook/phoenixd`;
}

export async function setWalletPassword(db: Db, userId: string, password = WALLET_PASSWORD): Promise<void> {
  await db
    .updateTable('users')
    .set({ wallet_password_hash: await hashWalletPassword(password, TEST_PIN_KEY, userId) })
    .where('id', '=', userId)
    .execute();
}

/** An admin with a wallet password, logged in (`cookies`) and with the wallet unlocked (`walletCookies`). */
export async function unlockedAdmin(app: FastifyInstance, db: Db) {
  const user = await insertUser(db, { role: 'admin' });
  await setWalletPassword(db, user.id);
  const cookies = await login(app, user.name, user.pin);
  const unlocked = await app.inject({
    method: 'POST',
    url: '/wallet/auth',
    headers: { cookie: cookies },
    payload: { password: WALLET_PASSWORD },
  });
  assert.equal(unlocked.statusCode, 200, unlocked.body);
  return { user, cookies, walletCookies: `${cookies}; ${cookieHeader(unlocked)}` };
}

/** A payment this server recorded earlier, e.g. on a node that has since been replaced. */
export async function insertStoredIncomingPayment(
  db: Db,
  overrides: Partial<Database['incoming_payments']> & { payment_hash: string },
): Promise<void> {
  await db
    .insertInto('incoming_payments')
    .values({
      amount_sat: 1000,
      received_sat: 1000,
      fees_sat: 0,
      description: 'Recorded before the node swap',
      external_id: null,
      status: 'RECEIVED',
      created_at: Date.UTC(2025, 0, 1),
      completed_at: Date.UTC(2025, 0, 1),
      recorded_at: Date.UTC(2025, 0, 1),
      ...overrides,
    })
    .execute();
}
