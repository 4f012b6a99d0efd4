import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';
import { insertDish } from './helpers/factories';
import { allRows } from './helpers/menu-factories';
import { createGroup, type Option } from './helpers/modifier-factories';
import { callerFor } from './helpers/orders-factories';
import { listeningTestApp, openStream } from './helpers/sse-client';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const tortilla = {
  name: 'Tortilla',
  min_select: 1,
  max_select: 1,
  options: [
    { name: 'Corn', price_delta: 0 },
    { name: 'Flour', price_delta: 5 },
  ],
};

describeEachDatabase('modifier groups', (target) => {
  async function setup(t: Parameters<typeof buildTestApp>[0], role = 'manager') {
    const testApp = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(testApp.app, testApp.db, role);
    return { ...testApp, call: callerFor(testApp.app, cookies) };
  }

  it('creates a group with its options in order and shows it to any user', async (t) => {
    const { app, db, call } = await setup(t);
    const created = await call('POST', '/modifier-groups', {
      ...tortilla,
      options: [...tortilla.options, { name: 'No cheese', price_delta: -5.5, available: false }],
    });
    assert.equal(created.statusCode, 201, created.body);
    const { id, message } = created.json();
    assert.equal(message, 'Modifier group added successfully');
    const kitchen = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const shown = await kitchen('GET', `/modifier-groups/${id}`);
    assert.equal(shown.statusCode, 200);
    const view = shown.json();
    assert.deepEqual(
      { ...view, options: view.options.map(({ id: _id, ...option }: { id: string }) => option) },
      {
        id,
        name: 'Tortilla',
        min_select: 1,
        max_select: 1,
        options: [
          { name: 'Corn', price_delta: 0, available: true, out_of_stock: false, recipe: [] },
          { name: 'Flour', price_delta: 5, available: true, out_of_stock: false, recipe: [] },
          { name: 'No cheese', price_delta: -5.5, available: false, out_of_stock: false, recipe: [] },
        ],
      },
    );
    const stored = await allRows(db, 'modifier_options');
    assert.deepEqual(
      stored.map((row) => [row.name, Number(row.price_delta_cents), Number(row.position)]).sort(),
      [
        ['Corn', 0, 0],
        ['Flour', 500, 1],
        ['No cheese', -550, 2],
      ],
    );
    assert.deepEqual((await kitchen('GET', '/modifier-groups')).json(), [view]);
  });

  it('answers 204 when there are no groups', async (t) => {
    const { call } = await setup(t);
    assert.equal((await call('GET', '/modifier-groups')).statusCode, 204);
  });

  it('keeps options sent with their id, adds new ones and retires the ones left out', async (t) => {
    const { db, call } = await setup(t);
    const { id } = (await call('POST', '/modifier-groups', tortilla)).json();
    const view = (await call('GET', `/modifier-groups/${id}`)).json();
    const [corn, flour] = view.options;
    // The GET view sent back, edited: Flour renamed and repriced, Corn left out, Wheat new.
    const response = await call('PUT', `/modifier-groups/${id}`, {
      ...view,
      name: 'Tortillas',
      max_select: 2,
      options: [
        { ...flour, name: 'Corn', price_delta: 7 },
        { name: 'Wheat', price_delta: 3 },
      ],
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { id, message: 'Modifier group updated successfully' });
    const after = (await call('GET', `/modifier-groups/${id}`)).json();
    assert.equal(after.name, 'Tortillas');
    assert.equal(after.max_select, 2);
    assert.deepEqual(
      after.options.map((option: { id: string; name: string; price_delta: number }) => [
        option.name,
        option.price_delta,
      ]),
      [
        ['Corn', 7],
        ['Wheat', 3],
      ],
    );
    assert.equal(after.options[0].id, flour.id);
    const retired = (await allRows(db, 'modifier_options')).find((row) => row.id === corn.id);
    assert.equal(retired?.name, 'Corn');
    assert.notEqual(retired?.retired_at, null);
  });

  it('swaps the names of two kept options', async (t) => {
    const { call } = await setup(t);
    const { id } = (await call('POST', '/modifier-groups', tortilla)).json();
    const [corn, flour] = (await call('GET', `/modifier-groups/${id}`)).json().options;
    const response = await call('PUT', `/modifier-groups/${id}`, {
      ...tortilla,
      options: [
        { ...corn, name: 'Flour' },
        { ...flour, name: 'Corn' },
      ],
    });
    assert.equal(response.statusCode, 200, response.body);
    const after = (await call('GET', `/modifier-groups/${id}`)).json();
    assert.deepEqual(
      after.options.map((option: { id: string; name: string }) => [option.id, option.name]),
      [
        [corn.id, 'Flour'],
        [flour.id, 'Corn'],
      ],
    );
  });

  it('refuses bad groups with a message and changes nothing', async (t) => {
    const { db, call } = await setup(t);
    const { id } = (await call('POST', '/modifier-groups', tortilla)).json();
    const other = (await call('POST', '/modifier-groups', { ...tortilla, name: 'Salsa' })).json().id;
    const [otherOption] = (await call('GET', `/modifier-groups/${other}`)).json().options;
    const digest = await databaseDigest(db);
    const refusals: [string, string, unknown, string][] = [
      [
        'POST',
        '/modifier-groups',
        { ...tortilla, min_select: 2, max_select: 1 },
        'min_select cannot be more than max_select',
      ],
      [
        'POST',
        '/modifier-groups',
        { ...tortilla, name: ' Tortilla ' },
        'A modifier group with this name already exists',
      ],
      ['PUT', `/modifier-groups/${other}`, tortilla, 'A modifier group with this name already exists'],
      [
        'POST',
        '/modifier-groups',
        { ...tortilla, name: 'X', options: [tortilla.options[0], { name: 'Corn ', price_delta: 1 }] },
        'Option names must be unique in the group',
      ],
      [
        'PUT',
        `/modifier-groups/${id}`,
        { ...tortilla, options: [{ ...otherOption }] },
        `Option ${otherOption.id} does not belong to this group`,
      ],
      [
        'POST',
        '/modifier-groups',
        { ...tortilla, name: 'Y', options: [{ id: UNKNOWN_ID, name: 'A', price_delta: 0 }] },
        `Option ${UNKNOWN_ID} does not belong to this group`,
      ],
    ];
    for (const [method, url, body, message] of refusals) {
      const response = await call(method as 'POST', url, body);
      assert.equal(response.statusCode, 400, `${method} ${url} ${response.body}`);
      assert.deepEqual(response.json(), { message });
    }
    const invalid = [
      { ...tortilla, name: 'Z', max_select: 0, min_select: 0 },
      { ...tortilla, name: 'Z', min_select: -1 },
      { ...tortilla, name: 'Z', options: [{ name: 'A', price_delta: 0.001 }] },
      {
        ...tortilla,
        name: 'Z',
        options: Array.from({ length: 51 }, (_, index) => ({ name: `O${index}`, price_delta: 0 })),
      },
      { ...tortilla, name: '' },
    ];
    for (const body of invalid) {
      const response = await call('POST', '/modifier-groups', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().message, 'Validation failed');
    }
    assert.equal(await databaseDigest(db), digest);
  });

  it('deletes a group no live dish links, and refuses one in use', async (t) => {
    const { db, call } = await setup(t);
    const { id } = (await call('POST', '/modifier-groups', tortilla)).json();
    const dish = await insertDish(db);
    const linked = await call('PUT', `/dishes/${dish.id}`, {
      name: dish.name,
      price: 12.5,
      category_id: dish.categoryId,
      modifier_group_ids: [id],
    });
    assert.equal(linked.statusCode, 200, linked.body);
    const refused = await call('DELETE', `/modifier-groups/${id}`);
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json(), { message: 'Modifier group is in use' });
    assert.equal((await call('DELETE', `/dishes/${dish.id}`)).statusCode, 200);
    const deleted = await call('DELETE', `/modifier-groups/${id}`);
    assert.equal(deleted.statusCode, 200);
    assert.deepEqual(deleted.json(), { id, message: 'Modifier group deleted successfully' });
    assert.equal((await call('GET', `/modifier-groups/${id}`)).statusCode, 404);
    assert.equal((await call('DELETE', `/modifier-groups/${id}`)).statusCode, 404);
    assert.equal((await call('PUT', `/modifier-groups/${id}`, tortilla)).statusCode, 404);
    // A deleted group's name is free again.
    assert.equal((await call('POST', '/modifier-groups', tortilla)).statusCode, 201);
  });

  it('announces each change of a group on the stream the order screens follow', async (t) => {
    const { app, db, base } = await listeningTestApp(t, target);
    const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
    const waiter = await openStream(
      base,
      (await loggedInUser(app, db, 'waiter')).cookies,
      '/events?topics=orders,kitchen',
    );
    assert.equal(waiter.status, 200);
    // `: connected` promises every event committed after it.
    await waiter.until(() => waiter.frames.length > 0);

    const created = await createGroup(manager, tortilla);
    const [corn, flour] = created.options as [Option, Option];
    const flourOut = await manager('PUT', `/modifier-groups/${created.id}`, {
      ...tortilla,
      options: [corn, { ...flour, available: false }],
    });
    assert.equal(flourOut.statusCode, 200, flourOut.body);
    const updated = (await manager('GET', `/modifier-groups/${created.id}`)).json();
    assert.equal(updated.options[1].available, false);
    assert.equal((await manager('DELETE', `/modifier-groups/${created.id}`)).statusCode, 200);

    await waiter.until(() => waiter.events().length === 3);
    assert.deepEqual(
      waiter.events().map((frame) => [frame.event, JSON.parse(frame.data ?? '').data]),
      [
        ['modifier_group.created', created],
        ['modifier_group.updated', updated],
        ['modifier_group.deleted', updated],
      ],
    );
    await waiter.cancel();
  });

  it('needs menu.write to change groups; any user reads them', async (t) => {
    const { app, db, call } = await setup(t);
    const { id } = (await call('POST', '/modifier-groups', tortilla)).json();
    const waiter = callerFor(app, (await loggedInUser(app, db, 'waiter')).cookies);
    for (const [method, url, body] of [
      ['POST', '/modifier-groups', { ...tortilla, name: 'New' }],
      ['PUT', `/modifier-groups/${id}`, tortilla],
      ['DELETE', `/modifier-groups/${id}`, undefined],
    ] as const) {
      const response = await waiter(method, url, body);
      assert.equal(response.statusCode, 403, `${method} ${url}`);
    }
    assert.equal((await waiter('GET', `/modifier-groups/${id}`)).statusCode, 200);
  });
});
