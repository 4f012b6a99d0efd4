import { type ChildProcess, fork } from 'node:child_process';
import { CommitTimes } from './lib/commit-times';
import type { BenchDatabase } from './lib/databases';
import type { RunningServer } from './lib/processes';
import type { RushWatcher } from './rush-runs';

/** Arrivals measured from one origin: how many had one, and how long after it they came. */
export type Spread = { count: number; p50Ms: number; p99Ms: number; maxMs: number };

export type DeliveryFigures = {
  subscribers: number;
  /** Events received by all subscribers while the rush was measured. */
  deliveries: number;
  /** Distinct positions those were. */
  events: number;
  /** From the event's `at`, stamped by the writing service before its queries, to the arrival. */
  afterAt: Spread;
  /**
   * From the writer's commit, as PostgreSQL recorded it (bench/lib/commit-times.ts), to the arrival:
   * commit-to-delivery itself. Undefined on SQLite, or where track_commit_timestamp is off.
   */
  afterCommit: Spread | undefined;
  /** From the moment the tablet had the answer of its `POST /orders/{id}/tickets` to the ticket.created's arrival. */
  afterAnswer: Spread;
  /** Streams the server ended (or that failed) and that came back with Last-Event-ID. */
  reconnects: number;
  /** Positions a subscriber received twice or out of order: must stay 0. */
  misordered: number;
};

/** What `LiveSubscribers` tells its process; times are this machine's `Date.now()`. */
export type SubscribersCommand =
  | { type: 'attach'; baseUrls: string[]; count: number; cookie: string | undefined }
  | { type: 'measuring'; isMeasuring: boolean; at: number }
  | {
      type: 'detach';
      answeredAt: [ticketId: string, at: number][];
      committedAt: [position: number, at: number][] | undefined;
    };

export type SubscribersReply =
  | { type: 'attached' }
  | { type: 'failed'; message: string }
  | { type: 'figures'; figures: DeliveryFigures };

const DRAIN_MS = 1000;

/**
 * `count` live streams (`GET /events`, every topic) held during the rush, all on one login session,
 * spread over the given servers; the last server only when there are several, so what the first one
 * commits must cross processes. The streams run in a process of their own
 * (bench/subscribers-process.ts): 200 of them parse 50k–100k frames a second, and in the process that
 * also drives the tablets that work queued behind the load generator's and stamped arrivals late.
 */
export class LiveSubscribers implements RushWatcher {
  private child: ChildProcess | undefined;
  /** When the tablet got the answer creating each ticket, by ticket id. */
  private readonly answeredAt: [string, number][] = [];
  private result: DeliveryFigures | undefined;
  private commitTimes: CommitTimes | undefined;

  constructor(private readonly count: number) {}

  async attach(servers: RunningServer[], cookie: string | undefined, database: BenchDatabase): Promise<void> {
    this.commitTimes = await CommitTimes.install(database);
    const targets = servers.length > 1 ? servers.slice(1) : servers;
    this.child = fork(new URL('./subscribers-process.ts', import.meta.url), { stdio: 'inherit' });
    const reply = await this.ask({
      type: 'attach',
      baseUrls: targets.map((server) => server.baseUrl),
      count: this.count,
      cookie,
    });
    if (reply.type === 'failed') throw new Error(reply.message);
  }

  measuring(isMeasuring: boolean): void {
    this.child?.send({ type: 'measuring', isMeasuring, at: Date.now() } satisfies SubscribersCommand);
  }

  readonly onAnswer = (step: string, status: number, body: string): void => {
    if (step !== 'bill' || status !== 201) return;
    this.answeredAt.push([(JSON.parse(body) as { id: string }).id, Date.now()]);
  };

  /** Waits for what was committed at the very end of the run, then hangs up and takes the figures. */
  async detach(): Promise<void> {
    if (!this.child?.connected) return;
    await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
    const reply = await this.ask({
      type: 'detach',
      answeredAt: this.answeredAt,
      committedAt: await this.commitTimes?.read(),
    });
    if (reply.type === 'figures') this.result = reply.figures;
    this.close();
  }

  close(): void {
    this.child?.kill();
  }

  figures(): DeliveryFigures {
    if (!this.result) throw new Error('the live subscribers ended without figures');
    return this.result;
  }

  private ask(command: SubscribersCommand): Promise<SubscribersReply> {
    const child = this.child as ChildProcess;
    return new Promise((resolve, reject) => {
      const ended = () => reject(new Error('the live subscribers process ended'));
      child.once('exit', ended);
      child.once('message', (message) => {
        child.off('exit', ended);
        resolve(message as SubscribersReply);
      });
      child.send(command);
    });
  }
}
