import { type FileHandle, open } from 'node:fs/promises';

export type SyncFile = (file: FileHandle) => Promise<void>;

const syncData: SyncFile = (file) => file.datasync();

/**
 * Group commit for SQLite in WAL mode. With `synchronous = FULL` every COMMIT waits for its own fsync
 * on the event loop, and every other request waits with it. Instead the connection runs with
 * `synchronous = NORMAL` (a commit is written to the WAL file but not synced) and the server answers
 * only after an fdatasync of the WAL that began after the commit has finished. The fdatasync runs on
 * libuv's thread pool while the event loop serves other requests, and one covers every commit made
 * before it began. SQLite itself syncs the WAL before each checkpoint and the database after it.
 *
 * After a failed fdatasync nothing on disk can be trusted to match what was acknowledged (Linux may
 * drop the unwritten pages), so every later flush fails too, until the process restarts and SQLite
 * recovers from the WAL.
 */
export class WalSync {
  #committed = 0;
  #synced = 0;
  #flushing: Promise<void> | undefined;
  #file: FileHandle | undefined;
  #failure: Error | undefined;

  constructor(
    private readonly walPath: string,
    private readonly syncFile: SyncFile = syncData,
  ) {}

  /** A transaction (or a statement outside one) has just committed. */
  noteCommit(): void {
    this.#committed++;
  }

  /** Whether some commit is not yet known to be on disk. */
  hasPending(): boolean {
    return this.#synced < this.#committed || this.#failure !== undefined;
  }

  /** Resolves once every commit noted so far is on disk. */
  async flush(): Promise<void> {
    const needed = this.#committed;
    while (this.#synced < needed) {
      if (this.#failure) throw this.#failure;
      this.#flushing ??= this.#syncOnce();
      await this.#flushing;
    }
    if (this.#failure) throw this.#failure;
  }

  async close(): Promise<void> {
    await this.#flushing;
    await this.#file?.close();
    this.#file = undefined;
  }

  async #syncOnce(): Promise<void> {
    const covered = this.#committed;
    try {
      // One sync runs at a time (#flushing), so the file is opened once.
      this.#file ??= await open(this.walPath, 'r');
      await this.syncFile(this.#file);
      this.#synced = covered;
    } catch (error) {
      this.#failure = new Error(`fdatasync of ${this.walPath} failed; commits since may be lost`, {
        cause: error,
      });
    } finally {
      this.#flushing = undefined;
    }
  }
}
