import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AppContext } from '../core/context';
import { isStorageFull } from '../core/db/failures';
import * as repo from './general.repo';

export type DatabaseState = 'ok' | 'unreachable' | 'read-only' | 'full' | 'unwritable';

/** /health is polled; one probe (a real write) every few seconds is all the database pays for it. */
const PROBE_INTERVAL_MS = 5000;
/** Below this, the next checkpoint or page of a busy service may not fit: report the disk as full. */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

const READ_ONLY_CODES = new Set(['SQLITE_READONLY', '25006']);

function stateOfFailure(error: unknown): DatabaseState {
  const code = String((error as { code?: unknown })?.code ?? '');
  if (READ_ONLY_CODES.has(code) || code.startsWith('SQLITE_READONLY_')) return 'read-only';
  if (isStorageFull(error)) return 'full';
  // SQLite errors mean the file answered; anything else (refused, reset, timed out) did not.
  return code.startsWith('SQLITE_') ? 'unwritable' : 'unreachable';
}

/**
 * Whether the database can take a write, as /health reports it. A `select 1` says yes to a database
 * that is read-only or full while every order fails, so the probe writes a row of app_settings, and
 * on SQLite also compares pages used with the page limit and checks the free space of the disk that
 * holds the file. The answer is kept for PROBE_INTERVAL_MS; callers meanwhile share it.
 */
export function databaseHealth(ctx: AppContext): () => Promise<DatabaseState> {
  let checked: { at: number; state: Promise<DatabaseState> } | undefined;
  const sqliteFile = ctx.dialect === 'sqlite' ? ctx.config.databaseUrl.slice('sqlite:'.length) : undefined;
  const directory = sqliteFile && sqliteFile !== ':memory:' ? dirname(sqliteFile) : undefined;

  async function probe(now: number): Promise<DatabaseState> {
    try {
      await repo.writeHealthProbe(ctx.db, now);
      if (ctx.dialect === 'sqlite') {
        const pages = await repo.sqlitePageUsage(ctx.db);
        if (pages.used >= pages.max) return 'full';
      }
      if (directory) {
        const disk = await statfs(directory);
        if (disk.bavail * disk.bsize < MIN_FREE_BYTES) return 'full';
      }
      return 'ok';
    } catch (error) {
      return stateOfFailure(error);
    }
  }

  return () => {
    const now = ctx.clock.now();
    if (!checked || now - checked.at >= PROBE_INTERVAL_MS) checked = { at: now, state: probe(now) };
    return checked.state;
  };
}
