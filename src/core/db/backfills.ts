import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A long rewrite of existing rows that a schema migration asks for (issue 37). A schema migration runs
 * as one statement or one transaction, which at a year of orders held the database for minutes; a
 * backfill instead runs after every schema migration, in batches of `size` units (orders, say), each
 * batch in its own short transaction that also stores how far it got. A restart resumes after the last
 * committed batch. Its statements read the schema of the migration that scheduled it: a later
 * migration that changes what they read must not land while the backfill can still be pending.
 */
export type Backfill = {
  /** How many units there are in all, for the progress; read once when the backfill (re)starts. */
  count(db: Kysely<unknown>): Promise<number>;
  /**
   * Does the next units after `cursor` (none done yet: null) in `trx`, at most `size`; returns the
   * last one's key and how many it did, or undefined when none are left.
   */
  batch(trx: Kysely<unknown>, cursor: string | null, size: number): Promise<BatchDone | undefined>;
};

export type BatchDone = { cursor: string; units: number };

export type BackfillProgress = {
  name: string;
  done: number;
  total: number;
  /** Units per second over the batches of this run. */
  rate: number;
  /** How long the last batch's transaction lasted. */
  batchMs: number;
};

export type BackfillOptions = {
  /** Units per batch (per transaction). */
  batchSize?: number;
  onProgress?: (progress: BackfillProgress) => void;
  /** Asked before each batch: true stops the run where it is (the server is closing). */
  shouldStop?: () => boolean;
};

/** 5,000 orders (about 25,000 facts) make a batch of about a second on SQLite at 1M orders. */
export const DEFAULT_BATCH_SIZE = 5000;

/** Kept apart from the schema's own tables, like Kysely's migration bookkeeping. */
const TABLE = 'backfill_progress';

type ProgressRow = { name: string; cursor: string | null; done: number };

async function ensureTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists ${sql.table(TABLE)} (
      name text primary key, cursor text, done bigint not null, scheduled_at bigint not null, finished_at bigint
    )`.execute(db);
}

/**
 * Called by the schema migration that needs the backfill, in its transaction. Scheduling one that
 * already ran (a migration run again after a down) starts it over.
 */
export async function scheduleBackfill(db: Kysely<unknown>, name: string): Promise<void> {
  await ensureTable(db);
  await sql`insert into ${sql.table(TABLE)} (name, cursor, done, scheduled_at) values (${name}, null, 0, ${Date.now()})
    on conflict (name) do update set cursor = null, done = 0, scheduled_at = excluded.scheduled_at, finished_at = null`.execute(
    db,
  );
}

async function lockProgress(
  trx: Kysely<unknown>,
  name: string,
): Promise<ProgressRow & { finished_at: number | null }> {
  const lock = trx.getExecutor().adapter instanceof PostgresAdapter ? sql`for update` : sql``;
  const { rows } = await sql<
    ProgressRow & { finished_at: number | null }
  >`select name, cursor, done, finished_at
    from ${sql.table(TABLE)} where name = ${name} ${lock}`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error(`Backfill ${name} is not scheduled`);
  return { ...row, done: Number(row.done) };
}

/** The backfills not finished yet; the table exists once migration 0022 has run. */
export async function pendingBackfills(db: Kysely<unknown>): Promise<ProgressRow[]> {
  const { rows } = await sql<ProgressRow>`select name, cursor, done from ${sql.table(TABLE)}
    where finished_at is null order by name`.execute(db);
  return rows.map((row) => ({ ...row, done: Number(row.done) }));
}

/**
 * Runs the pending backfills to the end, in the order of their names (the migrations'), unless
 * `shouldStop` says otherwise. Returns whether every one finished.
 */
export async function runBackfills(
  db: Kysely<unknown>,
  registry: Readonly<Record<string, Backfill>>,
  options: BackfillOptions = {},
): Promise<boolean> {
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  for (const pending of await pendingBackfills(db)) {
    const backfill = registry[pending.name];
    // Scheduled by a migration this code does not have: a newer release ran on this database.
    if (!backfill)
      throw new Error(`Unknown backfill ${pending.name}: is this an older release than the database?`);
    const total = await backfill.count(db);
    let doneThisRun = 0;
    const started = performance.now();
    while (true) {
      if (options.shouldStop?.()) return false;
      const batchStarted = performance.now();
      const batch = await db.transaction().execute(async (trx) => {
        // Read under the row's lock: servers sharing a PostgreSQL database take turns, each batch
        // going on from where the last one committed, whichever server ran it.
        const stored = await lockProgress(trx, pending.name);
        if (stored.finished_at !== null) return { ...stored, isFinished: true, units: 0 };
        const result = await backfill.batch(trx, stored.cursor, size);
        if (result) {
          await sql`update ${sql.table(TABLE)} set cursor = ${result.cursor}, done = done + ${result.units}
            where name = ${pending.name}`.execute(trx);
          return {
            cursor: result.cursor,
            done: stored.done + result.units,
            isFinished: false,
            units: result.units,
          };
        }
        await sql`update ${sql.table(TABLE)} set finished_at = ${Date.now()} where name = ${pending.name}`.execute(
          trx,
        );
        return { ...stored, isFinished: true, units: 0 };
      });
      const batchMs = performance.now() - batchStarted;
      doneThisRun += batch.units;
      const seconds = (performance.now() - started) / 1000;
      options.onProgress?.({
        name: pending.name,
        done: batch.done,
        // The units written since the count (none while the server waits) may take it past the total.
        total: Math.max(total, batch.done),
        rate: seconds > 0 ? Math.round(doneThisRun / seconds) : 0,
        batchMs: Math.round(batchMs),
      });
      if (batch.isFinished) break;
    }
  }
  return true;
}
