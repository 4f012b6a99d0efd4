import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/core/db/database';
import { describeEachDatabase } from './helpers/app';
import { unmigratedDatabase } from './helpers/migrations';

describeEachDatabase('migration 0005 name keys', (target) => {
  it('gives existing users their normalised key; of colliding live names the oldest keeps it', async (t) => {
    const { database, migrator } = await unmigratedDatabase(t, target);
    const { error } = await migrator.migrateTo('0004_wallet');
    assert.equal(error, undefined);
    const user = (id: string, name: string, createdAt: number, isDeleted = 0) =>
      sql`insert into users (id, name, pin_hash, role, is_deleted, created_at, updated_at)
          values (${id}, ${name}, 'hash', 'staff', ${isDeleted}, ${createdAt}, ${createdAt})`.execute(
        database.db,
      );
    await user('00000000-0000-4000-8000-000000000001', 'Ana', 1);
    await user('00000000-0000-4000-8000-000000000002', 'ana', 2);
    await user('00000000-0000-4000-8000-000000000003', 'ANA', 3, 1);
    await user('00000000-0000-4000-8000-000000000004', 'Ｌｕｉｓ', 4);

    await migrateToLatest(database.db);
    const rows = await database.db
      .selectFrom('users')
      .select(['id', 'name_key'])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      rows.map((row) => row.name_key),
      ['ana', 'ana 00000000-0000-4000-8000-000000000002 ', 'ana', 'luis'],
    );
  });
});
