import type { FastifyBaseLogger } from 'fastify';

type Job = {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
  /** Asked once at start: whether the first run is due now instead of one interval later. */
  isDueAtStart?: () => boolean;
  running?: Promise<void>;
};

/**
 * Named background jobs, each run every `intervalMs` once started. A run never overlaps the previous
 * one of the same job (a slow node must not pile up sweeps), a failing run is logged and the next one
 * tries again. Tests leave the timers off and call `run` when they want a job done.
 */
export class Jobs {
  private readonly jobs = new Map<string, Job>();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  register(
    name: string,
    intervalMs: number,
    run: () => Promise<void>,
    options: { isDueAtStart?: () => boolean } = {},
  ): void {
    this.jobs.set(name, { name, intervalMs, run, ...options });
  }

  /** Runs the job now, or waits for the run already under way. */
  run(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`Unknown job: ${name}`);
    if (!job.running) {
      job.running = job.run().finally(() => {
        job.running = undefined;
      });
    }
    return job.running;
  }

  start(): void {
    for (const job of this.jobs.values()) {
      const runLogged = () =>
        this.run(job.name).catch((error: unknown) =>
          this.log.error({ err: error, job: job.name }, 'job failed'),
        );
      if (job.isDueAtStart?.()) void runLogged();
      const timer = setInterval(runLogged, job.intervalMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Stops the timers and waits for runs under way, so the database can close after them. */
  async stop(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await Promise.allSettled([...this.jobs.values()].map((job) => job.running));
  }
}
