import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from './db/database';

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
