import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildTestApp } from '../../helpers/app';
import type { DatabaseTarget } from '../../helpers/database';
import { buildWalletTestApp, listenForWebhooks } from '../../helpers/wallet-factories';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

const root = join(import.meta.dirname, '..', '..', '..');
export const SCREENSHOTS = join(root, 'test-results', 'screenshots');
export const WEB_ROOT = join(root, 'dist', 'web');
const METRICS = join(root, 'test-results', 'web-metrics.json');
const run = promisify(execFile);

function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((candidate) => candidate && existsSync(candidate));
}

export const chromiumPath = findChromium();
/** Browser tests skip where there is no Chromium, except in CI, which installs it. */
export const skipWithoutChromium =
  chromiumPath === undefined && process.env.CI !== 'true'
    ? 'chromium is not installed (apt-get install chromium)'
    : false;

let built: Promise<unknown> | undefined;
/** The web app as `npm start` serves it: built once per test process into dist/web. */
export function buildWebApp(): Promise<unknown> {
  built ??= run(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root });
  return built;
}

/** 1 BTC = 2,000,000.00 in the base currency, so Lightning amounts are easy to check. */
export const FIXED_PRICE = 2_000_000;

/**
 * A listening server with the web app built, the phoenixd simulator wired over real HTTP (its
 * webhook reaches the server) and the background jobs running, as in a restaurant.
 */
const browsersOf = new WeakMap<TestContext, Browser[]>();

/**
 * The server's clean-up, put after the test's browsers close: node:test runs `after` hooks in the
 * order they were registered, and a server closing while a browser still holds its live streams
 * sees them reconnect on kept-alive sockets, which can hold its close open for minutes.
 */
export function afterTheBrowsers(t: TestContext): TestContext {
  const cleanUps: (() => Promise<void> | void)[] = [];
  t.after(async () => {
    await Promise.all((browsersOf.get(t) ?? []).map((browser) => browser.close()));
    for (const cleanUp of cleanUps) await cleanUp();
  });
  return { after: (cleanUp) => cleanUps.push(cleanUp) };
}

export async function startWebServer(
  t: TestContext,
  target: DatabaseTarget,
  options: { withGuestLinks?: boolean; env?: Record<string, string> } = {},
) {
  await buildWebApp();
  // Guest links print POS_PUBLIC_URL, read once with the config: the server's own address, so a
  // phone in the test opens what the till shows. Its port is chosen before the server starts.
  const port = options.withGuestLinks ? await freePort() : 0;
  const built = await buildWalletTestApp(afterTheBrowsers(t), target, {
    env: {
      POS_RATE_SOURCE: `fixed:${FIXED_PRICE}`,
      ...(options.withGuestLinks && { POS_PUBLIC_URL: `http://127.0.0.1:${port}` }),
      ...options.env,
    },
    startJobs: true,
  });
  await listenForWebhooks(built.app, built.simulator, port);
  const address = built.app.server.address();
  assert.ok(address && typeof address === 'object');
  return { ...built, baseUrl: `http://127.0.0.1:${address.port}` };
}

/** A port nothing listens on now, for a server that must know its address before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A server without the wallet, for screens that do not need it; `env` configures it further. */
export async function startPlainWebServer(
  t: TestContext,
  target: DatabaseTarget,
  options: { env?: Record<string, string> } = {},
) {
  await buildWebApp();
  const built = await buildTestApp(afterTheBrowsers(t), target, { startJobs: true, env: options.env ?? {} });
  const baseUrl = await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...built, baseUrl };
}

export async function launchBrowser(t: TestContext): Promise<Browser> {
  assert.ok(chromiumPath, 'CI must have chromium');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  browsersOf.set(t, [...(browsersOf.get(t) ?? []), browser]);
  t.after(() => browser.close());
  return browser;
}

export type Device = 'tablet' | 'phone';
const VIEWPORTS = { tablet: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/**
 * The till asks GET /terminals whether a card terminal is configured and offers it only then; without
 * one the server answers 503 (its documented answer), which Chromium logs as a failed resource.
 */
const NO_CARD_TERMINAL =
  /^Failed to load resource: the server responded with a status of 503 \(Service Unavailable\) \(.*\/terminals\)$/;

/**
 * A page in its own browser context (its own cookies: one device), which records every console
 * error (but a till asking for a card terminal there is none of) and uncaught exception so a test can
 * assert there were none.
 */
export async function openDevice(
  browser: Browser,
  baseUrl: string,
  device: Device = 'tablet',
  locale: 'en-US' | 'es-MX' = 'en-US',
) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORTS[device], locale });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    const text = `${message.text()} (${message.location().url})`;
    if (message.type() === 'error' && !NO_CARD_TERMINAL.test(text)) consoleErrors.push(text);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { page, consoleErrors };
}

// Run through the DevTools protocol, which the page's Content-Security-Policy (no inline scripts)
// does not apply to: the policy under test stays as the server sends it.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core in the page: no serious or critical accessibility violation on what it shows now. */
export async function assertAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const { violations } = await axe.run();
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  });
  assert.deepEqual(violations, [], `${screen}: accessibility violations`);
}
type AxeViolation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };

/** Saves what the screen shows to test-results/screenshots/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Logs in through the login screen (in English or es-MX): tap the name, type the PIN. */
export async function logInThroughScreen(page: Page, name: string, pin: string): Promise<void> {
  await page.goto('/app/');
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByLabel('PIN').fill(pin);
  const logIn = page.getByRole('button', { name: /^(Log in|Entrar)$/ });
  // A PIN of known length logs in as its last digit is typed: the button may be gone already.
  if (await logIn.isVisible()) await logIn.click().catch(() => undefined);
  await page.getByRole('navigation', { name: /^(Screens|Pantallas)$/ }).waitFor();
}

/** Figures a browser test measured (sizes, timings), kept in test-results/web-metrics.json for the record. */
export function saveMetric(name: string, value: unknown): void {
  mkdirSync(dirname(METRICS), { recursive: true });
  const metrics = existsSync(METRICS)
    ? (JSON.parse(readFileSync(METRICS, 'utf8')) as Record<string, unknown>)
    : {};
  writeFileSync(METRICS, `${JSON.stringify({ ...metrics, [name]: value }, null, 2)}\n`);
}
