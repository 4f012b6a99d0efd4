import type { Db } from '../core/db/database';

export async function insertGuestLink(
  db: Db,
  link: { id: string; token_hash: string; ticket_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('guest_links').values(link).execute();
}

/** The live link of a token hash with when its bill closed (paid or canceled), if it did. */
export function findLiveLink(db: Db, tokenHash: string, now: number) {
  return db
    .selectFrom('guest_links')
    .innerJoin('tickets', 'tickets.id', 'guest_links.ticket_id')
    .select([
      'guest_links.ticket_id',
      'guest_links.expires_at',
      'tickets.status',
      'tickets.paid_at',
      'tickets.canceled_at',
    ])
    .where('guest_links.token_hash', '=', tokenHash)
    .where('guest_links.revoked_at', 'is', null)
    .where('guest_links.expires_at', '>', now)
    .executeTakeFirst();
}

export async function revokeLinksOfTicket(db: Db, ticketId: string, now: number): Promise<void> {
  await db
    .updateTable('guest_links')
    .set({ revoked_at: now })
    .where('ticket_id', '=', ticketId)
    .where('revoked_at', 'is', null)
    .execute();
}
