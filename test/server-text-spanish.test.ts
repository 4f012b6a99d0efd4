import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { serverTexts } from './e2e/web/spanish-strings';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { callerFor } from './helpers/orders-factories';

/** The Spanish the web app has for the server's texts (web/src/core/server-text.ts). */
const spanish = serverTexts(join(import.meta.dirname, '..', 'web', 'src'));

describeEachDatabase('server texts in Spanish', (target) => {
  it('has Spanish for every permission and every built-in role that Personal y roles lists', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const permissions = (await admin('GET', '/permissions')).json() as { description: string }[];
    const roles = (await admin('GET', '/roles')).json() as { name: string; description: string }[];
    assert.ok(permissions.length > 0 && roles.length > 0);
    // `display` keeps its name: the manual calls that role by it.
    const texts = [
      ...permissions.map((permission) => permission.description),
      ...roles.flatMap((role) =>
        role.name === 'display' ? [role.description] : [role.name, role.description],
      ),
    ];
    assert.deepEqual(
      texts.filter((text) => !spanish.get(text)),
      [],
      'shown in English on a Spanish screen',
    );
  });
});
