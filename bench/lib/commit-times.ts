import { type BenchDatabase, withClient } from './databases';

/**
 * When each event's writer committed, read from PostgreSQL itself, so the events bench can report
 * commit-to-delivery rather than only the time from the event's `at`, which is stamped before the
 * writer's queries and includes its queueing. The sequencer's UPDATE gives the row a new version, so
 * a trigger notes the writer's commit (`pg_xact_commit_timestamp` of the version it replaces) when
 * the row is numbered. Needs `track_commit_timestamp = on` (a server setting, read at start-up);
 * without it, or on SQLite, there is nothing to record.
 *
 * The trigger runs inside the sequencer's statement, for ours and the baseline alike.
 */
export class CommitTimes {
  private constructor(private readonly url: string) {}

  /** Installs the trigger on a migrated database; undefined when the engine or server cannot tell. */
  static async install(database: BenchDatabase): Promise<CommitTimes | undefined> {
    if (database.engine !== 'postgres') return undefined;
    return withClient(database.url, async (client) => {
      const { rows } = await client.query<{ on: boolean }>(
        `select current_setting('track_commit_timestamp') = 'on' as on`,
      );
      if (!rows[0]?.on) return undefined;
      await client.query(`
        create table if not exists bench_event_commits (position bigint primary key, committed_at double precision);
        create or replace function bench_note_commit() returns trigger language plpgsql as $$
        begin
          insert into bench_event_commits
            select new.position, extract(epoch from pg_xact_commit_timestamp(xmin)) * 1000
            from events where id = old.id;
          return new;
        end $$;
        drop trigger if exists bench_note_commit on events;
        create trigger bench_note_commit before update of position on events
          for each row when (old.position is null and new.position is not null)
          execute function bench_note_commit();`);
      return new CommitTimes(database.url);
    });
  }

  /** Each numbered position's writer commit, in Unix milliseconds. */
  read(): Promise<[position: number, committedAt: number][]> {
    return withClient(this.url, async (client) => {
      const { rows } = await client.query<{ position: string; committed_at: number }>(
        'select position, committed_at from bench_event_commits where committed_at is not null',
      );
      return rows.map((row) => [Number(row.position), row.committed_at]);
    });
  }
}
