import { type ClientRequest, request } from 'node:http';
import type { RunningServer } from './lib/processes';
import { percentile } from './lib/report';
import type { RushWatcher } from './rush-runs';

export type DeliveryFigures = {
  subscribers: number;
  /** Events received by all subscribers while the rush was measured. */
  deliveries: number;
  /** Distinct positions those were. */
  events: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the moment the tablet had the answer of its `POST /orders/{id}/tickets` to the ticket.created's arrival. */
  afterAnswer: { count: number; p50Ms: number; p99Ms: number };
  /** Streams the server ended (or that failed) and that came back with Last-Event-ID. */
  reconnects: number;
  /** Positions a subscriber received twice or out of order: must stay 0. */
  misordered: number;
};

const AT_PATTERN = /"at":(\d+)/;
const DRAIN_MS = 1000;

/**
 * `subscribers` live streams (`GET /events`, every topic) held during the rush, all on one login
 * session, spread over the given servers; the last server only when there are several, so what the
 * first one commits must cross processes. Latency is the time from the event's `at` (the clock
 * reading the writing service stores in the same transaction, just before its commit) to its
 * arrival here: commit-to-delivery plus the rest of the writer's transaction, an upper bound.
 */
export class LiveSubscribers implements RushWatcher {
  private readonly latencies: number[] = [];
  private readonly positions = new Set<number>();
  private readonly requests = new Set<ClientRequest>();
  /** When the tablet got the answer creating each ticket, by ticket id. */
  private readonly answeredAt = new Map<string, number>();
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
  private cookie: string | undefined;

  constructor(private readonly count: number) {}

  async attach(servers: RunningServer[], cookie: string | undefined): Promise<void> {
    this.cookie = cookie;
    const targets = servers.length > 1 ? servers.slice(1) : servers;
    await Promise.all(
      Array.from({ length: this.count }, (_, index) =>
        this.subscribe((targets[index % targets.length] as RunningServer).baseUrl, undefined),
      ),
    );
  }

  measuring(isMeasuring: boolean): void {
    if (isMeasuring) this.measuredFrom = Date.now();
    else this.measuredUntil = Date.now();
  }

  readonly onAnswer = (step: string, status: number, body: string): void => {
    if (step !== 'bill' || status !== 201) return;
    this.answeredAt.set((JSON.parse(body) as { id: string }).id, Date.now());
  };

  /** Waits for what was committed at the very end of the run, then hangs up. */
  async detach(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
    this.close();
  }

  close(): void {
    this.isClosed = true;
    for (const open of this.requests) open.destroy();
  }

  figures(): DeliveryFigures {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const sortedAfterAnswer = this.ticketArrivals
      .flatMap(({ ticketId, at }) => {
        const answeredAt = this.answeredAt.get(ticketId);
        return answeredAt === undefined ? [] : [at - answeredAt];
      })
      .sort((a, b) => a - b);
    return {
      subscribers: this.count,
      deliveries: this.deliveries,
      events: this.positions.size,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: sorted.at(-1) ?? Number.NaN,
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
            if (frame.includes('\nevent: ticket.created\n')) this.noteTicket(position, frame, now);
          }
        });
        response.on('close', reopen);
      });
      outgoing.end();
    });
  }
}
