import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type Engine = 'sqlite' | 'postgres';
export type BenchDatabase = { engine: Engine; url: string; drop: () => Promise<void> };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The PostgreSQL server named by DATABASE_URL or TEST_DATABASE_URL, if any. */
export function postgresServerUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.DATABASE_URL, env.TEST_DATABASE_URL].find((url) => url && /^postgres(ql)?:\/\//.test(url));
}

/** A database nobody else uses: a SQLite file in a new temporary folder, or a new PostgreSQL database. */
export async function freshDatabase(engine: Engine, postgresUrl?: string): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const folder = mkdtempSync(join(tmpdir(), 'pos-bench-'));
    return {
      engine,
      url: `sqlite:${join(folder, 'pos.db')}`,
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  }
  if (!postgresUrl) throw new Error('no PostgreSQL URL given');
  const serverUrl = new URL(postgresUrl);
  // The run creates and drops databases: never point it at anything but this machine.
  if (!LOOPBACK_HOSTS.has(serverUrl.hostname)) {
    throw new Error(`refusing to benchmark PostgreSQL at ${serverUrl.hostname}: only 127.0.0.1 targets`);
  }
  const name = `pos_bench_${randomBytes(5).toString('hex')}`;
  await runOnServer(postgresUrl, `create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.toString(),
    drop: () => runOnServer(postgresUrl, `drop database if exists ${name} with (force)`),
  };
}

async function runOnServer(serverUrl: string, statement: string): Promise<void> {
  await withClient(serverUrl, (client) => client.query(statement));
}

/** One connection for `work`, closed after it. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
