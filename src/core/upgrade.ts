import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { type Backfill, type BackfillProgress, pendingBackfills, runBackfills } from './db/backfills';
import type { MigrationProgress } from './db/database';
import { ServiceUnavailableError } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The backfills of an upgrade, under way while the server already answers. */
    upgrade: BackfillRun;
  }
}

/** At most one progress line per this many milliseconds: a backfill at 1M orders is 200 batches. */
const LOG_EVERY_MS = 5000;

export type BackfillState =
  | { state: 'finished' }
  | { state: 'running'; progress?: BackfillProgress }
  | { state: 'failed' };

/**
 * The backfills a start-up found pending (issue 37), run in the background: the server listens at
 * once, `/health` says how far they are and every other route answers 503 until they are done, so no
 * one reads a report from half-filled facts nor writes while old rows are rewritten. A close stops
 * them after the batch under way; the next start resumes after it.
 */
export class BackfillRun {
  private current: BackfillState = { state: 'finished' };
  private isStopping = false;
  private running: Promise<void> = Promise.resolve();
  private readonly whenFinished: (() => void)[] = [];

  get status(): BackfillState {
    return this.current;
  }

  start(db: Kysely<unknown>, registry: Readonly<Record<string, Backfill>>, log: FastifyBaseLogger): void {
    this.current = { state: 'running' };
    let loggedAt = 0;
    this.running = runBackfills(db, registry, {
      shouldStop: () => this.isStopping,
      onProgress: (progress) => {
        this.current = { state: 'running', progress };
        const isLast = progress.done >= progress.total;
        if (!isLast && Date.now() - loggedAt < LOG_EVERY_MS) return;
        loggedAt = Date.now();
        log.info(describeProgress({ step: 'backfill', ...progress }));
      },
    }).then(
      (isComplete) => {
        if (!isComplete) return;
        this.current = { state: 'finished' };
        log.info('upgrade finished: serving');
        for (const callback of this.whenFinished.splice(0)) callback();
      },
      (error: unknown) => {
        this.current = { state: 'failed' };
        log.fatal({ err: error }, 'backfill failed: every route but /health answers 503; restart to retry');
      },
    );
  }

  /** Calls `callback` once the backfills are done (now, when none were pending); never after a stop. */
  onFinished(callback: () => void): void {
    if (this.current.state === 'finished') callback();
    else this.whenFinished.push(callback);
  }

  /** Stops after the batch under way, whose transaction then commits. */
  async stop(): Promise<void> {
    this.isStopping = true;
    this.whenFinished.length = 0;
    await this.running;
  }
}

/**
 * Starts the pending backfills, if any, and closes every route but the health checks until they end.
 * Registered before the features, so the gate runs before any of their hooks.
 */
export async function serveWhileBackfilling(
  app: FastifyInstance,
  db: Kysely<unknown>,
  registry: Readonly<Record<string, Backfill>>,
): Promise<void> {
  const run = new BackfillRun();
  app.decorate('upgrade', run);
  if ((await pendingBackfills(db)).length > 0) run.start(db, registry, app.log);
  app.addHook('onRequest', (request, _reply, done) => {
    if (run.status.state === 'finished' || request.url.split('?')[0]?.startsWith('/health')) return done();
    done(new ServiceUnavailableError('Migrating the database'));
  });
  app.addHook('preClose', () => run.stop());
}

/** One line of an upgrade's progress, for the start-up log and `npm run migrate`. */
export function describeProgress(progress: MigrationProgress): string {
  if (progress.step === 'migration') return `migration ${progress.name}: done in ${progress.ms} ms`;
  const percent = progress.total > 0 ? Math.floor((100 * progress.done) / progress.total) : 100;
  return `backfill ${progress.name}: ${progress.done}/${progress.total} (${percent} %), ${progress.rate}/s`;
}
