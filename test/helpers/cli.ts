import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import type { Clock } from '../../src/core/clock';
import { type Db, openDatabase } from '../../src/core/db/database';
import { TEST_JWT_SECRET, TEST_PIN_KEY, testConfig } from './app';
import type { DatabaseTarget } from './database';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/**
 * The server's app on a database another process can open too (a temporary SQLite file, or a
 * PostgreSQL schema of its own), all thrown away when the test ends.
 */
export async function appOnSharedDatabase(
  t: TestContext,
  target: DatabaseTarget,
  options: { env?: Record<string, string>; clock?: Clock; startJobs?: boolean } = {},
): Promise<{ app: FastifyInstance; db: Db; databaseUrl: string }> {
  let databaseUrl: string;
  let drop: () => Promise<void>;
  if (target.name === 'sqlite') {
    const folder = await mkdtemp(join(tmpdir(), 'pos-cli-'));
    databaseUrl = `sqlite:${join(folder, 'pos.db')}`;
    drop = () => rm(folder, { recursive: true, force: true });
  } else {
    ({ url: databaseUrl, drop } = await target.url());
  }
  const database = openDatabase(databaseUrl);
  const app = await buildApp(testConfig({ ...options.env, DATABASE_URL: databaseUrl }), {
    database,
    ...(options.clock && { clock: options.clock }),
    ...(options.startJobs !== undefined && { startJobs: options.startJobs }),
  });
  t.after(async () => {
    await app.close();
    await database.close();
    await drop();
  });
  return { app, db: database.db, databaseUrl };
}

export type CommandResult = { code: number | null; stdout: string; stderr: string };

const START = join(import.meta.dirname, '..', '..', 'scripts', 'start.mjs');

/**
 * Runs `npm run <script>` (`pos` or `seed`) as a user does: the compiled dist/, built first when
 * stale, with the test secrets and that database; waits for it to end.
 */
export function runScript(
  script: 'pos' | 'seed',
  args: string[],
  options: { databaseUrl: string; env?: Record<string, string>; input?: string },
): Promise<CommandResult> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('POS_') && name !== 'DATABASE_URL'),
  );
  const child = spawn(process.execPath, [START, script, ...args], {
    env: {
      ...inherited,
      DATABASE_URL: options.databaseUrl,
      POS_PIN_KEY: TEST_PIN_KEY,
      POS_JWT_SECRET: TEST_JWT_SECRET,
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
