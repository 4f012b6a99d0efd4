import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { guestPageRoutes, webAppRoutes } from '../src/web/web.routes';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { databaseTargets } from './helpers/database';
import { insertUser } from './helpers/factories';
import { callerFor } from './helpers/orders-factories';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

/** A built app's layout in a temporary folder: index.html, a hashed asset, the service worker. */
function builtFolder(t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), 'pos-web-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>POS</title>');
  writeFileSync(join(root, 'assets', 'app-ABC123.js'), 'console.log(1)');
  writeFileSync(join(root, 'service-worker.js'), 'self.x = 1');
  return root;
}

async function serving(t: TestContext, root: string) {
  const app = Fastify();
  await app.register(webAppRoutes, { root });
  t.after(() => app.close());
  return app;
}

describe('the web app at /app', () => {
  it('answers index.html for every screen address, so a reload on any screen works', async (t) => {
    const app = await serving(t, builtFolder(t));
    for (const url of ['/app/', '/app/floor', '/app/orders/0b7e3c1e-1111-4a2b-9c3d-123456789abc']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.match(response.headers['content-type'] as string, /^text\/html/);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(response.body, /<title>POS<\/title>/);
    }
    const bare = await app.inject({ method: 'GET', url: '/app' });
    assert.equal(bare.statusCode, 302);
    assert.equal(bare.headers.location, '/app/');
  });

  it('lets browsers keep hashed assets for good but revalidate the service worker', async (t) => {
    const app = await serving(t, builtFolder(t));
    const asset = await app.inject({ method: 'GET', url: '/app/assets/app-ABC123.js' });
    assert.equal(asset.statusCode, 200);
    assert.match(asset.headers['content-type'] as string, /javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const worker = await app.inject({ method: 'GET', url: '/app/service-worker.js' });
    assert.equal(worker.statusCode, 200);
    assert.equal(worker.headers['cache-control'], 'no-cache');
  });

  it('sends the brotli or gzip file the build made, as the browser accepts, with the same caching', async (t) => {
    const root = builtFolder(t);
    const script = 'console.log("the till");'.repeat(50);
    const html = '<!doctype html><title>POS</title>'.padEnd(2000, ' ');
    for (const [file, content] of [
      ['assets/app-ABC123.js', script],
      ['index.html', html],
      ['service-worker.js', script],
    ] as const) {
      writeFileSync(join(root, file), content);
      writeFileSync(join(root, `${file}.br`), brotliCompressSync(content));
      writeFileSync(join(root, `${file}.gz`), gzipSync(content));
    }
    const app = await serving(t, root);
    const get = (url: string, acceptEncoding?: string) =>
      app.inject({
        method: 'GET',
        url,
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });

    const brotli = await get('/app/assets/app-ABC123.js', 'gzip, deflate, br');
    assert.equal(brotli.statusCode, 200);
    assert.equal(brotli.headers['content-encoding'], 'br');
    assert.match(brotli.headers.vary as string, /accept-encoding/i);
    assert.match(brotli.headers['content-type'] as string, /javascript/);
    assert.equal(brotli.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(brotliDecompressSync(brotli.rawPayload).toString(), script);

    const gzip = await get('/app/assets/app-ABC123.js', 'gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.rawPayload).toString(), script);

    const identity = await get('/app/assets/app-ABC123.js');
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.body, script);

    for (const url of ['/app/', '/app/floor', '/app/service-worker.js']) {
      const page = await get(url, 'br');
      assert.equal(page.headers['content-encoding'], 'br', url);
      assert.equal(page.headers['cache-control'], 'no-cache', url);
      assert.ok(brotliDecompressSync(page.rawPayload).length > 0);
    }
  });

  it('answers 404 for a missing file and never serves outside its folder', async (t) => {
    const root = builtFolder(t);
    writeFileSync(join(root, '..', `secret-${process.pid}.txt`), 'the contents of a file outside');
    t.after(() => rmSync(join(root, '..', `secret-${process.pid}.txt`), { force: true }));
    const app = await serving(t, root);
    assert.equal((await app.inject({ method: 'GET', url: '/app/assets/missing-1.js' })).statusCode, 404);
    for (const url of [`/app/../secret-${process.pid}.txt`, `/app/%2e%2e/secret-${process.pid}.txt`]) {
      const response = await app.inject({ method: 'GET', url });
      assert.ok([403, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
      assert.doesNotMatch(response.body, /contents of a file outside/);
    }
  });

  it('says how to build it when dist/web is missing', async (t) => {
    const app = await serving(t, join(tmpdir(), `pos-web-missing-${process.pid}`));
    const response = await app.inject({ method: 'GET', url: '/app/floor' });
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { message: 'The web app is not built: run npm run build' });
  });

  it('is public and left out of the API document', async (t) => {
    const [target] = databaseTargets as [(typeof databaseTargets)[number]];
    const { app } = await buildTestApp(t, target);
    assert.notEqual((await app.inject({ method: 'GET', url: '/app/floor' })).statusCode, 401);
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    assert.ok(!Object.keys(document.paths).some((path) => path.startsWith('/app')));
  });
});

describe('the guest page at /g/{token}', () => {
  /** The built layout: the staff app at the root, the guest page under guest/. */
  async function servingBoth(t: TestContext) {
    const root = builtFolder(t);
    mkdirSync(join(root, 'guest', 'assets'), { recursive: true });
    writeFileSync(join(root, 'guest', 'index.html'), '<!doctype html><title>Guest</title>');
    writeFileSync(join(root, 'guest', 'assets', 'guest-XYZ789.js'), 'console.log(2)');
    const app = Fastify();
    await app.register(webAppRoutes, { root });
    await app.register(guestPageRoutes, { root });
    t.after(() => app.close());
    return app;
  }

  it('serves its own page for any token, never cached, and its assets under /g/assets/ only', async (t) => {
    const app = await servingBoth(t);
    for (const token of ['3q2-7wAbC_any-token', 'not-a-token']) {
      const page = await app.inject({ method: 'GET', url: `/g/${token}` });
      assert.equal(page.statusCode, 200, token);
      assert.match(page.headers['content-type'] as string, /^text\/html/);
      assert.equal(page.headers['cache-control'], 'no-store');
      assert.match(page.body, /<title>Guest<\/title>/, 'the guest page, not the staff app');
    }
    const asset = await app.inject({ method: 'GET', url: '/g/assets/guest-XYZ789.js' });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.body, 'console.log(2)');
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const staffAsset = await app.inject({ method: 'GET', url: '/g/assets/app-ABC123.js' });
    assert.equal(staffAsset.statusCode, 404, 'no staff asset under /g/');
    for (const url of [
      '/g/assets/../../index.html',
      '/g/assets/%2e%2e/%2e%2e/index.html',
      '/g/../index.html',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      assert.doesNotMatch(response.body, /<title>POS<\/title>/, `${url}: nothing of the staff app under /g/`);
    }
  });

  it('is public and left out of the API document', async (t) => {
    const [target] = databaseTargets as [(typeof databaseTargets)[number]];
    const { app } = await buildTestApp(t, target);
    const page = await app.inject({ method: 'GET', url: '/g/some-token' });
    assert.notEqual(page.statusCode, 401);
    assert.equal(page.headers['cache-control'], 'no-store');
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    assert.ok(!Object.keys(document.paths).some((path) => path.startsWith('/g/')));
  });
});

describeEachDatabase('GET /auth/staff', (target) => {
  it('lists the names of live users, sorted, with their PIN lengths and nothing else, without a login', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    await insertUser(db, { name: 'Zoe', role: 'waiter' });
    await insertUser(db, { name: 'Ana', role: 'admin' });
    const gone = await insertUser(db, { name: 'Bea', role: 'staff' });
    await db.updateTable('users').set({ is_deleted: 1 }).where('id', '=', gone.id).execute();

    const response = await app.inject({ method: 'GET', url: '/auth/staff' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), [
      { name: 'Ana', pin_length: 4 },
      { name: 'Zoe', pin_length: 4 },
    ]);
  });

  it('keeps the length of a PIN set through the API, a changed one, and none for a PIN of before', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    const created = await call('POST', '/users', { name: 'Ines', pin: '135790', role: 'waiter' });
    assert.equal(created.statusCode, 201, created.body);
    const lengthOf = async (name: string) =>
      (
        (await app.inject({ method: 'GET', url: '/auth/staff' })).json() as {
          name: string;
          pin_length: number | null;
        }[]
      ).find((staff) => staff.name === name)?.pin_length;
    assert.equal(await lengthOf('Ines'), 6);

    const changed = await call('PUT', `/users/${created.json().id}`, {
      name: 'Ines',
      pin: '24681357',
      role: 'waiter',
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(await lengthOf('Ines'), 8);
    const renamedRoleOnly = await call('PUT', `/users/${created.json().id}`, {
      name: 'Ines',
      role: 'cashier',
    });
    assert.equal(renamedRoleOnly.statusCode, 200, renamedRoleOnly.body);
    assert.equal(await lengthOf('Ines'), 8, 'a change without a PIN keeps the length');

    await db.updateTable('users').set({ pin_length: null }).where('name', '=', 'Ines').execute();
    assert.equal(await lengthOf('Ines'), null);
  });
});
