import type { ServerResponse } from 'node:http';
import type { AppContext } from '../context';
import type { Principal, PrincipalLookup } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { EventBatch, type EventFanOut, type FanOutSubscriber, READ_BATCH } from './event-fanout';
import { eventsAfter, latestPosition, oldestPosition } from './events.repo';

/** How often a stream checks that its session still stands (logout, deletion, demotion, PIN change). */
export const SESSION_CHECK_MS = 2000;
/**
 * What may wait in a stream's socket buffer. A client that reads slower than events come (a tablet on
 * a weak link) is cut off beyond it rather than let the server's memory grow without bound; it
 * reconnects with Last-Event-ID and replays what it missed from the outbox.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Where a stream begins, and whether events it asked for were pruned (the client must reload). */
export type StreamStart = { position: number; pruned: boolean };

/**
 * Read before the response begins, so a database failure is an ordinary error answer, and so every
 * event committed after the client sees `: connected` reaches it.
 */
export async function streamStart(db: Db, from: number | undefined): Promise<StreamStart> {
  // Without a position the client wants what happens from now on.
  if (from === undefined) return { position: await latestPosition(db), pruned: false };
  const oldest = await oldestPosition(db);
  return { position: from, pruned: oldest !== undefined && oldest > from + 1 };
}

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
    if (this.start.pruned) this.res.write('event: reset\ndata: {}\n\n');
    await this.catchUp().catch(() => this.close());
  }

  deliver(batch: EventBatch): void {
    const last = batch.lastPosition;
    if (this.closed || last === undefined || last <= this.position) return;
    const frames = batch.framesFor(this.position, this.topics, this.topicsKey);
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
   * the join happen in one tick, so no shared read can slip in between.
   */
  private async catchUp(): Promise<void> {
    while (!this.closed) {
      if (this.fanOut.isCaughtUp(this.position)) {
        this.fanOut.join(this);
        return;
      }
      const rows = await eventsAfter(this.ctx.db, this.position, READ_BATCH);
      this.deliver(new EventBatch(rows));
    }
  }

  private async checkSession(): Promise<void> {
    const { sessionId, id, role } = this.principal;
    const now = await this.findPrincipal(sessionId, id).catch(() => undefined);
    if (!now || now.role !== role) this.close();
  }
}
