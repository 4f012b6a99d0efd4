import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';

describeEachDatabase('general endpoints', (target) => {
  it('answers the root path with plain text', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/plain/);
    assert.match(response.body, /root path/);
  });

  it('names the configured base currency by the id of a currency row', async (t) => {
    const { app } = await buildTestApp(t, target, { env: { POS_BASE_CURRENCY: 'USD' } });
    const currencies = (await app.inject({ method: 'GET', url: '/currencies' })).json();
    assert.deepEqual(currencies.map((currency: { code: string }) => currency.code).sort(), [
      'BTC',
      'MXN',
      'USD',
    ]);
    const base = await app.inject({ method: 'GET', url: '/base-currency' });
    assert.equal(base.statusCode, 200);
    const usd = currencies.find((currency: { code: string }) => currency.code === 'USD');
    assert.deepEqual(base.json(), { currency_id: usd.id });
  });

  it('reports liveness and database readiness', async (t) => {
    const { app } = await buildTestApp(t, target);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/health/live' })).json(), { status: 'ok' });
    const health = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200);
    assert.deepEqual(health.json(), { status: 'ok', database: 'ok' });
  });

  it('answers unknown routes with the bare 404 text', async (t) => {
    const { app } = await buildTestApp(t, target);
    const response = await app.inject({ method: 'GET', url: '/no/such/route' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.body, 'Resource not found');
  });

  it('serves the OpenAPI document and the Swagger UI without a login', async (t) => {
    const { app } = await buildTestApp(t, target);
    const ui = await app.inject({ method: 'GET', url: '/swagger' });
    assert.ok([200, 302].includes(ui.statusCode));
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    assert.equal(document.openapi, '3.0.3');
    assert.ok(document.paths['/auth/login'].post);
  });
});
