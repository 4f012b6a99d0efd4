import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Config, ConfigError } from '../config';

/** package.json's `engines` (^22.12.0): the releases the server is built and tested for. */
const SUPPORTED_NODE = { major: 22, minMinor: 12 };

/**
 * One line when this Node.js is not one the server runs on: without it, an older one fails later on
 * a native module's ABI number, which tells an owner nothing.
 */
export function describeUnsupportedNode(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.split('.').map(Number);
  if (major === SUPPORTED_NODE.major && (minor ?? 0) >= SUPPORTED_NODE.minMinor) return undefined;
  return (
    `This server needs Node.js ${SUPPORTED_NODE.major} (${SUPPORTED_NODE.major}.${SUPPORTED_NODE.minMinor} or a later ${SUPPORTED_NODE.major}); ` +
    `this is Node.js ${version}. Install Node.js ${SUPPORTED_NODE.major} (docs/es/instalacion.md, section 1), then run npm ci again.`
  );
}

/** A start-up that cannot proceed, for a reason an operator can fix; its message says which. */
export class StartupError extends Error {}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** `DATABASE_URL` fit to print: the SQLite file's full path, a PostgreSQL URL without its password. */
export function describeDatabase(url: string): string {
  if (url === 'sqlite::memory:') return 'SQLite in memory (nothing is kept after a restart)';
  if (url.startsWith('sqlite:')) return `SQLite ${resolve(url.slice('sqlite:'.length))}`;
  return `PostgreSQL ${maskPassword(url)}`;
}

