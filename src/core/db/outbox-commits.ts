import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** Whether a statement, as Kysely compiles it on either engine, writes to the events outbox. */
export function insertsIntoOutbox(sqlText: string): boolean {
  return sqlText.startsWith('insert into "events"');
}

/**
 * Kysely's PostgreSQL pool, telling `onOutboxCommit` after each commit that wrote events, so this
 * instance numbers them at once (events/event-feed.ts) without a NOTIFY from every writer: a NOTIFY
 * makes PostgreSQL serialize the commits that send one, and woke every instance's sequencer.
 */
export class OutboxCommitPool implements PostgresPool {
  private readonly clients = new WeakMap<pg.PoolClient, OutboxCommitClient>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly onOutboxCommit: () => void,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    let watched = this.clients.get(client);
    if (!watched) {
      watched = new OutboxCommitClient(client, this.onOutboxCommit);
      this.clients.set(client, watched);
    }
    return watched;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** Kysely lends a client to one query, or to one transaction from its BEGIN to its COMMIT/ROLLBACK. */
class OutboxCommitClient {
  private inTransaction = false;
  private wroteOutbox = false;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly onOutboxCommit: () => void,
  ) {}

  query<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    query: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Cursors only stream reads.
    if (typeof query !== 'string')
      return this.client.query(query as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    return this.execute(query, parameters);
  }

  private async execute<R>(sqlText: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    if (sqlText === 'begin' || sqlText.startsWith('start transaction')) this.inTransaction = true;
    else if (sqlText === 'rollback') this.endTransaction();
    const result = (await this.client.query(
      sqlText,
      parameters as unknown[],
    )) as unknown as PostgresQueryResult<R>;
    if (insertsIntoOutbox(sqlText)) this.wroteOutbox = true;
    if (sqlText === 'commit' || (!this.inTransaction && this.wroteOutbox)) {
      const wroteOutbox = this.wroteOutbox;
      this.endTransaction();
      if (wroteOutbox) this.onOutboxCommit();
    }
    return result;
  }

  release(): void {
    this.endTransaction();
    this.client.release();
  }

  private endTransaction(): void {
    this.inTransaction = false;
    this.wroteOutbox = false;
  }
}
