import { type ClientRequest, request } from 'node:http';
import type { DeliveryFigures, Spread, SubscribersCommand, SubscribersReply } from './events';
import { percentile } from './lib/report';

const AT_PATTERN = /"at":(\d+)/;

/**
 * The events bench's live streams, driven by `LiveSubscribers` (bench/events.ts) over IPC. Each
 * counted delivery's arrival is measured from three origins: the event's `at` (stamped by the writing
 * service before its queries, an upper bound), the writer's commit where PostgreSQL recorded it, and
 * for a ticket.created the tablet's answer.
 */
class Subscribers {
  /** Each counted delivery: its position and when it arrived. */
  private readonly arrivals: { position: number; at: number }[] = [];
  /** The `at` of each counted position. */
  private readonly eventAt = new Map<number, number>();
  private readonly requests = new Set<ClientRequest>();
  /** The ticket a ticket.created at a position announced, parsed once for all subscribers. */
  private readonly ticketAt = new Map<number, string>();
  /** The measured run: events whose `at` falls in it are counted, whenever they arrive. */
  private measuredFrom = Number.POSITIVE_INFINITY;
  private measuredUntil = Number.POSITIVE_INFINITY;
  private isClosed = false;
  private reconnects = 0;
  private misordered = 0;

  constructor(
    private readonly count: number,
    private readonly cookie: string | undefined,
  ) {}

  async attach(baseUrls: string[]): Promise<void> {
    await Promise.all(
      Array.from({ length: this.count }, (_, index) =>
        this.subscribe(baseUrls[index % baseUrls.length] as string, undefined),
      ),
    );
  }

  measuring(isMeasuring: boolean, at: number): void {
    if (isMeasuring) this.measuredFrom = at;
    else this.measuredUntil = at;
  }

  close(): void {
    this.isClosed = true;
    for (const open of this.requests) open.destroy();
  }

  figures(answeredAt: Map<string, number>, committedAt: Map<number, number> | undefined): DeliveryFigures {
    return {
      subscribers: this.count,
      deliveries: this.arrivals.length,
      events: this.eventAt.size,
      afterAt: this.spreadAfter((position) => this.eventAt.get(position)),
      afterCommit: committedAt && this.spreadAfter((position) => committedAt.get(position)),
      afterAnswer: this.spreadAfter((position) => {
        const ticketId = this.ticketAt.get(position);
        return ticketId === undefined ? undefined : answeredAt.get(ticketId);
      }),
      reconnects: this.reconnects,
      misordered: this.misordered,
    };
  }

  /** The arrivals whose position has an origin, measured from it. */
  private spreadAfter(originOf: (position: number) => number | undefined): Spread {
    const sorted = this.arrivals
      .flatMap(({ position, at }) => {
        const origin = originOf(position);
        return origin === undefined ? [] : [at - origin];
      })
      .sort((a, b) => a - b);
    return {
      count: sorted.length,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? Number.NaN,
    };
  }

  /**
   * A stream is often told before the tablet has its answer (the figure is then negative): both leave
   * the server at about the same time. Matched with the answers once the run is over.
   */
  private noteTicket(position: number, frame: string): void {
    if (this.ticketAt.has(position)) return;
    const data = frame.slice(frame.indexOf('\ndata: ') + 7);
    this.ticketAt.set(position, (JSON.parse(data) as { data: { id: string } }).data.id);
  }

  /** Resolves once the stream is open; when it ends, opens it again after the last position seen. */
  private subscribe(baseUrl: string, lastPosition: number | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      let last = lastPosition;
      const url = new URL('/events', baseUrl);
      const outgoing = request(url, {
        headers: {
          ...(this.cookie && { cookie: this.cookie }),
          ...(last !== undefined && { 'last-event-id': String(last) }),
        },
      });
      this.requests.add(outgoing);
      let isOpen = false;
      let isReopened = false;
      const reopen = () => {
        this.requests.delete(outgoing);
        if (this.isClosed || !isOpen || isReopened) return;
        isReopened = true;
        this.reconnects++;
        this.subscribe(baseUrl, last).catch(console.error);
      };
      outgoing.on('error', (error) => {
        reject(error);
        reopen();
      });
      outgoing.on('response', (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`GET /events answered ${response.statusCode}`));
          response.resume();
          return;
        }
        isOpen = true;
        resolve();
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          const now = Date.now();
          buffer += chunk;
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            end = buffer.indexOf('\n\n');
            if (!frame.startsWith('id: ')) continue;
            const position = Number(frame.slice(4, frame.indexOf('\n')));
            if (last !== undefined && position <= last) this.misordered++;
            last = position;
            const at = Number(AT_PATTERN.exec(frame)?.[1]);
            if (at < this.measuredFrom || at > this.measuredUntil) continue;
            this.eventAt.set(position, at);
            this.arrivals.push({ position, at: now });
            if (frame.includes('\nevent: ticket.created\n')) this.noteTicket(position, frame);
          }
        });
        response.on('close', reopen);
      });
      outgoing.end();
    });
  }
}

let subscribers: Subscribers | undefined;
const reply = (message: SubscribersReply) => process.send?.(message);

process.on('message', (command: SubscribersCommand) => {
  if (command.type === 'attach') {
    subscribers = new Subscribers(command.count, command.cookie);
    subscribers.attach(command.baseUrls).then(
      () => reply({ type: 'attached' }),
      (error: unknown) => reply({ type: 'failed', message: String(error) }),
    );
  } else if (command.type === 'measuring') subscribers?.measuring(command.isMeasuring, command.at);
  else {
    if (subscribers) {
      subscribers.close();
      const committedAt = command.committedAt && new Map(command.committedAt);
      reply({ type: 'figures', figures: subscribers.figures(new Map(command.answeredAt), committedAt) });
    }
    process.disconnect();
  }
});
