import type { Db } from '../core/db/database';
import { prepared } from '../core/db/prepared';

const newEvent = prepared((db, event: { type: string; topic: string; payload: string; created_at: number }) =>
  db.insertInto('events').values(event),
);

export async function insertEvent(
  db: Db,
  event: { type: string; topic: string; payload: string; created_at: number },
): Promise<void> {
  await newEvent.run(db, event);
}
