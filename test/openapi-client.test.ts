import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { databaseTargets } from './helpers/database';

/**
 * The typed client is generated from the live document at test time into a git-ignored file, not
 * committed: every schema change would otherwise need a regenerated file in the same commit, and
 * branches that change schemas in parallel would conflict on it. test/client is outside the main
 * tsconfig (its import of the generated file would not resolve before generation) and has its own.
 */
const CLIENT_DIRECTORY = join(import.meta.dirname, 'client');
const GENERATED_FILE = join(CLIENT_DIRECTORY, 'generated', 'api.ts');
const run = promisify(execFile);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

type ScenarioReport = {
  initializedBefore: boolean;
  adminId: string;
  loggedInAs: string;
  categoryId: string;
  dishCategories: { id: string; name: string }[];
  duplicate: { status: number; message: string };
  anonymous: { status: number; message: string };
};
type Scenario = {
  runScenario: (baseUrl: string, admin: { name: string; pin: string }) => Promise<ScenarioReport>;
};

describe('a typed client generated from the OpenAPI document', () => {
  it('compiles, with a program using it, under tsc strict', async (t) => {
    // The document is the same whatever the database, so one engine generates it.
    const [target] = databaseTargets as [(typeof databaseTargets)[number]];
    const { app } = await buildTestApp(t, target);
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    mkdirSync(join(CLIENT_DIRECTORY, 'generated'), { recursive: true });
    writeFileSync(GENERATED_FILE, astToString(await openapiTS(document)));

    await run(process.execPath, [tsc, '--project', join(CLIENT_DIRECTORY, 'tsconfig.json')]).catch(
      (error: { stdout?: string }) => assert.fail(`tsc failed:\n${error.stdout ?? String(error)}`),
    );
  });

  describeEachDatabase('against a listening server', (target) => {
    it('sets up, logs in with cookies, creates and lists a category, and reports refusals', async (t) => {
      const { app, db } = await buildTestApp(t, target);
      const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
      // A path tsc does not follow: the program is type-checked by its own tsconfig above.
      const scenario: Scenario = await import(pathToFileURL(join(CLIENT_DIRECTORY, 'scenario.ts')).href);

      const report = await scenario.runScenario(baseUrl, { name: 'Ana', pin: '1234' });

      assert.equal(report.initializedBefore, false);
      assert.equal(report.loggedInAs, 'Ana');
      assert.deepEqual(report.dishCategories, [
        { id: report.categoryId, name: 'Desserts', station: 'kitchen' },
      ]);
      assert.deepEqual(report.duplicate, { status: 400, message: 'Failed to create category' });
      assert.deepEqual(report.anonymous, { status: 401, message: 'Unauthorized' });
      const stored = await db.selectFrom('categories').select(['id', 'name', 'type']).execute();
      assert.deepEqual(stored, [{ id: report.categoryId, name: 'Desserts', type: 'dish' }]);
      const admin = await db.selectFrom('users').select(['id', 'name', 'role']).execute();
      assert.deepEqual(admin, [{ id: report.adminId, name: 'Ana', role: 'admin' }]);
    });
  });
});
