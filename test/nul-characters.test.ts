import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseDigest } from './helpers/db-digest';

const NUL = '\u0000';

describeEachDatabase('text holding NUL (\\u0000)', (target) => {
  it('is refused with 400 Validation failed in bodies, queries and nested fields, and nothing changes', async (t) => {
    const test = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'admin');
    const before = await databaseDigest(test.db);
    const requests: {
      method: 'POST' | 'PUT' | 'GET';
      url: string;
      payload?: Record<string, unknown>;
      field: string;
    }[] = [
      { method: 'POST', url: '/auth/login', payload: { name: `ana${NUL}`, pin: '1234' }, field: 'name' },
      { method: 'POST', url: '/spaces', payload: { name: `${NUL}Terrace` }, field: 'name' },
      { method: 'POST', url: '/users', payload: { name: `bo${NUL}b`, pin: '1234' }, field: 'name' },
      {
        method: 'PUT',
        url: '/settings',
        payload: { receipt_footer: `Thanks${NUL}` },
        field: 'receipt_footer',
      },
      {
        method: 'POST',
        url: '/webhooks',
        payload: { url: `https://example.com/${NUL}`, events: ['*'] },
        field: 'url',
      },
      { method: 'GET', url: '/audit?action=auth.login%00', field: 'action' },
      {
        method: 'POST',
        url: '/orders/with-dishes',
        payload: {
          order: { table_id: null },
          dishes: [
            { dish_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', notes: 'ok' },
            { dish_id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', notes: `no onions${NUL}` },
          ],
        },
        field: 'dishes[1].notes',
      },
    ];
    for (const { method, url, payload, field } of requests) {
      const response = await test.app.inject({ method, url, payload, headers: { cookie: cookies } });
      assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`);
      assert.deepEqual(
        response.json(),
        { message: 'Validation failed', details: [{ field, message: 'must not contain NUL characters' }] },
        `${method} ${url}`,
      );
    }
    // Categories answer their schema failures with the spec's own message.
    const category = await test.app.inject({
      method: 'POST',
      url: '/categories',
      payload: { name: `Desserts${NUL}`, type: 'dish' },
      headers: { cookie: cookies },
    });
    assert.equal(category.statusCode, 400, category.body);
    assert.deepEqual(category.json(), { message: 'Failed to create category' });
    assert.deepEqual(await databaseDigest(test.db), before);
  });

  it('still takes the same text without NUL', async (t) => {
    const test = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(test.app, test.db, 'admin');
    const response = await test.app.inject({
      method: 'POST',
      url: '/spaces',
      payload: { name: 'Terrace \u00e9\u{1F600}' },
      headers: { cookie: cookies },
    });
    assert.equal(response.statusCode, 201, response.body);
  });
});
