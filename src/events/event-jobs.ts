import type { AppContext } from '../core/context';
import type { Jobs } from '../core/jobs';
import { pruneEvents } from './events.repo';

export const EVENTS_SEQUENCER = 'events-sequencer';
export const EVENTS_PRUNE = 'events-prune';

/** The contract promises replay for at least 24 h; an hour more so a slow clock never cuts it short. */
export const EVENT_RETENTION_MS = 25 * 60 * 60 * 1000;
const PRUNE_BATCH = 500;
const PRUNE_MAX_BATCHES = 20;

/**
 * The sequencer's fallback run (notifications can be lost while the LISTEN connection reconnects),
 * and pruning in small batches, so no delete holds the outbox for long during a rush.
 */
export function registerEventJobs(jobs: Jobs, ctx: AppContext): void {
  jobs.register(EVENTS_SEQUENCER, 1000, () => ctx.events.sequence());
  jobs.register(EVENTS_PRUNE, 60_000, async () => {
    const before = ctx.clock.now() - EVENT_RETENTION_MS;
    for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch++) {
      if ((await pruneEvents(ctx.db, before, PRUNE_BATCH)) < PRUNE_BATCH) return;
    }
  });
}
