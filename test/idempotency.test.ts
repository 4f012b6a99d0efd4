import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import type { Database } from '../src/core/db/schema';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser, login } from './helpers/auth';
import { insertCategory, insertSpace } from './helpers/factories';
import { type Caller, callerFor } from './helpers/orders-factories';

const KEY_REUSED = { message: 'Idempotency-Key was already used with a different request' };
const DAY_MS = 24 * 60 * 60 * 1000;

type Route = {
  path: string;
  table: keyof Database;
  /** Two different valid bodies; `fixtures` are rows they may point at. */
  bodies(fixtures: Fixtures): [unknown, unknown];
};
type Fixtures = { dishCategory: string; ingredientCategory: string; productCategory: string; space: string };

const ROUTES: Route[] = [
  {
    path: '/categories',
    table: 'categories',
    bodies: () => [
      { name: 'Soups', type: 'dish' },
      { name: 'Salads', type: 'dish' },
    ],
  },
  {
    path: '/dishes',
    table: 'dishes',
    bodies: (f) => [
      { name: 'Pozole', price: 120, category_id: f.dishCategory },
      { name: 'Pozole', price: 125, category_id: f.dishCategory },
    ],
  },
  {
    path: '/ingredients',
    table: 'ingredients',
    bodies: (f) => [
      { name: 'Flour', category_id: f.ingredientCategory, quantity: 2.5, unit: 'kg' },
      { name: 'Flour', category_id: f.ingredientCategory, quantity: 3, unit: 'kg' },
    ],
  },
  {
    path: '/products',
    table: 'products',
    bodies: (f) => [
      { name: 'Cola', sku: 'COLA-355', price: 25, quantity: 10, category_id: f.productCategory },
      { name: 'Cola', sku: 'COLA-600', price: 35, quantity: 10, category_id: f.productCategory },
    ],
  },
  { path: '/spaces', table: 'spaces', bodies: () => [{ name: 'Terrace' }, { name: 'Patio' }] },
  {
    path: '/tables',
    table: 'dining_tables',
    bodies: (f) => [
      { name: 'T1', space_id: f.space },
      { name: 'T2', space_id: f.space },
    ],
  },
  {
    path: '/users',
    table: 'users',
    bodies: () => [
      { name: 'Lucia', pin: '2468', role: 'staff' },
      { name: 'Lucia', pin: '1357', role: 'staff' },
    ],
  },
];

