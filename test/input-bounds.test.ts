import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { sqliteTarget } from './helpers/database';
import { diningRoom, ordersSnapshot, storedOrderDishes } from './helpers/orders-factories';
import { buildWalletTestApp, unlockedAdmin } from './helpers/wallet-factories';

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: unknown;
  required?: string[];
  minProperties?: number;
  maximum?: number;
  enum?: unknown[];
};
type Operation = {
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/**
 * A map whose values are typed and whose size is capped (fiscal settings' payment method → SAT form):
 * its keys are data, not fields, so it is open by design. OpenAPI 3.0 writes it with
 * `additionalProperties` as the values' schema.
 */
function isBoundedMap(object: Schema & { maxProperties?: number }): boolean {
  return typeof object.additionalProperties === 'object' && object.maxProperties !== undefined;
}

/** Every object inside a schema, with where it sits, e.g. `body.dishes[]`. */
function objectsOf(schema: Schema | undefined, where: string): [string, Schema][] {
  if (!schema) return [];
  // OpenAPI 3.0 has no null type: the document writes a null as `{type: object, nullable, enum: [null]}`.
  const isNull = schema.enum?.length === 1 && schema.enum[0] === null;
  const found: [string, Schema][] = schema.type === 'object' && !isNull ? [[where, schema]] : [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    found.push(...objectsOf(property, `${where}.${name}`));
  }
  found.push(...objectsOf(schema.items, `${where}[]`));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...objectsOf(branch, where));
  }
  return found;
}

it('bounds every numeric query parameter and closes every body object of the API', async (t) => {
  const { app } = await buildTestApp(t, sqliteTarget);
  await app.ready();
  const document = app.swagger() as { paths: Record<string, Record<string, Operation>> };
  const unbounded: string[] = [];
  const open: string[] = [];
  const emptyUpdates: string[] = [];
  let numericParameters = 0;
  let bodies = 0;
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        const type = parameter.schema?.type;
        if (parameter.in !== 'query' || (type !== 'integer' && type !== 'number')) continue;
        numericParameters += 1;
        if (parameter.schema?.maximum === undefined) unbounded.push(`${route} ?${parameter.name}`);
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) bodies += 1;
      for (const [where, object] of objectsOf(body, 'body')) {
        if (object.additionalProperties !== false && !isBoundedMap(object)) open.push(`${route} ${where}`);
      }
      const isUpdate = method === 'put' && body?.type === 'object';
      if (isUpdate && !body.required?.length && !(body.minProperties && body.minProperties > 0)) {
        emptyUpdates.push(route);
      }
    }
  }
  assert.ok(numericParameters >= 10 && bodies >= 20, 'the walk saw the API');
  assert.deepEqual(unbounded, [], 'numeric query parameters without a maximum');
  assert.deepEqual(open, [], 'body objects that accept unknown fields');
  assert.deepEqual(emptyUpdates, [], 'updates that accept an empty body');
});

describeEachDatabase('input bounds', (target) => {
  it('refuses offsets and instants beyond any real value on every order list', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, user, table } = await diningRoom(app, db);
    const lists = [
      '/orders?',
      `/orders/user/${user.id}?`,
      `/orders/table/${table.id}?`,
      '/orders/status/pending?',
      '/orders/date-range?start_date=2026-11-01&end_date=2026-11-30&',
    ];
    for (const list of lists) {
      const response = await call('GET', `${list}offset=1e20`);
      assert.equal(response.statusCode, 400, list);
      assert.equal(response.json().message, 'Validation failed');
      assert.equal(response.json().details[0].field, 'offset');
    }
    for (const query of ['from=1e20', 'to=99999999999999999999', 'from=-1']) {
      assert.equal((await call('GET', `/orders?${query}`)).statusCode, 400, query);
    }
    assert.equal((await call('GET', '/orders?offset=2147483647')).statusCode, 204);
  });

  it('refuses an order dish update made only of unknown fields, naming them, and changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish } = await diningRoom(app, db);
    const created = await call('POST', '/orders/with-dishes', { order: {}, dishes: [{ dish_id: dish.id }] });
    const orderId = created.json().id;
    const [orderDish] = await storedOrderDishes(db, orderId);
    const before = await ordersSnapshot(db);

    const unknownOnly = await call('PUT', `/orders/${orderId}/dishes/${orderDish?.id}`, { foo: 1 });
    assert.equal(unknownOnly.statusCode, 400);
    assert.equal(unknownOnly.json().message, 'Validation failed');
    assert.deepEqual(
      unknownOnly.json().details.map((detail: { field: string }) => detail.field),
      ['foo'],
    );
    const empty = await call('PUT', `/orders/${orderId}/dishes/${orderDish?.id}`, {});
    assert.equal(empty.statusCode, 400);
    const emptyOrder = await call('PUT', `/orders/${orderId}`, {});
    assert.equal(emptyOrder.statusCode, 400);
    assert.deepEqual(await ordersSnapshot(db), before);
  });

  it('names unknown fields at any depth, and still takes the fields the spec documents', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, dish, table, user } = await diningRoom(app, db);
    const before = await ordersSnapshot(db);
    const typo = await call('POST', '/orders', { table_id: table.id, tabel: 'x' });
    assert.equal(typo.statusCode, 400);
    assert.deepEqual(
      typo.json().details.map((detail: { field: string }) => detail.field),
      ['tabel'],
    );
    const nested = await call('POST', '/orders/with-dishes', {
      order: { waiter: 'Ana', tip: 5 },
      dishes: [{ dish_id: dish.id, price: 3 }],
    });
    assert.equal(nested.statusCode, 400);
    assert.deepEqual(
      nested
        .json()
        .details.map((detail: { field: string }) => detail.field)
        .sort(),
      ['dishes[0].price', 'order.tip'],
    );
    assert.deepEqual(await ordersSnapshot(db), before);

    const documented = await call('POST', '/orders', {
      user_id: user.id,
      table_id: table.id,
      waiter: 'Ana',
      status: 'pending',
      total: 99.5,
    });
    assert.equal(documented.statusCode, 201, documented.body);
    const space = await db.selectFrom('spaces').select('id').executeTakeFirstOrThrow();
    const tableBody = { name: 'T9', status: 'available', space_id: space.id, order_id: null };
    const newTable = await call('POST', '/tables', tableBody);
    assert.equal(newTable.statusCode, 201, newTable.body);
  });

  it('refuses wallet listings with instants beyond year 9999', async (t) => {
    const { app, db } = await buildWalletTestApp(t, target);
    const { walletCookies } = await unlockedAdmin(app, db);
    for (const url of ['/wallet/payments/incoming?from=1e20', '/wallet/payments/outgoing?to=1e20']) {
      const response = await app.inject({ url, headers: { cookie: walletCookies } });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().message, 'Validation failed', 'refused before the node is asked');
    }
  });
});
