import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The order in which readers of the outbox see events: `position`, unique, assigned once the row is
 * visible. SQLite serializes writers, so the row id already follows commit order and a trigger copies
 * it. On PostgreSQL ids become visible out of commit order (a transaction holding a lower id may
 * commit later), so rows are inserted without a position and a sequencer numbers the committed ones
 * under a lock (sequenceEvents in src/events/events.repo.ts); see there for why this never lets a reader skip a row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('events').addColumn('position', 'bigint').execute();
  await db.schema.createIndex('events_position').on('events').column('position').unique().execute();
  if (isPostgres) {
    await sql`create sequence events_position_seq`.execute(db);
    // Events already stored (before this migration) are numbered in id order.
    await sql`update events set position = nextval('events_position_seq')
      from (select id from events order by id) as numbered where events.id = numbered.id`.execute(db);
    await sql`create index events_unpositioned on events (id) where position is null`.execute(db);
  } else {
    await sql`update events set position = id`.execute(db);
    await sql`create trigger events_position_from_id after insert on events when new.position is null
      begin update events set position = new.id where id = new.id; end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (isPostgres) {
    await sql`drop index events_unpositioned`.execute(db);
    await sql`drop sequence events_position_seq`.execute(db);
  } else {
    await sql`drop trigger events_position_from_id`.execute(db);
  }
  await db.schema.dropIndex('events_position').execute();
  await db.schema.alterTable('events').dropColumn('position').execute();
}
