import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { Db } from '../core/db/database';

/** A head of the chain as it was published outside the database. */
export type PublishedHead = Readonly<{ seq: number; hash: string; at: number }>;

/**
 * Where heads are published outside the database: whoever can rewrite the database (copy the head
 * row, delete the newest entries, put the copy back) cannot rewind this, so a head older than one
 * published here is a rollback. A file beside the SQLite database by default (POS_AUDIT_ANCHOR_FILE
 * elsewhere); the Z report and the log at each shift close carry the same head on paper and in logs.
 */
export class AuditAnchorFile {
  private published: PublishedHead | undefined;
  private readAtMtimeMs: number | undefined;

  constructor(readonly path: string) {
    this.latest();
  }

  /**
   * The newest head published, by this process or another one on the same file (read again only when
   * the file changed: a stat per audited action, not a read).
   */
  latest(): PublishedHead | undefined {
    const mtimeMs = existsSync(this.path) ? statSync(this.path).mtimeMs : undefined;
    if (mtimeMs !== this.readAtMtimeMs) {
      this.published = readAnchor(this.path);
      this.readAtMtimeMs = mtimeMs;
    }
    return this.published;
  }

  /**
   * Publishes `head` unless it is older than the one published: that would hide a rollback. `force`
   * replaces it all the same, for an administrator who acknowledged the break (audit.service.ts).
   */
  publish(head: PublishedHead, force = false): boolean {
    const published = this.latest();
    if (!force && published !== undefined && head.seq < published.seq) return false;
    if (!force && published?.seq === head.seq && published.hash === head.hash) return true;
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(head)}\n`, { mode: 0o600 });
    renameSync(temporary, this.path);
    this.published = head;
    this.readAtMtimeMs = statSync(this.path).mtimeMs;
    return true;
  }
}

function readAnchor(path: string): PublishedHead | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<PublishedHead>;
  const isHead =
    Number.isSafeInteger(parsed.seq) && typeof parsed.hash === 'string' && Number.isSafeInteger(parsed.at);
  if (!isHead) throw new Error(`${path} does not hold a published audit head`);
  return parsed as PublishedHead;
}

/** The anchor of each open database, found through its adapter as the audit key is (audit-key.ts). */
const anchors = new WeakMap<object, AuditAnchorFile>();

export function bindAuditAnchor(db: Db, anchor: AuditAnchorFile | undefined): void {
  if (anchor) anchors.set(db.getExecutor().adapter, anchor);
}

export function auditAnchorOf(db: Db): AuditAnchorFile | undefined {
  return anchors.get(db.getExecutor().adapter);
}
