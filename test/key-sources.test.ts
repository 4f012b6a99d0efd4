import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it, type TestContext } from 'node:test';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { PIN_KEY_MISMATCH } from '../src/core/secrets';
import { startupSummary } from '../src/core/startup';
import { describeEachDatabase } from './helpers/app';
import { runScript } from './helpers/cli';
import type { DatabaseTarget } from './helpers/database';

const OWNER = { name: 'Owner', pin: '1234' };

/** A database that outlives one app (a SQLite file, or a PostgreSQL database), in a folder for key files. */
async function databaseKeptAcrossStarts(t: TestContext, target: DatabaseTarget) {
  const folder = mkdtempSync(join(tmpdir(), 'pos-keys-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const { url, drop } =
    target.name === 'sqlite'
      ? { url: `sqlite:${join(folder, 'pos.db')}`, drop: async () => {} }
      : await target.url();
  t.after(drop);
  return { folder, url };
}
const OTHER_KEY = 'another-pin-key-0123456789abcdef0123456789';

describeEachDatabase('moving the keys out of the database', (target) => {
  it('refuses to start with a PIN key the database was not made with, and keys-export moves the kept keys to files that work', async (t) => {
    const { folder, url } = await databaseKeptAcrossStarts(t, target);
    const configWith = (env: Record<string, string>) =>
      loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, ...env });

    // The first start keeps generated keys in the database; an owner is set up and audited.
    const first = await buildApp(configWith({}));
    const setup = await first.inject({ method: 'POST', url: '/initial-setup', payload: OWNER });
    assert.equal(setup.statusCode, 201, setup.body);
    await first.close();

    // The deployment guide's files, holding a key of their own: refused, with how to move instead.
    writeFileSync(join(folder, 'other-key'), OTHER_KEY, { mode: 0o600 });
    const fromOtherFile = configWith({ POS_PIN_KEY_FILE: join(folder, 'other-key') });
    assert.equal(fromOtherFile.keySources.pinKey, 'file');
    await assert.rejects(buildApp(fromOtherFile), { message: PIN_KEY_MISMATCH });

    const exported = await runScript('pos', ['keys-export', '--to', join(folder, 'keys')], {
      databaseUrl: url,
      env: { POS_PIN_KEY: '', POS_JWT_SECRET: '' },
    });
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /set POS_PIN_KEY_FILE=.*pin-key and POS_JWT_SECRET_FILE=.*jwt-secret/);
    assert.equal(statSync(join(folder, 'keys', 'pin-key')).mode & 0o777, 0o600);
    assert.equal(statSync(join(folder, 'keys')).mode & 0o777, 0o700);

    const fromFiles = configWith({
      POS_PIN_KEY_FILE: join(folder, 'keys', 'pin-key'),
      POS_JWT_SECRET_FILE: join(folder, 'keys', 'jwt-secret'),
    });
    const moved = await buildApp(fromFiles);
    t.after(() => moved.close());
    const login = await moved.inject({ method: 'POST', url: '/auth/login', payload: OWNER });
    assert.equal(login.statusCode, 200, login.body);
    const cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const verified = await moved.inject({ method: 'GET', url: '/audit/verify', headers: { cookie } });
    assert.equal(verified.json().ok, true, verified.body);

    const summary = startupSummary(fromFiles, { address: null, hasAdmin: true });
    assert.ok(
      summary.includes('  keys:      PIN key POS_PIN_KEY_FILE, session key POS_JWT_SECRET_FILE'),
      summary.join('\n'),
    );
    const kept = startupSummary(configWith({}), { address: null, hasAdmin: true });
    assert.ok(kept.some((line) => line.includes('PIN key kept in the database')));
  });

  it('refuses a start whose PIN key differs from the one it was made with, from the environment too', async (t) => {
    const { url } = await databaseKeptAcrossStarts(t, target);
    const configWith = (pinKey: string) =>
      loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url, POS_PIN_KEY: pinKey });
    const first = await buildApp(configWith('first-pin-key-0123456789abcdef0123456789'));
    await first.close();
    await assert.rejects(buildApp(configWith(OTHER_KEY)), { message: PIN_KEY_MISMATCH });
    // Nor back to a key the database would generate for itself.
    await assert.rejects(buildApp(loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: url })), {
      message: PIN_KEY_MISMATCH,
    });
    const again = await buildApp(configWith('first-pin-key-0123456789abcdef0123456789'));
    await again.close();
  });
});
