import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../core/context';
import { eventsAfter, type StoredEvent } from './events.repo';

export const READ_BATCH = 500;
/**
 * At most one shared read per this many milliseconds: during a rush events come every few
 * milliseconds and each read costs a socket write per subscriber, so several events then go out in
 * one write. A read after a quiet spell runs at once, so a quiet restaurant sees no delay at all.
 * 8 ms rather than 15: with 200 streams in the PostgreSQL rush it cut commit-to-delivery p99 from
 * ~100 to ~76 ms and the rush ratio stayed above 0.6 (docs/benchmarks.md, 2026-11-24).
 */
export const GATHER_MS = 8;

/** What the fan-out needs of a live stream. */
export interface FanOutSubscriber {
  /** The last position this subscriber was sent (or skipped as not its topic). */
  readonly cursor: number;
  /** Takes the events of `batch` after its cursor; called in position order, each position once. */
  deliver(batch: EventBatch): void;
  /** The shared read failed: the subscriber ends, and its client resumes with Last-Event-ID. */
  close(): void;
}

/** An event as a Server-Sent Events frame: `id` its position, `event` its type, `data` the stored JSON. */
export function frameOf(row: StoredEvent): string {
  return `id: ${row.position}\nevent: ${row.type}\ndata: ${row.payload}\n\n`;
}

/**
 * Events read together, framed once. Subscribers asking for the same topics from the same point get
 * the very same buffer: one socket write each instead of one per event, and no copy per subscriber.
 */
export class EventBatch {
  private readonly frames: string[];
  private readonly shared = new Map<string, Buffer | undefined>();

  constructor(private readonly rows: readonly StoredEvent[]) {
    this.frames = rows.map(frameOf);
  }

  /** The last position in the batch; undefined when it is empty. */
  get lastPosition(): number | undefined {
    return this.rows.at(-1)?.position;
  }

  /**
   * The frames after `cursor` of the given topics, as one buffer; undefined when there are none. A
   * view (`viewKey` names it) re-frames the rows it changes, once per batch for every stream with it.
   */
  framesFor(
    cursor: number,
    topics: ReadonlySet<string>,
    topicsKey: string,
    view?: { key: string; frame: (row: StoredEvent) => string | undefined },
  ): Buffer | undefined {
    const start = this.rows.findIndex((row) => row.position > cursor);
    if (start < 0) return undefined;
    const key = `${start}|${topicsKey}|${view?.key ?? ''}`;
    if (this.shared.has(key)) return this.shared.get(key);
    let text = '';
    for (let index = start; index < this.rows.length; index++) {
      const row = this.rows[index] as StoredEvent;
      if (topics.has(row.topic)) text += view?.frame(row) ?? this.frames[index];
    }
    const frames = text === '' ? undefined : Buffer.from(text);
    this.shared.set(key, frames);
    return frames;
  }
}

/**
 * One read of the outbox for all the live streams of this instance that have caught up: each new
 * event is read and framed once, then handed to every subscriber, instead of every stream running its
 * own query for the same rows after each commit (200 streams made 200 reads per commit). A stream
 * replaying from an older position reads on its own until it reaches `cursor`, then joins.
 */
export class EventFanOut {
  private readonly subscribers = new Set<FanOutSubscriber>();
  /** The last position read for the subscribers; meaningful while there are some. */
  private position = 0;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private unsubscribe: (() => void) | undefined;
  /** Counts restarts from a first subscriber's position, so a read begun before one is not used. */
  private generation = 0;
  private gathering: NodeJS.Timeout | undefined;
  private lastReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: Pick<AppContext, 'events'>,
    private readonly log: FastifyBaseLogger,
  ) {}

  get cursor(): number {
    return this.position;
  }

  /**
   * Joins a subscriber whose cursor is at least `cursor` (the caller checks, in the same tick, so no
   * read can run in between). With nobody subscribed the fan-out does not follow the feed, so the
   * first subscriber brings it its position and a read catches what committed meanwhile. That
   * position is one the outbox gave (`streamStart` clamps a client's Last-Event-ID to the newest
   * event), never one a client made up: past the newest event, it would leave every later stream
   * replaying towards it. A later subscriber's cursor never moves it.
   */
  join(subscriber: FanOutSubscriber): void {
    const isFirst = this.subscribers.size === 0;
    this.subscribers.add(subscriber);
    if (isFirst) {
      this.generation++;
      this.position = subscriber.cursor;
      this.unsubscribe = this.ctx.events.onNewPositions(() => this.gather());
      this.read();
    }
  }

  leave(subscriber: FanOutSubscriber): void {
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0) return;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.gathering);
    this.gathering = undefined;
  }

  private gather(): void {
    if (this.gathering) return;
    const wait = this.lastReadAt + GATHER_MS - performance.now();
    if (wait <= 0) {
      this.read();
      return;
    }
    this.gathering = setTimeout(() => {
      this.gathering = undefined;
      this.read();
    }, wait);
  }

  /** Whether a subscriber at `cursor` may join now, or must read on its own up to `this.cursor` first. */
  isCaughtUp(cursor: number): boolean {
    return this.subscribers.size === 0 || cursor >= this.position;
  }

  private read(): void {
    if (this.subscribers.size === 0) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.readAll()
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'reading the events outbox for the live streams failed');
        for (const subscriber of [...this.subscribers]) subscriber.close();
      })
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          this.read();
        }
      });
  }

  private async readAll(): Promise<void> {
    for (;;) {
      const generation = this.generation;
      this.lastReadAt = performance.now();
      const rows = await eventsAfter(this.ctx.events.db, this.position, READ_BATCH);
      if (this.subscribers.size === 0) return;
      // Read from where the previous subscribers were: the new ones may need rows before it.
      if (generation !== this.generation) continue;
      const batch = new EventBatch(rows);
      for (const subscriber of this.subscribers) subscriber.deliver(batch);
      this.position = batch.lastPosition ?? this.position;
      if (rows.length < READ_BATCH) return;
      // A first subscriber far behind makes this a long replay; on SQLite the reads answer at once.
      await nextTurn();
    }
  }
}
