import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';

const newEvent = prepared((db, event: { type: string; topic: string; payload: string; created_at: number }) =>
  db.insertInto('events').values(event),
);

export async function insertEvent(
  db: Db,
  event: { type: string; topic: string; payload: string; created_at: number },
): Promise<void> {
  await newEvent.run(db, event);
}

export type StoredEvent = {
  position: number;
  type: string;
  topic: string;
  payload: string;
  created_at: number;
};

/**
 * The outbox after `position`, in position order: the one read the live stream and outbound webhooks
 * use. Rows still waiting for a position are left out; they come after every row returned here.
 */
export async function eventsAfter(db: Db, position: number, limit: number): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['position', 'type', 'topic', 'payload', 'created_at'])
    .where('position', '>', position)
    .orderBy('position')
    .limit(limit)
    .execute();
  return rows as StoredEvent[];
}

/** The highest position given so far, 0 when none. */
export async function latestPosition(db: Db): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('position').as('position'))
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

/** The lowest position still stored, undefined when the outbox is empty. */
export async function oldestPosition(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.min('position').as('position'))
    .executeTakeFirst();
  return row?.position == null ? undefined : Number(row.position);
}

/** Deletes up to `limit` events created before `before`; returns how many went. */
export async function pruneEvents(db: Db, before: number, limit: number): Promise<number> {
  const doomed = db
    .selectFrom('events')
    .select('id')
    .where('created_at', '<', before)
    .where('position', 'is not', null)
    .orderBy('id')
    .limit(limit);
  const result = await db.deleteFrom('events').where('id', 'in', doomed).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * PostgreSQL: numbers up to `limit` committed rows that have no position yet, in id order, and
 * announces it. The advisory lock serializes sequencers (of every instance) until commit, and each
 * one's UPDATE runs after the previous committed, so positions become visible in increasing order:
 * a reader that sees position p also sees every position below p, and `position > cursor` never
 * skips a row. The announcement carries the highest position given, so listeners need not read it.
 * Returns how many rows were numbered and that highest position (0 when none).
 */
export async function sequenceEvents(
  db: Db,
  channel: string,
  limit: number,
): Promise<{ numbered: number; latest: number }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.events_sequencer'))`.execute(trx);
    const { rows } = await sql<{ position: number }>`
      update events set position = numbered.position
      from (select id, nextval('events_position_seq') as position
            from (select id from events where position is null order by id limit ${limit}) as waiting) as numbered
      where events.id = numbered.id
      returning events.position`.execute(trx);
    const latest = rows.reduce((highest, row) => Math.max(highest, Number(row.position)), 0);
    if (rows.length > 0) await sql`select pg_notify(${channel}, ${String(latest)})`.execute(trx);
    return { numbered: rows.length, latest };
  });
}
