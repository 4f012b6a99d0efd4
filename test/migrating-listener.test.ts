import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../src/app';
import { listenWhileMigrating } from '../src/core/migrating-listener';
import { describeEachDatabase, testConfig } from './helpers/app';
import { unmigratedDatabase } from './helpers/migrations';

it('answers on the port while the schema migrates: /health migrating, /health/live ok, the rest 503', async () => {
  const listener = await listenWhileMigrating(0, '127.0.0.1');
  assert.ok(listener);
  try {
    const base = `http://127.0.0.1:${listener.port}`;
    const health = await fetch(`${base}/health`);
    assert.deepEqual([health.status, await health.json()], [503, { status: 'migrating', database: 'ok' }]);
    const live = await fetch(`${base}/health/live`);
    assert.deepEqual([live.status, await live.json()], [200, { status: 'ok' }]);
    const other = await fetch(`${base}/orders?status=open`, { method: 'POST' });
    assert.deepEqual([other.status, await other.json()], [503, { message: 'Migrating the database' }]);
    assert.equal(await listenWhileMigrating(listener.port, '127.0.0.1'), undefined, 'a taken port: none');
  } finally {
    await listener.close();
  }
});

describeEachDatabase('the listener of an upgrade', (target) => {
  it('is asked for when an existing database has schema migrations to run, not on a first install or a restart', async (t) => {
    const calls: string[] = [];
    const onSchemaUpgrade = async () => {
      calls.push('upgrade');
    };
    const { database, migrator, url } = await unmigratedDatabase(t, target);
    const config = testConfig({ DATABASE_URL: url });
    const first = await buildApp(config, { database, startJobs: false, onSchemaUpgrade });
    await first.close();
    assert.deepEqual(calls, [], 'a first install');
    const restart = await buildApp(config, { database, startJobs: false, onSchemaUpgrade });
    await restart.close();
    assert.deepEqual(calls, [], 'nothing to migrate');
    const migrations = await migrator.getMigrations();
    const previous = migrations.at(-2)?.name as string;
    assert.equal((await migrator.migrateTo(previous)).error, undefined);
    const upgrade = await buildApp(config, { database, startJobs: false, onSchemaUpgrade });
    t.after(() => upgrade.close());
    assert.deepEqual(calls, ['upgrade']);
  });
});
