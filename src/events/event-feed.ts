import type { FastifyBaseLogger } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { EventFeed as EventFeedPort } from '../core/context';
import {
  type DatabaseHandle,
  type Db,
  type DialectName,
  newPostgresPool,
  postgresPoolConfig,
} from '../core/db/database';
import type { Database } from '../core/db/schema';
import { ANNOUNCE_CHANNEL_PREFIX, latestPosition, sequenceEvents } from './events.repo';

const SEQUENCE_BATCH = 500;
const RECONNECT_DELAY_MS = 1000;
/**
 * PostgreSQL: the sequencer, the look for new positions and the live streams' shared read run on
 * connections of their own. In the request pool they queue behind a rush's queries three times on
 * the way from a commit to the streams (100 ms and more at saturation); these are a few short queries.
 */
const OWN_CONNECTIONS = 2;

type Listener = (latest: number) => void;

/**
 * Tells this instance's readers of the outbox (live streams, webhooks) when new positions are
 * visible, so they read `eventsAfter` only then. SQLite: after this instance's own commits that wrote
 * events, the only writers. PostgreSQL: such a commit runs this instance's sequencer at once, or
 * right after the run under way (commits meanwhile share that next run; no NOTIFY from writers: it
 * serialized their commits and woke every instance), and a dedicated connection LISTENs for the
 * sequencers' (of any instance) numbering, whose announcements carry the highest position numbered,
 * reconnecting when it drops; the fallback job runs the sequencer every second for rows whose writer
 * died before numbering them, or whose announcement was lost while the connection was down.
 */
export class EventFeed implements EventFeedPort {
  private readonly listeners = new Set<Listener>();
  private latest = 0;
  private checking: Promise<void> | undefined;
  private checkAgain = false;
  private sequencing: Promise<void> | undefined;
  private nextSequencing: Promise<void> | undefined;
  private client: pg.Client | undefined;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private log: FastifyBaseLogger | undefined;
  private channel: string | undefined;
  private own: Kysely<Database> | undefined;
  private ownPool: pg.Pool | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly databaseUrl: string,
  ) {
    // Made here rather than in start(): jobs may sequence before the server is ready (it opens lazily).
    if (database.dialect === 'postgres') {
      this.ownPool = newPostgresPool({ ...postgresPoolConfig(databaseUrl), max: OWN_CONNECTIONS });
      this.own = new Kysely<Database>({ dialect: new PostgresDialect({ pool: this.ownPool }) });
    }
  }

  /** Where the outbox's followers read: this feed's own connections on PostgreSQL. */
  get db(): Db {
    return this.own ?? this.database.db;
  }

  get dialect(): DialectName {
    return this.database.dialect;
  }

  /** Calls `listener` with the latest visible position whenever it grows; returns the unsubscribe. */
  onNewPositions(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(log: FastifyBaseLogger): Promise<void> {
    this.log = log;
    this.latest = await latestPosition(this.db);
    if (this.dialect === 'sqlite') {
      this.unsubscribe = this.database.onOutboxCommit(() => this.wake());
      return;
    }
    this.unsubscribe = this.database.onOutboxCommit(() =>
      this.sequence().catch((error: unknown) => this.log?.error({ err: error }, 'event sequencer failed')),
    );
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await Promise.allSettled([this.checking, this.sequencing, this.nextSequencing]);
    const own = this.own;
    this.own = undefined;
    this.ownPool = undefined;
    await own?.destroy();
  }

  /**
   * Looks for new positions and tells the listeners; calls during a look run it once more after.
   * With nobody listening there is nothing to look for: every commit would otherwise pay a read.
   */
  wake(): void {
    if (this.stopped || this.listeners.size === 0) return;
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = this.check()
      .catch((error: unknown) => this.log?.error({ err: error }, 'reading the latest event position failed'))
      .finally(() => {
        this.checking = undefined;
        if (this.checkAgain) {
          this.checkAgain = false;
          this.wake();
        }
      });
  }

  private async check(): Promise<void> {
    this.advance(await latestPosition(this.db));
  }

  /** Every position up to `latest` is visible: tells the listeners when that is news. */
  private advance(latest: number): void {
    if (latest <= this.latest || this.stopped) return;
    this.latest = latest;
    for (const listener of this.listeners) listener(latest);
  }

  /**
   * PostgreSQL: numbers every event committed before the call (a no-op on SQLite). A run already
   * under way may have read before the caller's commit, so the caller gets the next run after it;
   * callers arriving while that next run waits share it.
   */
  sequence(): Promise<void> {
    if (this.dialect === 'sqlite' || this.stopped) return Promise.resolve();
    if (this.nextSequencing) return this.nextSequencing;
    if (!this.sequencing) return this.runSequencer();
    this.nextSequencing = this.sequencing
      .catch(() => undefined)
      .then(() => {
        this.nextSequencing = undefined;
        return this.runSequencer();
      });
    return this.nextSequencing;
  }

  private runSequencer(): Promise<void> {
    const run = this.sequenceAll().finally(() => {
      if (this.sequencing === run) this.sequencing = undefined;
    });
    this.sequencing = run;
    return run;
  }

  private async sequenceAll(): Promise<void> {
    const pool = this.ownPool;
    if (!pool) return;
    let run: { numbered: number; latest: number };
    do {
      run = await sequenceEvents(pool, SEQUENCE_BATCH);
      // Committed: this instance's streams need not wait for its own announcement to come back.
      this.advance(run.latest);
    } while (run.numbered === SEQUENCE_BATCH);
  }

  /** Per schema, so databases that share a server (tests, tenants) do not wake each other. */
  private async channelName(): Promise<string> {
    if (!this.channel) {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(this.db);
      this.channel = `${ANNOUNCE_CHANNEL_PREFIX}${rows[0]?.schema ?? 'public'}`;
    }
    return this.channel;
  }

  private async listen(): Promise<void> {
    const channel = await this.channelName();
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('error', (error) => this.reconnect(client, error));
    client.on('end', () => this.reconnect(client, undefined));
    // The announcement names the highest position numbered, which saves every instance a read.
    client.on('notification', ({ payload }) => {
      const latest = Number(payload);
      if (Number.isSafeInteger(latest) && latest > 0) this.advance(latest);
      else this.wake();
    });
    await client.connect();
    await client.query(`listen "${channel}"`);
    this.client = client;
    // Anything committed while nobody listened. A database that cannot take writes (a read-only
    // replica, a full disk) must not keep the instance from starting: the sequencer job retries.
    await this.sequence().catch((error: unknown) =>
      this.log?.error({ err: error }, 'event sequencer failed'),
    );
    this.wake();
  }

  private reconnect(client: pg.Client, error: Error | undefined): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    this.log?.warn({ err: error }, 'event notifications lost; reconnecting');
    client.end().catch(() => undefined);
    const retry = () => {
      if (this.stopped) return;
      this.listen().catch((failure: unknown) => {
        this.log?.warn({ err: failure }, 'event notifications: reconnect failed');
        this.reconnectTimer = setTimeout(retry, RECONNECT_DELAY_MS);
      });
    };
    this.reconnectTimer = setTimeout(retry, RECONNECT_DELAY_MS);
  }
}
