import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';

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

  it('tells a manager the addresses tablets can open, and nobody else', async (t) => {
    const { app, db } = await buildTestApp(t, target, {
      env: { HOST: '0.0.0.0', PORT: '8123', POS_ALLOWED_HOSTS: 'pos.casa-pepe.mx,caja.local' },
    });
    const lan = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .filter((address) => address.family === 'IPv4' && !address.internal)
      .map((address) => address.address);
    const manager = await loggedInUser(app, db, 'manager');
    const network = await app.inject({
      method: 'GET',
      url: '/network',
      headers: { cookie: manager.cookies },
    });
    assert.equal(network.statusCode, 200);
    assert.deepEqual(network.json(), {
      port: 8123,
      listens_on_lan: true,
      lan_addresses: [...new Set(lan)],
      allowed_hosts: ['pos.casa-pepe.mx', 'caja.local'],
    });
    assert.ok(!network.json().lan_addresses.includes('127.0.0.1'), 'the loopback address is not offered');

    const waiter = await loggedInUser(app, db, 'waiter');
    const refused = await app.inject({ method: 'GET', url: '/network', headers: { cookie: waiter.cookies } });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(refused.json(), { message: 'Unauthorized API access' });
    assert.equal((await app.inject({ method: 'GET', url: '/network' })).statusCode, 401);
  });

  it('says when the server listens only on this machine, with the port it really listens on', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await loggedInUser(app, db, 'admin');
    const network = await fetch(`${baseUrl}/network`, { headers: { cookie: admin.cookies } });
    assert.equal(network.status, 200);
    const body = (await network.json()) as { listens_on_lan: boolean; port: number; allowed_hosts: string[] };
    assert.equal(body.listens_on_lan, false);
    assert.equal(body.port, Number(new URL(baseUrl).port));
    assert.deepEqual(body.allowed_hosts, []);
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
