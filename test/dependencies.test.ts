import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ImportGraph, importCircles, importGraph } from './helpers/import-graph';

/**
 * Arrows point down (../shared/style.md): no file reaches itself through its imports, `core/` and
 * `config.ts` use no feature (a feature hands them what they need at buildApp time), and a migration
 * imports no feature, so it does the same on every database whenever it runs. Type-only imports
 * count: a circle of types ties its files together as much as one of values.
 */
const server = importGraph('src', 'tsconfig.json');
const web = importGraph('web/src', 'web/tsconfig.json');

function circlesOf(graph: ImportGraph, tree: string): void {
  const found = importCircles(graph).map(
    ({ circle, tangled }) =>
      `  ${circle.join('\n    → ')}${tangled.length > 0 ? `\n    (the same tangle holds ${tangled.join(', ')})` : ''}`,
  );
  assert.deepEqual(
    found,
    [],
    `Import circles in ${tree}/ (each file imports, through the others, itself; type-only imports count). ` +
      `Move what both sides need into a module of its own, or hand it in as a function:\n${found.join('\n')}`,
  );
}

/** The imports of files under `from` that leave `allowed`, as "importer → imported". */
function importsLeaving(from: (file: string) => boolean, allowed: (file: string) => boolean): string[] {
  return [...server]
    .filter(([file]) => from(file))
    .flatMap(([file, imports]) =>
      [...imports].filter((target) => !allowed(target)).map((target) => `${file} → ${target}`),
    );
}

const isPlumbing = (file: string) => file.startsWith('src/core/') || file === 'src/config.ts';
const isMigration = (file: string) => file.startsWith('src/core/db/migrations/');

describe('imports', () => {
  it('reads the real import graph', () => {
    // A resolver that found nothing would pass every rule below.
    assert.ok(server.get('src/app.ts')?.has('src/context.ts'));
    assert.ok(server.get('src/core/db/database.ts')?.has('src/core/db/migrations/index.ts'));
    assert.ok(web.get('web/src/main.tsx')?.has('web/src/app.tsx'));
  });

  it('finds a circle, the shortest way round, and the files tangled with it', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts', 'd.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['b.ts'])],
      ['e.ts', new Set(['a.ts', 'e.ts'])],
    ]);
    assert.deepEqual(importCircles(graph), [
      { circle: ['a.ts', 'b.ts', 'c.ts', 'a.ts'], tangled: ['d.ts'] },
      { circle: ['e.ts', 'e.ts'], tangled: [] },
    ]);
  });

  it('runs in no circle in src/', () => circlesOf(server, 'src'));

  it('runs in no circle in web/src/', () => circlesOf(web, 'web/src'));

  it('keeps core/ and config.ts below the features', () => {
    const leaving = importsLeaving(isPlumbing, isPlumbing);
    assert.deepEqual(
      leaving,
      [],
      'src/core/ and src/config.ts import only each other; what they need of a feature is handed in at ' +
        `buildApp time (a function or a port typed in core/), or the code belongs to the composition root:\n  ${leaving.join('\n  ')}`,
    );
  });

  it('keeps migrations frozen: they import no feature', () => {
    const leaving = importsLeaving(isMigration, (file) => file.startsWith('src/core/'));
    assert.deepEqual(
      leaving,
      [],
      'A migration imports nothing from src/<feature>/: copy the SQL or helper it needs into it, as it is ' +
        `today, so a later change of the feature cannot change what the migration does:\n  ${leaving.join('\n  ')}`,
    );
  });
});
