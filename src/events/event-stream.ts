import type { ServerResponse } from 'node:http';
import { findPrincipal } from '../auth/sessions.repo';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { eventsAfter, latestPosition, oldestPosition } from './events.repo';

/** How often a stream checks that its session still stands (logout, deletion, demotion, PIN change). */
export const SESSION_CHECK_MS = 2000;
const READ_BATCH = 500;

/**
 * One open `GET /events` stream: replays after `from`, then follows the feed. Reads are serialized
 * per stream (a wake during a read reads once more after), so each position goes out exactly once.
 */
export class EventStream {
  private cursor = 0;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private closed = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly res: ServerResponse,
    private readonly principal: Principal,
    private readonly topics: ReadonlySet<string>,
    private readonly from: number | undefined,
    private readonly onEnd: (stream: EventStream) => void,
  ) {}

  async open(): Promise<void> {
    this.res.on('close', () => this.close());
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.write(': connected\n\n');
    // Without a position the client wants what happens from now on; reading it before subscribing
    // and reading once after leaves no gap for a commit in between.
    if (this.from === undefined) this.cursor = await latestPosition(this.ctx.db);
    else {
      this.cursor = this.from;
      const oldest = await oldestPosition(this.ctx.db);
      // Events between the client's position and the oldest kept were pruned: it must reload.
      if (oldest !== undefined && oldest > this.from + 1) this.res.write('event: reset\ndata: {}\n\n');
    }
    this.unsubscribe = this.ctx.events.onNewPositions(() => this.read());
    this.timers.push(setInterval(() => this.res.write(': heartbeat\n\n'), this.ctx.config.eventsHeartbeatMs));
    this.timers.push(setInterval(() => this.checkSession(), SESSION_CHECK_MS));
    this.read();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.unsubscribe?.();
    this.res.end();
    this.onEnd(this);
  }

  private read(): void {
    if (this.closed) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.send()
      .catch(() => this.close())
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          this.read();
        }
      });
  }

  private async send(): Promise<void> {
    for (;;) {
      const rows = await eventsAfter(this.ctx.db, this.cursor, READ_BATCH);
      if (this.closed) return;
      for (const row of rows) {
        this.cursor = row.position;
        if (this.topics.has(row.topic)) {
          this.res.write(`id: ${row.position}\nevent: ${row.type}\ndata: ${row.payload}\n\n`);
        }
      }
      if (rows.length < READ_BATCH) return;
    }
  }

  private async checkSession(): Promise<void> {
    const { sessionId, id, role } = this.principal;
    const now = await findPrincipal(this.ctx.db, sessionId, id, this.ctx.clock.now()).catch(() => undefined);
    if (!now || now.role !== role) this.close();
  }
}
