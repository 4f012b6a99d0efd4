import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { webAppRoutes } from '../src/web/web.routes';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { databaseTargets } from './helpers/database';
import { insertUser } from './helpers/factories';

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

describeEachDatabase('GET /auth/staff', (target) => {
  it('lists the names of live users, sorted, and nothing else, without a login', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    await insertUser(db, { name: 'Zoe', role: 'waiter' });
    await insertUser(db, { name: 'Ana', role: 'admin' });
    const gone = await insertUser(db, { name: 'Bea', role: 'staff' });
    await db.updateTable('users').set({ is_deleted: 1 }).where('id', '=', gone.id).execute();

    const response = await app.inject({ method: 'GET', url: '/auth/staff' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), [{ name: 'Ana' }, { name: 'Zoe' }]);
  });
});
