import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildTestApp } from '../helpers/app';
import { databaseTargets } from '../helpers/database';

const run = promisify(execFile);

function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

/** The page's DOM after its scripts ran, as headless Chromium sees it. */
async function renderedDom(chromium: string, url: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'pos-chromium-'));
  try {
    const { stdout } = await run(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        `--user-data-dir=${profile}`,
        '--virtual-time-budget=15000',
        // Swagger UI renders what the window shows, as a reader scrolls; past ~137 operations the
        // default 800x600 window left the rest unrendered. A window as tall as the list shows them all.
        '--window-size=1280,30000',
        '--dump-dom',
        url,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const chromium = findChromium();
const skip =
  chromium === undefined && process.env.CI !== 'true'
    ? 'chromium is not installed (apt-get install chromium)'
    : false;

// The page is the same whatever the database, so one engine is enough here.
describe('Swagger UI in a browser', () => {
  const [target] = databaseTargets as [(typeof databaseTargets)[number]];
  it('renders every operation of the OpenAPI document', { skip }, async (t) => {
    assert.ok(chromium, 'CI must have chromium');
    const { app } = await buildTestApp(t, target);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
    const dom = await renderedDom(chromium, `${address}/swagger`);

    const renderedPaths = new Set(
      [...dom.matchAll(/class="opblock-summary-path" data-path="([^"]+)"/g)].map((m) => m[1]),
    );
    const documentedPaths = Object.keys(document.paths);
    assert.ok(documentedPaths.length > 5);
    assert.deepEqual([...renderedPaths].sort(), documentedPaths.sort());
    assert.match(dom, /Restaurant POS API/);
  });
});
