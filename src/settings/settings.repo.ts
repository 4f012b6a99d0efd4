import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { TICKET_STATUS } from '../core/db/ticket-status';

export type SettingsRow = Selectable<Database['business_settings']>;

export const SETTINGS_ID = 1;

/** Creates the one row unless it exists; the loser of a race between instances changes nothing. */
export async function insertSettingsIfMissing(
  db: Db,
  defaults: { timezone: string; base_currency: string; locale: string; updated_at: number },
): Promise<void> {
  await db
    .insertInto('business_settings')
    .values({
      id: SETTINGS_ID,
      business_name: '',
      address: '',
      tax_id: '',
      phone: '',
      receipt_footer: '',
      tax_rate_bp: 0,
      prices_include_tax: 1,
      require_shift_for_cash: 0,
      ...defaults,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

const settingsRow = prepared((db, { id }: { id: number }) =>
  db.selectFrom('business_settings').selectAll().where('id', '=', id),
);

export function findSettings(db: Db): Promise<SettingsRow | undefined> {
  return settingsRow.first(db, { id: SETTINGS_ID });
}

/** The row locked, so a currency change and a new bill cannot pass each other unseen. */
export function lockSettings(db: Db): Promise<SettingsRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('business_settings').selectAll().where('id', '=', SETTINGS_ID),
  ).executeTakeFirst();
}

export async function updateSettings(
  db: Db,
  changes: Updateable<Database['business_settings']>,
): Promise<void> {
  await db.updateTable('business_settings').set(changes).where('id', '=', SETTINGS_ID).execute();
}

export async function hasPendingBill(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('tickets')
    .select('id')
    .where('status', '=', TICKET_STATUS.pending)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
