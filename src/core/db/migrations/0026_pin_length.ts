import type { Kysely } from 'kysely';

/**
 * The length of each user's PIN, so the login screen can log in as the last digit is tapped instead
 * of waiting for a "Log in" press (issue 29). PINs are hashed, so the length of a PIN set before
 * this migration is unknown (null) until it is next set; those users press "Log in" as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('pin_length', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('pin_length').execute();
}
