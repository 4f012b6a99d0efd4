import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { newId } from '../src/core/ids';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { insertDish, insertOrder } from './helpers/factories';
import { allRows } from './helpers/menu-factories';

/**
 * Many clients send `Content-Type: application/json` with an empty body on a POST that takes none
 * (a real one did so on every /auth/refresh). Such a request must be answered as if no body came.
 */

type OpenApiDocument = { paths: Record<string, { post?: { requestBody?: unknown } }> };

async function bodilessPosts(app: FastifyInstance): Promise<string[]> {
  await app.ready();
  const document = app.swagger() as OpenApiDocument;
  return Object.entries(document.paths)
    .filter(([, item]) => item.post && item.post.requestBody === undefined)
    .map(([path]) => path);
}

const EMPTY_JSON = { 'content-type': 'application/json' };

/** Fields minted fresh by each request (a pairing code, a link's token): the same answer holds others. */
const MINTED = new Set(['code', 'token', 'url']);

function comparable(response: LightMyRequestResponse) {
  let body: unknown = response.body;
  try {
    const parsed: unknown = JSON.parse(response.body);
    body =
      parsed && typeof parsed === 'object' && !Array.isArray(parsed)
        ? Object.fromEntries(
            Object.entries(parsed).map(([name, value]) => [name, MINTED.has(name) ? typeof value : value]),
          )
        : parsed;
  } catch {
    // Not JSON: compared as it is.
  }
  return { status: response.statusCode, body };
}

describeEachDatabase('empty JSON bodies', (target) => {
  it('answers every POST without a request body the same with or without an empty JSON body', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const paths = await bodilessPosts(app);
    for (const named of ['/auth/refresh', '/auth/logout', '/orders/{id}/close', '/wallet/logout']) {
      assert.ok(paths.includes(named), `${named} is not a bodiless POST of the document`);
    }
    const send = async (path: string, headers: Record<string, string>): Promise<LightMyRequestResponse> => {
      // A session of its own for each request: logging out or refreshing must not change the next one.
      const { cookies } = await loggedInUser(app, db, 'admin');
      const url = path.replace(/\{[^}]+\}/g, () => newId());
      return app.inject({ method: 'POST', url, headers: { cookie: cookies, ...headers }, payload: '' });
    };
    for (const path of paths) {
      const withoutBody = await send(path, {});
      const withEmptyJson = await send(path, EMPTY_JSON);
      assert.deepEqual(comparable(withEmptyJson), comparable(withoutBody), `POST ${path}`);
    }
  });

  // `POST /orders/{id}/send` takes an optional `{course}` since issue 23, so it is no longer bodiless in
  // the document; an empty JSON body must still send every pending plate, as below.
  it('refreshes, sends to the kitchen, closes and logs out with an empty JSON body', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const post = (url: string) =>
      app.inject({ method: 'POST', url, headers: { cookie: cookies, ...EMPTY_JSON }, payload: '' });

    const refreshed = await post('/auth/refresh');
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    assert.deepEqual(refreshed.json(), { message: 'Token refreshed successfully' });

    const order = await insertOrder(db);
    const dish = await insertDish(db);
    const added = await app.inject({
      method: 'POST',
      url: `/orders/${order.id}/dishes`,
      headers: { cookie: cookies },
      payload: [{ dish_id: dish.id }],
    });
    assert.equal(added.statusCode, 201, added.body);
    const sent = await post(`/orders/${order.id}/send`);
    assert.equal(sent.statusCode, 200, sent.body);

    const emptyOrder = await insertOrder(db);
    const closed = await post(`/orders/${emptyOrder.id}/close`);
    assert.equal(closed.statusCode, 200, closed.body);
    assert.equal(closed.json().status, 'completed');

    const loggedOut = await post('/auth/logout');
    assert.equal(loggedOut.statusCode, 200, loggedOut.body);
    assert.deepEqual(loggedOut.json(), { message: 'Logout successful' });
  });

  it('still refuses an empty body where the route needs one, and stores nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const response = await app.inject({
      method: 'POST',
      url: '/spaces',
      headers: { cookie: cookies, ...EMPTY_JSON },
      payload: '',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().message, 'Validation failed');
    assert.deepEqual(await allRows(db, 'spaces'), []);

    const malformed = await app.inject({
      method: 'POST',
      url: '/auth/refresh',
      headers: { cookie: cookies, ...EMPTY_JSON },
      payload: '{',
    });
    assert.equal(malformed.statusCode, 400, 'a body that is not JSON is still refused');
  });
});
