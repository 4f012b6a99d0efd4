import { type ClientRequest, request } from 'node:http';
import type { DeliveryFigures, SubscribersCommand, SubscribersReply } from './events';
import { percentile } from './lib/report';

const AT_PATTERN = /"at":(\d+)/;

/**
 * The events bench's live streams, driven by `LiveSubscribers` (bench/events.ts) over IPC. Latency is
 * the time from the event's `at` (the clock reading the writing service stores in the same
 * transaction, just before its commit) to its arrival here: commit-to-delivery plus the rest of the
 * writer's transaction, an upper bound.
 */
class Subscribers {
  private readonly latencies: number[] = [];
  /** Each counted delivery's position and arrival, for the commit-to-delivery figure. */
  private readonly arrivals: { position: number; at: number }[] = [];
  private readonly positions = new Set<number>();
  private readonly requests = new Set<ClientRequest>();
  /** The ticket a ticket.created at a position announced, parsed once for all subscribers. */
  private readonly ticketAt = new Map<number, string>();
  /** Each subscriber's arrival of a ticket.created: the ticket and when. */
  private readonly ticketArrivals: { ticketId: string; at: number }[] = [];
  /** The measured run: events whose `at` falls in it are counted, whenever they arrive. */
  private measuredFrom = Number.POSITIVE_INFINITY;
  private measuredUntil = Number.POSITIVE_INFINITY;
  private isClosed = false;
  private deliveries = 0;
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
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const sortedAfterCommit =
      committedAt &&
      this.arrivals
        .flatMap(({ position, at }) => {
          const committed = committedAt.get(position);
          return committed === undefined ? [] : [at - committed];
        })
        .sort((a, b) => a - b);
    const sortedAfterAnswer = this.ticketArrivals
      .flatMap(({ ticketId, at }) => {
        const answered = answeredAt.get(ticketId);
        return answered === undefined ? [] : [at - answered];
      })
      .sort((a, b) => a - b);
    return {
      subscribers: this.count,
      deliveries: this.deliveries,
      events: this.positions.size,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? Number.NaN,
      afterCommit: sortedAfterCommit && {
        count: sortedAfterCommit.length,
        p50Ms: percentile(sortedAfterCommit, 0.5),
        p99Ms: percentile(sortedAfterCommit, 0.99),
      },
      afterAnswer: {
        count: sortedAfterAnswer.length,
        p50Ms: percentile(sortedAfterAnswer, 0.5),
        p99Ms: percentile(sortedAfterAnswer, 0.99),
      },
      reconnects: this.reconnects,
      misordered: this.misordered,
    };
  }

  /**
   * A stream is often told before the tablet has its answer (the figure is then negative): both leave
   * the server at about the same time. Matched with the answers once the run is over.
   */
  private noteTicket(position: number, frame: string, now: number): void {
    let ticketId = this.ticketAt.get(position);
    if (ticketId === undefined) {
      const data = frame.slice(frame.indexOf('\ndata: ') + 7);
      ticketId = (JSON.parse(data) as { data: { id: string } }).data.id;
      this.ticketAt.set(position, ticketId);
    }
    this.ticketArrivals.push({ ticketId, at: now });
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
            this.deliveries++;
            this.positions.add(position);
            this.latencies.push(now - at);
            this.arrivals.push({ position, at: now });
            if (frame.includes('\nevent: ticket.created\n')) this.noteTicket(position, frame, now);
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
    subscribers?.close();
    const committedAt = command.committedAt && new Map(command.committedAt);
    if (subscribers)
      reply({ type: 'figures', figures: subscribers.figures(new Map(command.answeredAt), committedAt) });
    process.disconnect();
  }
});
