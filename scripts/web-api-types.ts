import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

/**
 * Generates the web app's API types from the OpenAPI document the server serves, into a git-ignored
 * file: the app has no hand-written request or response types, and a schema change that breaks a
 * screen fails `npm run typecheck`.
 */
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
await app.close();

const directory = join(import.meta.dirname, '..', 'web', 'src', 'api', 'generated');
mkdirSync(directory, { recursive: true });
writeFileSync(join(directory, 'schema.d.ts'), astToString(await openapiTS(document)));