function maskPassword(url: string): string {
  if (!URL.canParse(url)) return 'postgres://…';
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** One line naming why the app could not be built: mostly the database (opened, migrated, read). */
export function describeBuildFailure(error: unknown, config: Config): string {
  if (error instanceof StartupError) return error.message;
  const { code, message } = errorParts(error);
  if (config.databaseUrl.startsWith('postgres')) {
    const database = describeDatabase(config.databaseUrl);
    if (code && UNREACHABLE_CODES.has(code)) return `Cannot reach the database (${database}): ${message}`;
    // PostgreSQL's own refusals: authentication (class 28) or a database that does not exist.
    if (code?.startsWith('28') || code === '3D000')
      return `The database refused the connection (${database}): ${message}`;
  }
  return `Start-up failed: ${message}`;
}

/** One line naming why the server could not listen on HOST:PORT. */
export function describeListenFailure(error: unknown, config: Config): string {
  const { code, message } = errorParts(error);
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE')
    return `Port ${config.port} is already in use on ${config.host}: stop the other server or set PORT`;
  if (code === 'EACCES')
    return `Not allowed to listen on ${where}: use a PORT above 1023 or grant the permission`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `HOST ${config.host} is not an address of this machine`;
  return `Cannot listen on ${where}: ${message}`;
}

export function describeConfigFailure(error: ConfigError): string {
  return `Invalid configuration: ${error.problems.join('; ')}`;
}

function errorParts(error: unknown): { code: string | undefined; message: string } {
  const candidate = error as { code?: unknown; message?: unknown; errors?: unknown[] };
  const code = typeof candidate?.code === 'string' ? candidate.code : undefined;
  // Connecting to "localhost" tries every address it resolves to; Node then throws an
  // AggregateError with an empty message and the reasons inside.
  const inner = Array.isArray(candidate?.errors) ? (candidate.errors[0] as Error | undefined) : undefined;
  const message = String(candidate?.message || inner?.message || code || error).split('\n')[0] as string;
  return { code, message };
}

/** What the Lightning probe found (lightning/node-probe.ts); core only prints it. */
export type LightningFact =
  | { state: 'not-configured' }
  | { state: 'answers'; nodeId: string; channels: number; canPay: boolean }
  | { state: 'refused' }
  | { state: 'unreachable'; reason: string };

/** The settings a restaurant's money and days hang on, as the database held them at start. */
export type RestaurantFact = {
  taxRateBasisPoints: number;
  pricesIncludeTax: boolean;
  timeZone: string;
  baseCurrency: string;
  locale: string;
  /** `needs-key`: switched on in the settings, but the server has no PAC key, so nothing is stamped. */
  invoicing: 'on' | 'off' | 'needs-key';
};

export type StartupFacts = {
  address: AddressInfo | string | null;
  hasAdmin: boolean;
  restaurant?: RestaurantFact;
  lightning?: LightningFact;
  /** When the newest scheduled backup was written (epoch ms), null when none is there yet. */
  lastBackupAt?: number | null;
};

/** The few lines an operator reads after `npm start`: where, on what, and what to do next. */
export function startupSummary(config: Config, facts: StartupFacts): string[] {
  const url = listeningUrl(config, facts.address);
  const everywhere =
    typeof facts.address === 'object' && ['0.0.0.0', '::'].includes(facts.address?.address ?? '');
  const lines = [`Restaurant POS listening on ${url}${everywhere ? ' (every network interface)' : ''}`];
  lines.push(`  database:  ${describeDatabase(config.databaseUrl)}`);
  lines.push(
    facts.hasAdmin
      ? '  admin:     set up'
      : `  admin:     none yet: open ${url}/app/ (or POST ${url}/initial-setup {"name","pin","wallet_password","country"}, or set POS_ADMIN_NAME and POS_ADMIN_PIN)`,
  );
  if (facts.restaurant) {
    lines.push(`  settings:  ${describeSettings(facts.restaurant)}`);
    lines.push(`  invoicing: ${describeInvoicing(config, facts.restaurant.invoicing)}`);
  }
  lines.push(`  rates:     ${describeRateSource(config)}`);
  lines.push(`  uber eats: ${describeDeliveryApp(config.deliveryApps.ubereats, 'POS_UBEREATS')}`);
  lines.push(`  rappi:     ${describeRappi(config)}`);
  lines.push(`  terminal:  ${describeCardTerminal(config)}`);
  lines.push(`  lightning: ${describeLightning(config, facts.lightning)}`);
  lines.push(`  keys:      ${describeKeys(config)}`);
  lines.push(`  backups:   ${describeBackups(config, facts.lastBackupAt ?? null)}`);
  lines.push(`  hosts:     ${describeHosts(config)}`);
  lines.push(`  proxy:     ${describeTrustProxy(config)}`);
  lines.push(`  web app:   ${url}/app/`);
  lines.push(`  API docs:  ${url}/swagger`);
  return lines;
}

function describeLightning(config: Config, fact: LightningFact | undefined): string {
  const node = `phoenixd at ${config.phoenixd.url}`;
  switch (fact?.state ?? (config.phoenixd.password === undefined ? 'not-configured' : undefined)) {
    case 'not-configured':
      return 'not configured (set PHOENIXD_PASSWORD; wallet routes answer 503 until then)';
    case 'answers': {
      const { nodeId, channels, canPay } = fact as Extract<LightningFact, { state: 'answers' }>;
      const webhook =
        config.phoenixd.webhookSecret === undefined
          ? '; no PHOENIXD_WEBHOOK_SECRET: payments settle by the sweep only'
          : '';
      const limited = canPay
        ? ''
        : ' but refuses payments: PHOENIXD_PASSWORD is http-password-limited-access; refunds and wallet payments answer 503 until it is http-password';
      return `${node} answers (node ${nodeId.slice(0, 16)}…, ${channels} channel${channels === 1 ? '' : 's'})${limited}${webhook}`;
    }
    case 'refused':
      return `${node} refused the password: set PHOENIXD_PASSWORD to http-password from ~/.phoenix/phoenix.conf`;
    case 'unreachable':
      return `${node} does not answer (${(fact as { reason: string }).reason}); wallet routes answer 503 until it does`;
    default:
      return node;
  }
}

/** A delivery app's store and where it is reached; never its secret. */
function describeDeliveryApp(app: Config['deliveryApps']['rappi'], prefix: string): string {
  if (app === undefined)
    return `off (set ${prefix}_CLIENT_ID, ${prefix}_CLIENT_SECRET and ${prefix}_STORE_ID)`;
  return `on, store ${app.storeId} at ${app.apiUrl}`;
}

/** Mercado Pago Point and how its charges settle; never the token or the secret. */
function describeCardTerminal(config: Config): string {
  const terminal = config.cardTerminal;
  if (terminal === undefined)
    return 'off (set POS_MP_ACCESS_TOKEN for Mercado Pago Point; the manual card method stays)';
  const notifications =
    terminal.webhookSecret === undefined
      ? 'no POS_MP_WEBHOOK_SECRET: charges settle by reading them back'
      : 'notifications at /terminals/mercadopago/webhook';
  return `Mercado Pago Point at ${terminal.apiUrl}, ${notifications}`;
}

/** Rappi's orders are always read; its webhooks come in addition only where the server has a public URL. */
function describeRappi(config: Config): string {
  const described = describeDeliveryApp(config.deliveryApps.rappi, 'POS_RAPPI');
  if (config.deliveryApps.rappi === undefined) return described;
  return config.publicUrl === undefined
    ? `${described}, orders read (set POS_PUBLIC_URL for its webhooks)`
    : `${described}, webhooks at ${config.publicUrl}/channels/rappi/webhook`;
}

function describeSettings(restaurant: RestaurantFact): string {
  const { taxRateBasisPoints, pricesIncludeTax, timeZone, baseCurrency, locale } = restaurant;
  const tax =
    taxRateBasisPoints === 0
      ? 'no tax'
      : `tax ${taxRateBasisPoints / 100}% ${pricesIncludeTax ? 'included in' : 'added to'} prices`;
  return `${tax}, days in ${timeZone}, ${baseCurrency}, paper ${locale} (the manager's settings screen changes them)`;
}

function describeInvoicing(config: Config, state: RestaurantFact['invoicing']): string {
  switch (state) {
    case 'on':
      return `on, CFDI stamped by the PAC at ${config.pac.url}`;
    case 'needs-key':
      return 'switched on but POS_PAC_KEY (or POS_PAC_KEY_FILE) is not set: no CFDI is stamped until it is';
    default:
      // After adding the key the technician restarts and reads this line: it must not ask for the key again.
      return config.pac.key === undefined
        ? 'off (the manager switches it on; it needs POS_PAC_KEY)'
        : 'off: the PAC key is set; the manager switches it on (Manager › E-invoicing)';
  }
}

function describeRateSource(config: Config): string {
  const source = config.rateSource;
  if (source === undefined) return 'none (set POS_RATE_SOURCE: Lightning amounts need a BTC price)';
  if (source.startsWith('fixed:'))
    return `a fixed price, ${source.slice('fixed:'.length)} ${config.baseCurrency} per BTC`;
  return config.rateSourceUrl === undefined ? source : `${source} at ${config.rateSourceUrl}`;
}

const KEY_SOURCES = {
  file: (name: string) => `${name}_FILE`,
  environment: (name: string) => name,
  database: () => 'kept in the database',
} as const;

function describeKeys(config: Config): string {
  const { jwtSecret, pinKey } = config.keySources;
  return `PIN key ${KEY_SOURCES[pinKey]('POS_PIN_KEY')}, session key ${KEY_SOURCES[jwtSecret]('POS_JWT_SECRET')}`;
}

function describeBackups(config: Config, lastBackupAt: number | null): string {
  const { dir, everyMs, keep } = config.backups;
  if (dir === undefined || everyMs === undefined) {
    return config.databaseUrl.startsWith('sqlite:') && config.databaseUrl !== 'sqlite::memory:'
      ? 'none scheduled (set POS_BACKUP_DIR and POS_BACKUP_EVERY)'
      : 'not by this server (PostgreSQL: back it up with its own tools)';
  }
  const last = lastBackupAt === null ? 'none yet' : `last ${new Date(lastBackupAt).toISOString()}`;
  return `every ${Math.round(everyMs / 60_000)} min into ${dir}, newest ${keep} kept; ${last}`;
}

function describeHosts(config: Config): string {
  const names = ['localhost', ...config.allowedHosts].join(', ');
  return `${names} and IP addresses (others get 421; add names to POS_ALLOWED_HOSTS)`;
}

function describeTrustProxy(config: Config): string {
  const { trustProxy } = config;
  if (trustProxy === false) return 'none trusted (POS_TRUST_PROXY unset: X-Forwarded-For is ignored)';
  if (typeof trustProxy === 'number')
    return `X-Forwarded-For trusted for ${trustProxy} hop${trustProxy === 1 ? '' : 's'}`;
  return `X-Forwarded-For trusted from ${trustProxy.join(', ')}`;
}

function listeningUrl(config: Config, address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return `http://${config.host}:${config.port}`;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
