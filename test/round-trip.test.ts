import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../src/core/db/database';
import { newId } from '../src/core/ids';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import {
  insertCategory,
  insertDish,
  insertOrder,
  insertSpace,
  insertTable,
  insertUser,
} from './helpers/factories';
import { insertIngredient, insertProduct } from './helpers/menu-factories';
import { type Caller, callerFor } from './helpers/orders-factories';

/**
 * Generated from the OpenAPI document: every resource a client can read and then edit with PUT must
 * take back, unchanged, the object it read (clients edit a record by sending back what they got).
 * A resource is a `PUT` path with a JSON body whose view is either `GET` on the same path or, for
 * records without their own GET (an order's dishes, payment methods), an item of `GET` on the parent.
 */

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; readOnly?: boolean };
type Operation = {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
};
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

type RoundTripResource = {
  /** The PUT path as the document spells it: `/orders/{id}/dishes/{dishId}`. */
  path: string;
  /** Where the view is read: the path itself, or the parent list that holds it. */
  readFrom: 'record' | 'list';
  view: Schema;
  body: Schema;
};

const jsonSchemaOf = (part: { content?: Record<string, { schema?: Schema }> } | undefined) =>
  part?.content?.['application/json']?.schema;

function roundTripResources(document: OpenApiDocument): RoundTripResource[] {
  return Object.entries(document.paths).flatMap(([path, item]): RoundTripResource[] => {
    const body = jsonSchemaOf(item.put?.requestBody);
    if (!body) return [];
    const record = jsonSchemaOf(item.get?.responses?.['200']);
    if (record) return [{ path, readFrom: 'record', view: record, body }];
    const parent = path.match(/^(.*)\/\{[^}]+\}$/)?.[1];
    const list = parent ? jsonSchemaOf(document.paths[parent]?.get?.responses?.['200']) : undefined;
    if (list?.type === 'array' && list.items) return [{ path, readFrom: 'list', view: list.items, body }];
    return [];
  });
}

async function documentOf(app: FastifyInstance): Promise<OpenApiDocument> {
  await app.ready();
  return app.swagger() as OpenApiDocument;
}

type Fixture = { app: FastifyInstance; db: Db; call: Caller };
/** The path parameters of a new record, and the query its reads (and so its writes) carry. */
type Created = { params: Record<string, string>; query?: string };

const created = async (response: Promise<LightMyRequestResponse>): Promise<string> => {
  const answer = await response;
  assert.equal(answer.statusCode, 201, answer.body);
  return answer.json().id;
};

/**
 * One factory per round-trip resource, keyed by its PUT path. A resource the document gains without
 * a factory here fails the test rather than going untested.
 */
const FACTORIES: Record<string, (fixture: Fixture) => Promise<Created>> = {
  '/users/{id}': async ({ db }) => ({ params: { id: (await insertUser(db, { role: 'waiter' })).id } }),
  '/roles/{id}': async ({ call }) => ({
    params: {
      id: await created(call('POST', '/roles', { name: 'bar', permissions: ['orders.write'] })),
    },
  }),
  '/settings': async () => ({ params: {} }),
  '/settings/fiscal': async () => ({ params: {} }),
  '/categories/{id}': async ({ db }) => ({
    params: { id: (await insertCategory(db, { type: 'dish' })).id },
    query: '?type=dish',
  }),
  '/dishes/{id}': async ({ db }) => ({ params: { id: (await insertDish(db)).id } }),
  '/modifier-groups/{id}': async ({ call }) => ({
    params: {
      id: await created(
        call('POST', '/modifier-groups', {
          name: 'Tortilla',
          min_select: 1,
          max_select: 1,
          options: [
            { name: 'Corn', price_delta: 0 },
            { name: 'No cheese', price_delta: -5, available: false },
          ],
        }),
      ),
    },
  }),
  '/ingredients/{id}': async ({ db }) => ({ params: { id: (await insertIngredient(db)).id } }),
  '/products/{id}': async ({ db }) => ({ params: { id: (await insertProduct(db)).id } }),
  '/spaces/{id}': async ({ db }) => ({ params: { id: (await insertSpace(db)).id } }),
  '/tables/{id}': async ({ db }) => ({ params: { id: (await insertTable(db)).id } }),
  '/orders/{id}': async ({ db }) => ({
    params: { id: (await insertOrder(db, { tableId: (await insertTable(db)).id })).id },
  }),
  '/orders/{id}/dishes/{dishId}': async ({ db, call }) => {
    const dish = await insertDish(db);
    const answer = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: [{ dish_id: dish.id, notes: 'No onions' }],
    });
    const id = await created(Promise.resolve(answer));
    const [dishId] = (await call('GET', `/orders/${id}/dishes`))
      .json()
      .map((entry: { id: string }) => entry.id);
    return { params: { id, dishId } };
  },
  '/payment-methods/{id}': async ({ call }) => ({
    params: { id: await created(call('POST', '/payment-methods', { code: 'voucher', name: 'Voucher' })) },
  }),
  '/printers/{id}': async ({ call }) => ({
    params: {
      id: await created(
        call('POST', '/printers', { name: 'Grill', host: '192.168.1.51', role: 'kitchen', station: 'grill' }),
      ),
    },
  }),
  '/webhooks/{id}': async ({ call }) => ({
    params: {
      id: await created(call('POST', '/webhooks', { url: 'https://example.com/hook', events: ['*'] })),
    },
  }),
};

