import type { Db } from '../core/db/database';

/**
 * The audit key of each open database. Services append entries with their transaction alone
 * (`recordAudit(trx, …)`), and the key belongs to the context built for that database, so it is found
 * through the database: a transaction shares its database's adapter, the one object both hold. Per
 * database rather than one global, so two contexts in a process (tests, the CLI) keep their own keys.
 */
const keys = new WeakMap<object, Buffer>();

export function bindAuditKey(db: Db, key: Buffer): void {
  keys.set(db.getExecutor().adapter, key);
}

export function auditKeyOf(db: Db): Buffer {
  const key = keys.get(db.getExecutor().adapter);
  if (!key) throw new Error('No audit key is bound to this database: build its context first');
  return key;
}
