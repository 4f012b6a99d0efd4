import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { type DatabaseHandle, openDatabase } from '../../src/core/db/database';
import { EventBatch, EventFanOut, type FanOutSubscriber, READ_BATCH } from '../../src/events/event-fanout';
import { EventFeed } from '../../src/events/event-feed';
import { MAX_BUFFERED_BYTES } from '../../src/events/event-stream';
import { eventsAfter, latestPosition } from '../../src/events/events.repo';
import { STREAM_TOPICS } from '../../src/events/events.routes';

// Ours sends an every-topic stream every topic: inventory's stock moves and the printers' state too.
const ALL_TOPICS = new Set<string>(STREAM_TOPICS);
const ALL_TOPICS_KEY = [...ALL_TOPICS].sort().join(',');

/**
 * `GET /events` for the baseline: our feed (the sequencer and LISTEN on PostgreSQL) and our fan-out
 * (one shared read and framing per batch), so live streams cost the baseline what they cost us and
 * the events bench's ratio measures only our request layers. No auth, topics or session checks.
 */
export class BaselineEvents {
  private readonly feed: EventFeed;
  private readonly fanOut: EventFanOut;
  private readonly streams = new Set<BaselineStream>();

  private constructor(
    private readonly database: DatabaseHandle,
    /** Told by the baseline's statements after each commit that wrote events. */
    private readonly commitListeners: Set<() => void>,
    databaseUrl: string,
    log: FastifyBaseLogger,
  ) {
    const handle: DatabaseHandle = {
      ...database,
      onOutboxCommit: (listener) => {
        commitListeners.add(listener);
        return () => commitListeners.delete(listener);
      },
    };
    this.feed = new EventFeed(handle, databaseUrl);
    this.fanOut = new EventFanOut({ events: this.feed }, log);
  }

  static async start(databaseUrl: string, log: FastifyBaseLogger): Promise<BaselineEvents> {
    const events = new BaselineEvents(openDatabase(databaseUrl), new Set(), databaseUrl, log);
    await events.feed.start(log);
    return events;
  }

  outboxCommitted(): void {
    for (const listener of this.commitListeners) listener();
  }

  async open(res: ServerResponse, lastEventId: string | undefined): Promise<void> {
    const from = lastEventId === undefined ? await latestPosition(this.feed.db) : Number(lastEventId);
    const stream = new BaselineStream(res, from, this.fanOut, () => this.streams.delete(stream));
    this.streams.add(stream);
    await stream.open(this.feed);
  }

  async close(): Promise<void> {
    for (const stream of [...this.streams]) stream.close();
    await this.feed.stop();
    await this.database.close();
  }
}

class BaselineStream implements FanOutSubscriber {
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private position: number,
    private readonly fanOut: EventFanOut,
    private readonly onEnd: () => void,
  ) {}

  get cursor(): number {
    return this.position;
  }

  async open(feed: EventFeed): Promise<void> {
    this.res.on('close', () => this.close());
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
    });
    this.res.write(': connected\n\n');
    while (!this.closed) {
      if (this.fanOut.isCaughtUp(this.position)) {
        this.fanOut.join(this);
        return;
      }
      this.deliver(new EventBatch(await eventsAfter(feed.db, this.position, READ_BATCH)));
    }
  }

  deliver(batch: EventBatch): void {
    const last = batch.lastPosition;
    if (this.closed || last === undefined || last <= this.position) return;
    const frames = batch.framesFor(this.position, ALL_TOPICS, ALL_TOPICS_KEY);
    this.position = last;
    if (!frames) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.res.destroy();
    else this.res.write(frames);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fanOut.leave(this);
    this.res.end();
    this.onEnd();
  }
}
