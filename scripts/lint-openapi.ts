import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

/** Lints the document the server serves at /swagger/json with Spectral's CLI and `.spectral.yaml`. */
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).body;
await app.close();

const directory = mkdtempSync(join(tmpdir(), 'pos-openapi-'));
const file = join(directory, 'openapi.json');
writeFileSync(file, document);
const spectral = spawnSync(
  'spectral',
  ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'error', file, ...process.argv.slice(2)],
  { stdio: 'inherit', shell: process.platform === 'win32' },
);
rmSync(directory, { recursive: true, force: true });
process.exit(spectral.status ?? 1);
