import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../src/core/db/database';
import { prepared } from '../src/core/db/prepared';
import { describeEachDatabase } from './helpers/app';
import { databaseTargets, openTestDatabase } from './helpers/database';

type SpaceRow = { id: string; name: string; is_deleted: number; created_at: number; updated_at: number };

const space = (id: string, name: string, isDeleted = 0): SpaceRow => ({
  id,
  name,
  is_deleted: isDeleted,
  created_at: 1,
  updated_at: 1,
});

const newSpaces = prepared((db, { rows }: { rows: SpaceRow[] }) => db.insertInto('spaces').values(rows));

const liveSpaces = prepared((db, { ids, name }: { ids: string[]; name: string | undefined }) => {
  let query = db
    .selectFrom('spaces')
    .select(['id', 'name'])
    .where('id', 'in', ids)
    .where('is_deleted', '=', 0);
  if (name !== undefined) query = query.where('name', '=', name);
  return query.orderBy('id');
});

const renamedSpace = prepared((db, { id, name }: { id: string; name: string }) =>
  db.updateTable('spaces').set({ name }).where('id', '=', id),
);

async function seed(db: Db): Promise<void> {
  await newSpaces.run(db, { rows: [space('a', 'Patio')] });
  await newSpaces.run(db, { rows: [space('b', 'Bar'), space('c', 'Hall'), space('d', 'Gone', 1)] });
}

const idsOf = (rows: { id: string }[]) => rows.map((row) => row.id);

describeEachDatabase('prepared queries', (target) => {
  test('each call runs with its own values, whatever shape came first', async (t) => {
    const { database, dispose } = await openTestDatabase(target);
    t.after(dispose);
    const { db } = database;
    await seed(db);

    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['a'], name: undefined })), ['a']);
    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['b'], name: undefined })), ['b']);
    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['a', 'b', 'c', 'd'], name: undefined })), [
      'a',
      'b',
      'c',
    ]);
    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['a', 'b', 'c'], name: 'Bar' })), ['b']);
    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['a', 'b', 'c'], name: 'Hall' })), ['c']);
    assert.deepEqual(idsOf(await liveSpaces.all(db, { ids: ['a'], name: undefined })), ['a']);
    assert.equal(await liveSpaces.first(db, { ids: ['zzz'], name: undefined }), undefined);
  });

  test('run answers how many rows a write changed, inside a transaction too', async (t) => {
    const { database, dispose } = await openTestDatabase(target);
    t.after(dispose);
    const { db } = database;
    await seed(db);

    assert.equal(await renamedSpace.run(db, { id: 'a', name: 'Terrace' }), 1);
    assert.equal(await renamedSpace.run(db, { id: 'nope', name: 'Terrace' }), 0);
    await db.transaction().execute(async (trx) => {
      assert.equal(await renamedSpace.run(trx, { id: 'b', name: 'Counter' }), 1);
    });
    const names = await db
      .selectFrom('spaces')
      .select('name')
      .where('id', 'in', ['a', 'b'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      names.map((row) => row.name),
      ['Terrace', 'Counter'],
    );
  });

  test('a value written into the SQL text is refused before it reaches the database', async (t) => {
    const { database, dispose } = await openTestDatabase(target);
    t.after(dispose);
    const inlined = prepared((db, { name }: { name: string }) =>
      db.selectFrom('spaces').selectAll().where(sql`name`, '=', sql.lit(name)),
    );
    await assert.rejects(inlined.all(database.db, { name: 'Patio' }), /instead of a parameter/);
  });
});

test('one prepared query serves SQLite and PostgreSQL side by side', {
  skip: databaseTargets.length < 2,
}, async (t) => {
  const opened = await Promise.all(databaseTargets.map((target) => openTestDatabase(target)));
  t.after(() => Promise.all(opened.map(({ dispose }) => dispose())));
  for (const [index, { database }] of opened.entries()) {
    await newSpaces.run(database.db, { rows: [space(`only-${index}`, 'Patio')] });
  }
  for (const [index, { database }] of opened.entries()) {
    const rows = await liveSpaces.all(database.db, { ids: ['only-0', 'only-1'], name: 'Patio' });
    assert.deepEqual(idsOf(rows), [`only-${index}`]);
  }
});
