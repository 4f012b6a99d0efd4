import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from './db/database';
import { StartupError } from './startup';

export type Secrets = Readonly<{
  jwtSecret: string;
  pinKey: string;
  /**
   * Keys the audit chain (audit/audit-hash.ts). Derived from the PIN key, so it is outside the
   * database exactly when POS_PIN_KEY is, as production should have it, without a third setting; the
   * label keeps it apart from every use of the PIN key itself.
   */
  auditKey: Buffer;
}>;

/**
 * Secrets not given in the environment are generated once and kept in the database, so a restart
 * keeps sessions and PINs valid and every instance sharing one PostgreSQL agrees on them.
 */
export async function loadSecrets(db: Db, given: { jwtSecret?: string; pinKey?: string }): Promise<Secrets> {
  const pinKey = given.pinKey ?? (await persistedSecret(db, 'pin_key'));
  await checkPinKey(db, pinKey, given.pinKey !== undefined);
  return {
    jwtSecret: given.jwtSecret ?? (await persistedSecret(db, 'jwt_secret')),
    pinKey,
    auditKey: createHmac('sha256', pinKey).update('restaurant-pos audit chain').digest(),
  };
}

async function persistedSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('app_settings')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** The name of the setting that remembers which PIN key the database's PINs were hashed with. */
const PIN_KEY_CHECK = 'pin_key_check';

export const PIN_KEY_MISMATCH =
  "The PIN key (POS_PIN_KEY or POS_PIN_KEY_FILE, or the one kept in the database) is not the one this database's PINs and audit chain were made with: every PIN would be refused and the audit chain would fail. Start with the key it was made with; to move a key the database keeps to files, run `npm run pos -- keys-export --to <folder>` and set POS_PIN_KEY_FILE and POS_JWT_SECRET_FILE to the files it writes";

/**
 * PINs are hashed and the audit chain keyed with the PIN key, so starting with another key locks out
 * every user and breaks the chain at its first entry, silently. The database remembers a check value
 * of the key (an HMAC, which reveals nothing of it) from the first start on, and a start with a key
 * whose check differs is refused. A database from before the check, whose key it kept itself, is
 * compared with that key when the key now comes from outside.
 */
async function checkPinKey(db: Db, pinKey: string, isGiven: boolean): Promise<void> {
  const check = createHmac('sha256', pinKey).update('restaurant-pos key check').digest('base64url');
  const stored = await db
    .selectFrom('app_settings')
    .select(['name', 'value'])
    .where('name', 'in', [PIN_KEY_CHECK, 'pin_key'])
    .execute();
  const storedCheck = stored.find((row) => row.name === PIN_KEY_CHECK)?.value;
  const keptKey = stored.find((row) => row.name === 'pin_key')?.value;
  if (storedCheck !== undefined) {
    if (!isSameText(storedCheck, check)) throw new StartupError(PIN_KEY_MISMATCH);
    return;
  }
  if (isGiven && keptKey !== undefined && !isSameText(keptKey, pinKey)) {
    const users = await db.selectFrom('users').select('id').limit(1).execute();
    if (users.length > 0) throw new StartupError(PIN_KEY_MISMATCH);
  }
  await db
    .insertInto('app_settings')
    .values({ name: PIN_KEY_CHECK, value: check })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

function isSameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The keys the database keeps (none when they always came from outside): what `keys-export` writes out. */
export async function keptSecrets(db: Db): Promise<{ jwtSecret?: string; pinKey?: string }> {
  const rows = await db
    .selectFrom('app_settings')
    .select(['name', 'value'])
    .where('name', 'in', ['jwt_secret', 'pin_key'])
    .execute();
  const kept = new Map(rows.map((row) => [row.name, row.value]));
  const jwtSecret = kept.get('jwt_secret');
  const pinKey = kept.get('pin_key');
  return { ...(jwtSecret !== undefined && { jwtSecret }), ...(pinKey !== undefined && { pinKey }) };
}
