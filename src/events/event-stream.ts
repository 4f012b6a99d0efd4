import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Principal, PrincipalLookup } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { EventBatch, type EventFanOut, type FanOutSubscriber, READ_BATCH } from './event-fanout';
import { eventsAfter, latestPosition, oldestPosition, type StoredEvent } from './events.repo';

/** How often a stream checks that its session still stands (logout, deletion, demotion, PIN change). */
export const SESSION_CHECK_MS = 2000;
/**
 * What may wait in a stream's socket buffer. A client that reads slower than events come (a tablet on
 * a weak link) is cut off beyond it rather than let the server's memory grow without bound; it
 * reconnects with Last-Event-ID and replays what it missed from the outbox.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Where a stream begins, and whether the client must reload (`event: reset`) before following it. */
export type StreamStart = { position: number; reset: boolean };

/**
 * Read before the response begins, so a database failure is an ordinary error answer, and so every
 * event committed after the client sees `: connected` reaches it.
 *
 * A position ahead of the newest event was never given by this outbox (a client of a database since
 * restored or replaced, or a forged header): what the client holds cannot be trusted and nothing
 * after it exists, so the stream starts from the newest event with `event: reset` (contract-live.md:
 * reset means reload). It must not start there: the first stream's position becomes the fan-out's,
 * and every later stream would replay towards a position no event reaches.
 */
export async function streamStart(db: Db, from: number | undefined): Promise<StreamStart> {
  const latest = await latestPosition(db);
  // Without a position the client wants what happens from now on.
  if (from === undefined) return { position: latest, reset: false };
  if (from > latest) return { position: latest, reset: true };
  const oldest = await oldestPosition(db);
  return { position: from, reset: oldest !== undefined && oldest > from + 1 };
}

/** A name shared by every stream that sees events the same way, and the frame it sees (undefined: as stored). */
export type StreamView = { key: string; frame: (row: StoredEvent) => string | undefined };

/**
 * One open `GET /events` stream: replays after its start on its own, then takes the events the fan-out
 * reads once for every stream that has caught up. Either way each position goes out once, in order.
 */
export class EventStream implements FanOutSubscriber {
  private position: number;
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly topicsKey: string;

  constructor(
    private readonly ctx: AppContext,
    private readonly fanOut: EventFanOut,
    /** Cached for a second like the guard's, so hundreds of open streams do not each query the database. */
    private readonly findPrincipal: PrincipalLookup,
    private readonly res: ServerResponse,
    private readonly principal: Principal,
    private readonly topics: ReadonlySet<string>,
    private readonly start: StreamStart,
    private readonly onEnd: (stream: EventStream) => void,
    /** How this caller sees events whose records hold more than its role may read; none: as stored. */
    private readonly view?: StreamView,
  ) {
    this.topicsKey = [...topics].sort().join(',');
    this.position = start.position;
  }

  get cursor(): number {
    return this.position;
  }

  async open(): Promise<void> {
    this.res.on('close', () => this.close());
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.write(': connected\n\n');
    this.timers.push(setInterval(() => this.res.write(': heartbeat\n\n'), this.ctx.config.eventsHeartbeatMs));
    this.timers.push(setInterval(() => this.checkSession(), SESSION_CHECK_MS));
    if (this.start.reset) this.res.write('event: reset\ndata: {}\n\n');
    await this.catchUp().catch(() => this.close());
  }

  deliver(batch: EventBatch): void {
    const last = batch.lastPosition;
    if (this.closed || last === undefined || last <= this.position) return;
    const frames = batch.framesFor(this.position, this.topics, this.topicsKey, this.view);
    this.position = last;
    if (!frames) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.res.destroy();
      return;
    }
    this.res.write(frames);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.fanOut.leave(this);
    this.res.end();
    this.onEnd(this);
  }

  /**
   * Reads the outbox on its own until it reaches the fan-out's position, then joins it; the check and
   * the join happen in one tick, so no shared read can slip in between. A read that finds nothing
   * more has reached the end of the outbox: positions only grow, so whatever the fan-out reads next
   * comes after it, and it joins (else a fan-out past the last stored event, its rows pruned, kept it
   * reading forever). Each round waits for the next turn of the event loop: on SQLite the reads
   * answer synchronously, and a loop of them would otherwise starve every other request.
   */
  private async catchUp(): Promise<void> {
    while (!this.closed) {
      if (this.fanOut.isCaughtUp(this.position)) {
        this.fanOut.join(this);
        return;
      }
      const fanOutAt = this.fanOut.cursor;
      const rows = await eventsAfter(this.ctx.db, this.position, READ_BATCH);
      if (this.closed) return;
      // Unless the fan-out read meanwhile (PostgreSQL): rows numbered after this read began would be missed.
      if (rows.length === 0 && this.fanOut.cursor === fanOutAt) {
        this.fanOut.join(this);
        return;
      }
      this.deliver(new EventBatch(rows));
      await nextTurn();
    }
  }

  private async checkSession(): Promise<void> {
    const { sessionId, id, role } = this.principal;
    const now = await this.findPrincipal(sessionId, id).catch(() => undefined);
    if (!now || now.role !== role) this.close();
  }
}
