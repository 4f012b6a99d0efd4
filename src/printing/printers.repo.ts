import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';

export type PrinterRow = Selectable<Database['printers']>;
type PrinterChanges = Omit<Insertable<Database['printers']>, 'id' | 'created_at'>;

export function listPrinters(db: Db): Promise<PrinterRow[]> {
  return db.selectFrom('printers').selectAll().orderBy('name').execute();
}

export function findPrinter(db: Db, id: string): Promise<PrinterRow | undefined> {
  return db.selectFrom('printers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPrinter(db: Db, printer: Insertable<Database['printers']>): Promise<void> {
  await db.insertInto('printers').values(printer).execute();
}

/** False when there is no such printer. */
export async function updatePrinter(db: Db, id: string, changes: PrinterChanges): Promise<boolean> {
  const result = await db.updateTable('printers').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the printer and, by the foreign key's cascade, its queue. False when there is no such printer. */
export async function deletePrinter(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('printers').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The receipt printer bills go to: the first one added, locked so it stays until the job is queued. */
export function lockReceiptPrinter(db: Db): Promise<PrinterRow | undefined> {
  return forUpdate(
    db,
    db
      .selectFrom('printers')
      .selectAll()
      .where('role', '=', 'receipt')
      .orderBy('created_at')
      .orderBy('id')
      .limit(1),
  ).executeTakeFirst();
}

/** Locked like the receipt printer, so a chit is never queued for a printer being deleted. */
const kitchenPrintersLocked = prepared((db, _params: Record<string, never>) =>
  forUpdate(
    db,
    db
      .selectFrom('printers')
      .selectAll()
      .where('role', '=', sql.lit('kitchen'))
      .orderBy('created_at')
      .orderBy('id'),
  ),
);

export function lockKitchenPrinters(db: Db): Promise<PrinterRow[]> {
  return kitchenPrintersLocked.all(db, {});
}