async function countRows(db: Db, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** An admin (POST /users is admin only) and the rows the bodies point at. */
async function setUp(t: Parameters<typeof buildTestApp>[0], target: Parameters<typeof buildTestApp>[1]) {
  const built = await buildTestApp(t, target);
  const { db, app } = built;
  const { user, cookies } = await loggedInUser(app, db, 'admin');
  const fixtures: Fixtures = {
    dishCategory: (await insertCategory(db, { type: 'dish' })).id,
    ingredientCategory: (await insertCategory(db, { type: 'ingredient' })).id,
    productCategory: (await insertCategory(db, { type: 'product' })).id,
    space: (await insertSpace(db)).id,
  };
  return { ...built, user, call: callerFor(app, cookies), fixtures };
}

function post(call: Caller, path: string, body: unknown, key: string) {
  return call('POST', path, body, { 'idempotency-key': key });
}

describeEachDatabase('Idempotency-Key on creating POSTs', (target) => {
  for (const route of ROUTES) {
    it(`POST ${route.path} answers a retry with the first answer and creates one row`, async (t) => {
      const { db, call, fixtures } = await setUp(t, target);
      const [body] = route.bodies(fixtures);
      const before = await countRows(db, route.table);
      const first = await post(call, route.path, body, 'retry-1');
      const retry = await post(call, route.path, body, 'retry-1');
      assert.equal(first.statusCode, 201, first.body);
      assert.deepEqual([retry.statusCode, retry.json()], [201, first.json()]);
      assert.equal(await countRows(db, route.table), before + 1);
    });

    it(`POST ${route.path} refuses the same key with another body and creates nothing`, async (t) => {
      const { db, call, fixtures } = await setUp(t, target);
      const [body, otherBody] = route.bodies(fixtures);
      assert.equal((await post(call, route.path, body, 'reused')).statusCode, 201);
      const before = await countRows(db, route.table);
      const reused = await post(call, route.path, otherBody, 'reused');
      assert.deepEqual([reused.statusCode, reused.json()], [400, KEY_REUSED]);
      assert.equal(await countRows(db, route.table), before);
    });

    it(`POST ${route.path} creates one row for two simultaneous requests with one key`, async (t) => {
      const { db, call, fixtures } = await setUp(t, target);
      const [body] = route.bodies(fixtures);
      const before = await countRows(db, route.table);
      const [a, b] = await Promise.all([
        post(call, route.path, body, 'double-tap'),
        post(call, route.path, body, 'double-tap'),
      ]);
      assert.deepEqual([a.statusCode, b.statusCode], [201, 201], `${a.body} ${b.body}`);
      assert.deepEqual(b.json(), a.json());
      assert.equal(await countRows(db, route.table), before + 1);
    });
  }

  it('keeps no key for a refused request, so the corrected retry with that key goes through', async (t) => {
    const { db, call, fixtures } = await setUp(t, target);
    const refusals = [
      {
        path: '/categories',
        refused: { name: 'Soups', type: 'dish' },
        corrected: { name: 'Stews', type: 'dish' },
      },
      {
        path: '/users',
        refused: { name: 'Lucia', pin: '2468' },
        corrected: { name: 'Lucia B', pin: '2468' },
      },
      {
        path: '/dishes',
        refused: { name: 'Tacos', price: 60, category_id: fixtures.ingredientCategory },
        corrected: { name: 'Tacos', price: 60, category_id: fixtures.dishCategory },
      },
    ];
    await call('POST', '/categories', { name: 'Soups', type: 'dish' });
    await call('POST', '/users', { name: 'Lucia', pin: '1357' });
    for (const { path, refused, corrected } of refusals) {
      const refusal = await post(call, path, refused, `fix-${path}`);
      assert.equal(refusal.statusCode, 400, path);
      assert.notDeepEqual(refusal.json(), KEY_REUSED);
      const kept = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idempotency_key', '=', `fix-${path}`)
        .execute();
      assert.deepEqual(kept, [], path);
      const retry = await post(call, path, corrected, `fix-${path}`);
      assert.equal(retry.statusCode, 201, `${path} ${retry.body}`);
    }
  });

  it('does not keep a PIN in a form that can be guessed from the stored request hash', async (t) => {
    const { db, call } = await setUp(t, target);
    await post(call, '/users', { name: 'Lucia', pin: '2468' }, 'new-waiter');
    const stored = await db.selectFrom('idempotency_keys').select('request_hash').executeTakeFirstOrThrow();
    const plain = createHash('sha256').update(
      JSON.stringify({ body: { name: 'Lucia', pin: '2468' }, params: {} }),
    );
    assert.notEqual(stored.request_hash, plain.digest('hex'));
    assert.ok(!stored.request_hash.includes('2468'));
  });

  it('refuses an empty key on POST /categories with a message that names the header', async (t) => {
    const { db, call } = await setUp(t, target);
    const before = await countRows(db, 'categories');
    const response = await post(call, '/categories', { name: 'Soups', type: 'dish' }, '');
    assert.deepEqual(
      [response.statusCode, response.json()],
      [400, { message: 'Malformed Idempotency-Key header' }],
    );
    assert.equal(await countRows(db, 'categories'), before);
  });

  it('documents the header on every creating POST', async (t) => {
    const { app } = await buildTestApp(t, target);
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    for (const { path } of ROUTES) {
      const names = document.paths[path].post.parameters.map((parameter: { name: string }) => parameter.name);
      assert.ok(names.includes('idempotency-key'), path);
    }
  });
});

describeEachDatabase('Idempotency-Key expiry', (target) => {
  /** Access tokens live a minute, so after moving the clock a day the waiter logs in again. */
  async function afterADay(context: Awaited<ReturnType<typeof setUp>>, ms: number): Promise<Caller> {
    context.clock.advance(ms);
    return callerFor(context.app, await login(context.app, context.user.name, context.user.pin));
  }

  it('still answers a retry just under 24 hours later with the first answer', async (t) => {
    const context = await setUp(t, target);
    const first = await post(context.call, '/spaces', { name: 'Terrace' }, 'late-retry');
    const call = await afterADay(context, DAY_MS - 1);
    const retry = await post(call, '/spaces', { name: 'Terrace' }, 'late-retry');
    assert.deepEqual([retry.statusCode, retry.json()], [201, first.json()]);
    assert.equal(await countRows(context.db, 'spaces'), 2);
  });

  it('treats a key older than 24 hours as new and replaces its row', async (t) => {
    const context = await setUp(t, target);
    const first = await post(context.call, '/spaces', { name: 'Terrace' }, 'reused-tomorrow');
    const call = await afterADay(context, DAY_MS + 1);
    const again = await post(call, '/spaces', { name: 'Patio' }, 'reused-tomorrow');
    assert.equal(again.statusCode, 201, again.body);
    assert.notEqual(again.json().id, first.json().id);
    assert.equal(await countRows(context.db, 'spaces'), 3);
    const keys = await context.db.selectFrom('idempotency_keys').selectAll().execute();
    assert.equal(keys.length, 1);
    assert.equal(keys[0]?.created_at, context.clock.now());
    assert.deepEqual(JSON.parse(keys[0]?.response_body ?? 'null'), again.json().id);
    const retry = await post(call, '/spaces', { name: 'Patio' }, 'reused-tomorrow');
    assert.deepEqual([retry.statusCode, retry.json()], [201, again.json()]);
  });

  it('deletes expired keys of any user or route when a new key is claimed', async (t) => {
    const context = await setUp(t, target);
    const { cookies: staffCookies } = await loggedInUser(context.app, context.db, 'staff');
    await post(context.call, '/spaces', { name: 'Terrace' }, 'old-1');
    await post(context.call, '/categories', { name: 'Soups', type: 'dish' }, 'old-2');
    await post(callerFor(context.app, staffCookies), '/spaces', { name: 'Patio' }, 'old-3');
    const midday = await afterADay(context, DAY_MS / 2);
    assert.equal((await post(midday, '/spaces', { name: 'Bar' }, 'recent')).statusCode, 201);
    const call = await afterADay(context, DAY_MS / 2 + 1);
    assert.equal((await post(call, '/spaces', { name: 'Garden' }, 'new')).statusCode, 201);
    const keys = await context.db.selectFrom('idempotency_keys').select('idempotency_key').execute();
    assert.deepEqual(keys.map((key) => key.idempotency_key).sort(), ['new', 'recent']);
  });
});
