import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PERMISSIONS } from '../src/permissions/permissions';
import { serverTexts, stringTables } from './e2e/web/spanish-strings';
import { buildTestApp } from './helpers/app';
import { databaseTargets } from './helpers/database';

const WEB_SOURCE = join(import.meta.dirname, '..', 'web', 'src');
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/**
 * One es-MX glossary for every screen and server message: Mexico says "agregar" (not Spain's
 * "añadir") and "ticket" for the printed receipt (not "recibo"; the bill itself is the "cuenta"),
 * and a plate's seat is its "comensal" everywhere.
 */
const NOT_MEXICAN = [
  { word: /\bañad/i, use: 'agregar' },
  { word: /\brecibo/i, use: 'ticket' },
  // The guest page, the till, the kitchen and the paper call the person at a place "comensal".
  { word: /\basiento/i, use: 'comensal' },
];

/** How a screen speaks to a guest ("usted"), which a staff screen never does: it says "tú". */
const USTED =
  /\b(intente|escríbalo|emítala|revise|configure|suba|cancele|active|elija|toque|escriba|espere|su contador)\b/i;
/** The screens that face the guest: their phone, and the customer display at the counter. */
const isGuestFacing = (path: string) =>
  path.startsWith('guest') || path.startsWith(join('screens', 'display'));

describe('Spanish glossary (es-MX)', () => {
  it('uses one word for each thing across the string tables and the server texts', () => {
    const { spanish } = stringTables(WEB_SOURCE);
    assert.ok(spanish.size > 500, 'the tables were read');
    const offending = [...spanish].flatMap((text) =>
      NOT_MEXICAN.filter(({ word }) => word.test(text)).map(({ use }) => `${text} (say "${use}")`),
    );
    assert.deepEqual(offending, []);
  });

  it('speaks to the staff as "tú" on every staff screen and in the server texts they read', () => {
    const { spanish } = stringTables(WEB_SOURCE, (path) => !isGuestFacing(path));
    assert.deepEqual(
      [...spanish].filter((text) => USTED.test(text)),
      [],
    );
  });

  it('names every built-in role, its description and every permission in Spanish', async (t) => {
    const { db } = await buildTestApp(t, target);
    const roles = await db.selectFrom('roles').select(['name', 'description']).execute();
    assert.ok(
      roles.some((role) => role.name === 'display'),
      'the roles were seeded',
    );
    const shown = [...roles.flatMap((role) => [role.name, role.description]), ...Object.values(PERMISSIONS)];
    const spanish = serverTexts(WEB_SOURCE);
    assert.deepEqual(
      shown.filter((text) => !spanish.has(text)),
      [],
    );
  });
});
