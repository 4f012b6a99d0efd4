import type { Kysely } from 'kysely';

/**
 * A pay-out larger than the cash the drawer should hold is refused unless a manager forces it; a
 * forced one is marked, so the Z report can show it apart from the ordinary movements.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('shift_cash_movements')
    .addColumn('is_forced', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
