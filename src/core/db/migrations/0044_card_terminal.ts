import { randomUUID as newId } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * The card terminal at the till (Mercado Pago Point, contract-channels.md "The card terminal").
 *
 * - A terminal charge is a payment of the built-in method `card_terminal`. Its money follows the
 *   statuses every payment has: `pending` until the provider says, `settled` when the card paid, and
 *   `expired` when it ended unpaid, as a Lightning invoice does; `terminal_state` says how it ended
 *   (declined `failed`, `canceled`, `expired`) and what the terminal is doing meanwhile, so the
 *   payments table keeps its checks without being rebuilt.
 * - One pending charge per terminal: a partial unique index, which decides between two tills.
 * - `next_check_at` is when the watch job reads the charge back from the provider (a notification
 *   lost is caught up by it); null once nothing about the charge can change any more.
 * - A refund through the provider is `pending` until the provider settles it: only then does the
 *   money leave the bill. Refunds made in the till (cash, a manual card) are `processed` when made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [column, type] of [
    ['terminal_id', 'text'],
    ['terminal_state', 'text'],
    ['provider_key', 'text'],
    ['provider_order_id', 'text'],
    ['provider_transaction_id', 'text'],
    ['provider_payment_id', 'text'],
    ['card_brand', 'text'],
    ['card_type', 'text'],
    ['card_last_four', 'text'],
    ['authorization_code', 'text'],
    ['provider_fee_cents', 'bigint'],
    ['failure_reason', 'text'],
    ['cancel_requested_at', 'bigint'],
    ['next_check_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('payments').addColumn(column, type).execute();
  }
  await db.schema
    .createIndex('payments_one_pending_per_terminal')
    .on('payments')
    .column('terminal_id')
    .unique()
    .where(sql<boolean>`status = 'pending' and method = 'card_terminal'`)
    .execute();
  await db.schema
    .createIndex('payments_provider_order')
    .on('payments')
    .column('provider_order_id')
    .where(sql<boolean>`provider_order_id is not null`)
    .execute();
  await db.schema
    .createIndex('payments_terminal_check')
    .on('payments')
    .column('next_check_at')
    .where(sql<boolean>`next_check_at is not null`)
    .execute();

  await db.schema
    .alterTable('refunds')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('processed').check(sql`status in ('pending', 'processed', 'failed')`),
    )
    .execute();
  await db.schema.alterTable('refunds').addColumn('provider_refund_id', 'text').execute();
  await db.schema.alterTable('refunds').addColumn('provider_key', 'text').execute();
  await db.schema.alterTable('refunds').addColumn('failure_reason', 'text').execute();
  await db.schema
    .createIndex('refunds_pending')
    .on('refunds')
    .column('payment_id')
    .where(sql<boolean>`status = 'pending'`)
    .execute();

  await db.schema.alterTable('business_settings').addColumn('default_terminal_id', 'text').execute();

  const now = Date.now();
  const methods = db as unknown as Kysely<{
    payment_methods: {
      id: string;
      code: string;
      name: string;
      is_active: number;
      created_at: number;
      updated_at: number;
    };
  }>;
  const exists = await methods
    .selectFrom('payment_methods')
    .select('id')
    .where('code', '=', 'card_terminal')
    .executeTakeFirst();
  if (!exists) {
    await methods
      .insertInto('payment_methods')
      .values({
        id: newId(),
        code: 'card_terminal',
        name: 'Mercado Pago Point',
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  // A card charged on the terminal is a card: 04 (credit) until its type says debit (28).
  const fiscal = db as unknown as Kysely<{ fiscal_settings: { id: number; payment_forms: string } }>;
  for (const row of await fiscal.selectFrom('fiscal_settings').select(['id', 'payment_forms']).execute()) {
    const forms = JSON.parse(row.payment_forms) as Record<string, string>;
    await fiscal
      .updateTable('fiscal_settings')
      .set({ payment_forms: JSON.stringify({ card_terminal: '04', ...forms }) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_settings').dropColumn('default_terminal_id').execute();
  await db.schema.dropIndex('refunds_pending').execute();
  for (const column of ['failure_reason', 'provider_key', 'provider_refund_id', 'status']) {
    await db.schema.alterTable('refunds').dropColumn(column).execute();
  }
  await db.schema.dropIndex('payments_terminal_check').execute();
  await db.schema.dropIndex('payments_provider_order').execute();
  await db.schema.dropIndex('payments_one_pending_per_terminal').execute();
  for (const column of [
    'next_check_at',
    'cancel_requested_at',
    'failure_reason',
    'provider_fee_cents',
    'authorization_code',
    'card_last_four',
    'card_type',
    'card_brand',
    'provider_payment_id',
    'provider_transaction_id',
    'provider_order_id',
    'provider_key',
    'terminal_state',
    'terminal_id',
  ]) {
    await db.schema.alterTable('payments').dropColumn(column).execute();
  }
}
