import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { stringTables } from './e2e/web/spanish-strings';

const WEB_SOURCE = join(import.meta.dirname, '..', 'web', 'src');

/**
 * One es-MX glossary for every screen and server message: Mexico says "agregar" (not Spain's
 * "añadir") and "ticket" for the printed receipt (not "recibo"; the bill itself is the "cuenta").
 */
const NOT_MEXICAN = [
  { word: /\bañad/i, use: 'agregar' },
  { word: /\brecibo/i, use: 'ticket' },
];

describe('Spanish glossary (es-MX)', () => {
  it('uses one word for each thing across the string tables and the server texts', () => {
    const { spanish } = stringTables(WEB_SOURCE);
    assert.ok(spanish.size > 500, 'the tables were read');
    const offending = [...spanish].flatMap((text) =>
      NOT_MEXICAN.filter(({ word }) => word.test(text)).map(({ use }) => `${text} (say "${use}")`),
    );
    assert.deepEqual(offending, []);
  });
});
