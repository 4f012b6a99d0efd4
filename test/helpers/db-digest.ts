import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';

const TABLES: (keyof Database)[] = [
  'app_settings',
  'currencies',
  'users',
  'sessions',
  'categories',
  'dishes',
  'modifier_groups',
  'modifier_options',
  'dish_modifier_groups',
  'ingredients',
  'products',
  'spaces',
  'dining_tables',
  'orders',
  'order_dishes',
  'order_dish_modifiers',
  'idempotency_keys',
  'incoming_payments',
  'tickets',
  'ticket_dishes',
  'payment_methods',
  'payments',
  'refunds',
  'events',
  'printers',
  'shifts',
  'shift_cash_movements',
  'print_jobs',
  'audit_log',
  'webhooks',
  'webhook_deliveries',
  'webhook_delivery_attempts',
];

// PostgreSQL's sequencer numbers committed events in the background, so an event committed before
// a refused request may get its position while that request runs: not a change the request made.
export function withoutPosition<Row extends object>(row: Row): Omit<Row, 'position'> {
  const { position: _position, ...rest } = row as Row & { position?: unknown };
  return rest;
}

/** A fingerprint of every stored row, to prove that a refused request changed nothing. */
export async function databaseDigest(db: Db): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const rows = await db.selectFrom(table).selectAll().orderBy(sql`1`).execute();
    hash.update(table).update(JSON.stringify(table === 'events' ? rows.map(withoutPosition) : rows));
  }
  return hash.digest('hex');
}