const fill = (path: string, params: Record<string, string>) =>
  path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    assert.ok(value, `the factory of ${path} gives no ${name}`);
    return value;
  });

/** What GET shows of the record: from the record's own route, or found by id in its parent's list. */
async function read(
  call: Caller,
  resource: RoundTripResource,
  record: Created,
): Promise<Record<string, unknown>> {
  const path = resource.readFrom === 'record' ? resource.path : resource.path.replace(/\/\{[^}]+\}$/, '');
  const answer = await call('GET', fill(path, record.params) + (record.query ?? ''));
  assert.equal(answer.statusCode, 200, `GET ${resource.path}: ${answer.body}`);
  if (resource.readFrom === 'record') return answer.json();
  const id = Object.values(record.params).at(-1);
  const item = answer.json().find((entry: { id: string }) => entry.id === id);
  assert.ok(item, `${resource.path}: the record is not in its list`);
  return item;
}

/** Fields that change on every write, whatever was sent. */
const withoutWriteTimes = ({ updated_at: _updatedAt, ...view }: Record<string, unknown>) => view;

const UNKNOWN_FIELD = 'no_such_field';

describeEachDatabase('round trips', (target) => {
  it('has a factory for every resource a client can read and then PUT', async (t) => {
    const { app } = await buildTestApp(t, target);
    const paths = roundTripResources(await documentOf(app)).map((resource) => resource.path);
    assert.deepEqual(
      paths.filter((path) => !(path in FACTORIES)),
      [],
      'add a factory to FACTORIES',
    );
    assert.deepEqual(
      Object.keys(FACTORIES).filter((path) => !paths.includes(path)),
      [],
      'a factory for no resource',
    );
  });

  it('documents every view field in its PUT body, the ones PUT does not write as readOnly', async (t) => {
    const { app } = await buildTestApp(t, target);
    for (const resource of roundTripResources(await documentOf(app))) {
      const body = resource.body.properties ?? {};
      const viewFields = Object.keys(resource.view.properties ?? {});
      assert.deepEqual(
        viewFields.filter((field) => !(field in body)),
        [],
        `PUT ${resource.path} lacks fields of its view`,
      );
      const readOnly = Object.keys(body).filter((field) => body[field]?.readOnly === true);
      assert.ok(
        readOnly.includes('id') || !viewFields.includes('id'),
        `PUT ${resource.path}: id is not readOnly`,
      );
      assert.deepEqual(
        readOnly.filter((field) => !viewFields.includes(field)),
        [],
        `PUT ${resource.path}: readOnly fields that no view has`,
      );
    }
  });

  it('takes back what GET read (200, nothing changes) and still refuses an unknown field by name', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    const document = await documentOf(app);
    for (const resource of roundTripResources(document)) {
      const factory = FACTORIES[resource.path];
      assert.ok(factory, `no factory for ${resource.path}`);
      const record = await factory({ app, db, call });
      const url = fill(resource.path, record.params) + (record.query ?? '');
      const before = await read(call, resource, record);

      const sentBack = await call('PUT', url, before);
      assert.equal(sentBack.statusCode, 200, `PUT ${resource.path} of its GET: ${sentBack.body}`);
      assert.deepEqual(withoutWriteTimes(await read(call, resource, record)), withoutWriteTimes(before));

      const refused = await call('PUT', url, { ...before, [UNKNOWN_FIELD]: 1 });
      assert.equal(refused.statusCode, 400, `PUT ${resource.path} with an unknown field: ${refused.body}`);
      const answer = refused.json();
      if (answer.message === 'Validation failed') {
        assert.deepEqual(
          answer.details.map((detail: { field: string }) => detail.field),
          [UNKNOWN_FIELD],
        );
      } else {
        // Routes whose 400 texts the spec fixes (categories) answer with one of them instead.
        const documented = document.paths[resource.path]?.put?.responses?.['400']?.description ?? '';
        assert.ok(documented.includes(`\`${answer.message}\``), `PUT ${resource.path}: ${refused.body}`);
      }
    }
  });

  it('ignores read-only fields whatever their value, and applies the writable ones', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    const table = await insertTable(db);
    const tableView = (await call('GET', `/tables/${table.id}`)).json();
    const otherId = newId();

    const answer = await call('PUT', `/tables/${table.id}`, { ...tableView, id: otherId, name: 'Terrace 4' });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json(), { id: table.id, message: 'Table updated successfully' });
    assert.deepEqual((await call('GET', `/tables/${table.id}`)).json(), { ...tableView, name: 'Terrace 4' });
    assert.equal((await call('GET', `/tables/${otherId}`)).statusCode, 404);

    const order = await insertOrder(db);
    const orderView = (await call('GET', `/orders/${order.id}`)).json();
    const withJunk = { ...orderView, paid: 'lots', balance: null, created_at: 7, total: 999, waiter: 'Luz' };
    assert.equal((await call('PUT', `/orders/${order.id}`, withJunk)).statusCode, 200);
    assert.deepEqual((await call('GET', `/orders/${order.id}`)).json(), { ...orderView, waiter: 'Luz' });
  });

  it('answers 400 naming the route when a state field asks for another value, and takes the same value', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const dish = await insertDish(db);
    const created = await call('POST', '/orders/with-dishes', { order: {}, dishes: [{ dish_id: dish.id }] });
    const orderId = created.json().id as string;
    const [plate] = (await call('GET', `/orders/${orderId}/dishes`)).json();
    const url = `/orders/${orderId}/dishes/${plate.id}`;
    for (const [status, route] of [
      ['sent', 'POST /orders/{id}/send'],
      ['served', 'POST /orders/{id}/dishes/{dishId}/serve'],
      ['ready', 'PUT /orders/{id}/dishes/{dishId}/status'],
    ]) {
      const refused = await call('PUT', url, { ...plate, status });
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [400, { message: `status is not changed here: use ${route}` }],
        status,
      );
    }
    assert.deepEqual((await call('GET', `/orders/${orderId}/dishes`)).json(), [plate]);
    const computed = { ...plate, sent_at: '2020-01-01T00:00:00.000Z', dish_name: 'Other', notes: 'No salt' };
    assert.equal((await call('PUT', url, computed)).statusCode, 200);
    assert.deepEqual((await call('GET', `/orders/${orderId}/dishes`)).json(), [
      { ...plate, notes: 'No salt' },
    ]);
  });

  it('takes and drops the read-only fields of an order view on create too', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const body = { id: newId(), created_at: '2001-01-01T00:00:00.000Z', total: 99, paid: 'x', guests: 2 };
    const created = await call('POST', '/orders', body);
    assert.equal(created.statusCode, 201, created.body);
    const view = (await call('GET', `/orders/${created.json().id}`)).json();
    assert.deepEqual(
      [view.id === body.id, view.created_at, view.total, view.paid, view.guests],
      [false, new Date(clock.now()).toISOString(), 0, 0, 2],
    );
  });

  it('says once which values an enum takes, built from its schema, in a body and in a query', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const call = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const order = await insertOrder(db);
    const statuses = 'pending, preparing, ready, completed, cancelled';
    for (const [method, url, body] of [
      ['PUT', `/orders/${order.id}`, { status: 'served' }],
      ['GET', '/orders?status=served', undefined],
    ] as const) {
      const refused = await call(method, url, body);
      assert.deepEqual(
        [refused.statusCode, refused.json()],
        [
          400,
          {
            message: 'Validation failed',
            details: [{ field: 'status', message: `status must be one of ${statuses}` }],
          },
        ],
        url,
      );
    }
  });

  it('takes an order back in the status it was read in: no transition, nothing changes', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    for (const status of ['pending', 'preparing', 'ready', 'completed', 'cancelled'] as const) {
      const table = await insertTable(db);
      const order = await insertOrder(db, { tableId: table.id, status });
      const tableBefore = (await call('GET', `/tables/${table.id}`)).json();
      const view = (await call('GET', `/orders/${order.id}`)).json();
      assert.equal(view.status, status);

      const answer = await call('PUT', `/orders/${order.id}`, view);
      assert.equal(answer.statusCode, 200, `${status}: ${answer.body}`);
      assert.deepEqual((await call('GET', `/orders/${order.id}`)).json(), view);
      assert.deepEqual((await call('GET', `/tables/${table.id}`)).json(), tableBefore);
    }
  });

  it('takes notes: null as no notes, on adding and on updating a dish of an order', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    const dish = await insertDish(db);
    const order = await insertOrder(db);

    const added = await call('POST', `/orders/${order.id}/dishes`, [{ dish_id: dish.id, notes: null }]);
    assert.equal(added.statusCode, 201, added.body);
    const [dishId] = added.json().ids;
    const [entry] = (await call('GET', `/orders/${order.id}/dishes`)).json();
    assert.equal(entry.notes, '');

    assert.equal(
      (await call('PUT', `/orders/${order.id}/dishes/${dishId}`, { notes: 'Well done' })).statusCode,
      200,
    );
    const cleared = await call('PUT', `/orders/${order.id}/dishes/${dishId}`, { notes: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual(cleared.json(), { message: 'Dish updated successfully' });
    assert.equal((await call('GET', `/orders/${order.id}/dishes`)).json()[0].notes, '');

    const withDishes = await call('POST', '/orders/with-dishes', {
      order: {},
      dishes: [{ dish_id: dish.id, notes: null }],
    });
    assert.equal(withDishes.statusCode, 201, withDishes.body);
  });

  it('takes null as no text in the other optional free-text fields', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);

    const role = await call('POST', '/roles', { name: 'host', description: null, permissions: [] });
    assert.equal(role.statusCode, 201, role.body);
    assert.equal(role.json().description, '');
    const roleId = role.json().id;
    await call('PUT', `/roles/${roleId}`, { name: 'host', description: 'Seats guests', permissions: [] });
    const cleared = await call('PUT', `/roles/${roleId}`, {
      name: 'host',
      description: null,
      permissions: [],
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal((await call('GET', `/roles/${roleId}`)).json().description, '');

    assert.equal(
      (await call('PUT', '/settings', { address: 'Av. Juárez 10', phone: '555' })).statusCode,
      200,
    );
    const settings = await call('PUT', '/settings', {
      address: null,
      tax_id: null,
      phone: null,
      receipt_footer: null,
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const stored = (await call('GET', '/settings')).json();
    assert.deepEqual([stored.address, stored.tax_id, stored.phone, stored.receipt_footer], ['', '', '', '']);

    const order = await insertOrder(db);
    const [dishId] = (
      await call('POST', `/orders/${order.id}/dishes`, [{ dish_id: (await insertDish(db)).id }])
    ).json().ids;
    const unexplainedVoid = await call('PUT', `/orders/${order.id}/dishes/${dishId}/status`, {
      status: 'voided',
      reason: null,
    });
    assert.equal(unexplainedVoid.statusCode, 400);
    assert.deepEqual(unexplainedVoid.json(), { message: 'A reason is required to void a dish' });

    const shift = await call('POST', '/shifts', { opening_cash: 100 });
    assert.equal(shift.statusCode, 201, shift.body);
    const closed = await call('POST', `/shifts/${shift.json().id}/close`, { counted_cash: 100, notes: null });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().notes, null);
  });
});
