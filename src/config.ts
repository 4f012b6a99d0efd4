import { closeSync, openSync, readSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DateTime } from 'luxon';

export const CURRENCY_CODES = ['MXN', 'USD', 'BTC'] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** The public price APIs POS_RATE_SOURCE can name; rates/exchange-rate.ts has a source for each. */
export const PUBLIC_RATE_SOURCE_NAMES = ['coingecko', 'coinbase'] as const;
export type PublicRateSourceName = (typeof PUBLIC_RATE_SOURCE_NAMES)[number];

export function isPublicRateSource(value: string): value is PublicRateSourceName {
  return PUBLIC_RATE_SOURCE_NAMES.includes(value as PublicRateSourceName);
}

/** The price of `fixed:<price>`, or undefined when the value is not of that form. */
export function parseFixedPrice(value: string): number | undefined {
  const match = /^fixed:(\d{1,12}(\.\d{1,2})?)$/.exec(value);
  const price = match ? Number(match[1]) : Number.NaN;
  return price > 0 ? price : undefined;
}

/** A file named by `<NAME>_FILE`, the variable itself, or (neither set) a key kept in the database. */
export type KeySource = 'file' | 'environment' | 'database';

export type AdminBootstrap = { name: string; pin: string; walletPassword: string | undefined };

/** The countries the first setup knows defaults for (setup/country-presets.ts); `other` keeps these. */
export const SETUP_COUNTRIES = ['MX', 'other'] as const;
export type SetupCountry = (typeof SETUP_COUNTRIES)[number];

export type Config = Readonly<{
  port: number;
  host: string;
  databaseUrl: string;
  jwtSecret: string | undefined;
  pinKey: string | undefined;
  /** Where the session and PIN keys come from: the start-up summary says, and never the keys. */
  keySources: Readonly<{ jwtSecret: KeySource; pinKey: KeySource }>;
  adminBootstrap: AdminBootstrap | undefined;
  /** What the first setup prepares the settings for when it is not asked: POS_COUNTRY. */
  country: SetupCountry | undefined;
  timeZone: string;
  baseCurrency: CurrencyCode;
  /** Where the BTC price comes from (`coingecko`, `coinbase`, `fixed:<price>`); unset: Lightning bills answer 503. */
  rateSource: string | undefined;
  /** Another address for the public price source (a mirror, or a local fake in tests). */
  rateSourceUrl: string | undefined;
  /** The price source's API key (CoinGecko's demo or pro key); without one, its shared per-address limit applies. */
  rateSourceKey: string | undefined;
  /** Named in the description of every Lightning invoice a customer pays. */
  businessName: string;
  /** Where guests reach the guest pages (the address in QR codes), without a trailing slash; unset: no guest links. */
  publicUrl: string | undefined;
  corsOrigins: readonly string[];
  /** Host names, besides localhost and IP literals, that requests may address (DNS rebinding). */
  allowedHosts: readonly string[];
  /**
   * Fastify's `trustProxy`: false (trust nobody), a hop count, or the proxies' addresses and CIDRs.
   * From a trusted proxy the client address comes from X-Forwarded-For, so failure budgets count
   * per tablet instead of per proxy.
   */
  trustProxy: false | number | readonly string[];
  cookieSecure: boolean;
  /**
   * Where the audit chain's head is published outside the database (POS_AUDIT_ANCHOR_FILE; by default
   * `<database file>.audit-head` beside SQLite); unset on PostgreSQL and in memory.
   */
  auditAnchorFile: string | undefined;
  /** Scheduled SQLite backups: off unless both a folder and an interval are given. */
  backups: Readonly<{ dir: string | undefined; everyMs: number | undefined; keep: number }>;
  phoenixd: Readonly<{
    url: string;
    password: string | undefined;
    webhookSecret: string | undefined;
    /**
     * This server's /webhook/phoenixd as phoenixd reaches it; sent with every bill's invoice so its
     * payment is posted here even when phoenix.conf has no `webhook=`.
     */
    webhookUrl: string | undefined;
    /** How long a call to phoenixd may take before the node counts as unavailable. */
    timeoutMs: number;
    /** The same for payments, which wait until they settle. */
    paymentTimeoutMs: number;
  }>;
  /** Mexico's e-invoice provider (Facturapi's API v2); off while no key is configured. */
  pac: Readonly<{ url: string; key: string | undefined; timeoutMs: number }>;
  /** The delivery apps' stores (contract-channels.md); a platform is absent until all its credentials are set. */
  deliveryApps: Readonly<{
    ubereats: Readonly<DeliveryAppConfig & { authUrl: string }> | undefined;
    rappi: Readonly<DeliveryAppConfig> | undefined;
  }>;
  /**
   * Mercado Pago Point, the card terminal at the till (contract-channels.md); off while no access token
   * is configured. Without the webhook secret notifications are refused and charges are read back.
   */
  cardTerminal:
    | Readonly<{ accessToken: string; webhookSecret: string | undefined; apiUrl: string; timeoutMs: number }>
    | undefined;
  /** How often an idle live stream (`GET /events`) gets a comment line; the contract asks for 15 s at most. */
  eventsHeartbeatMs: number;
  logLevel: string;
  logFormat: LogFormat;
  isProduction: boolean;
}>;

/** One delivery app's store: its API's credentials, the store's id there, where and how long to wait. */
export type DeliveryAppConfig = {
  clientId: string;
  clientSecret: string;
  storeId: string;
  apiUrl: string;
  timeoutMs: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Secrets that may come from a file instead (`<NAME>_FILE`, as Docker secrets and systemd credentials
 * provide them), so they need not sit in the environment of every process that can read it.
 */
const FILE_VARIABLES = [
  'DATABASE_URL',
  'POS_JWT_SECRET',
  'POS_PIN_KEY',
  'POS_ADMIN_PIN',
  'POS_ADMIN_WALLET_PASSWORD',
  'PHOENIXD_PASSWORD',
  'PHOENIXD_WEBHOOK_SECRET',
  'POS_PAC_KEY',
  'POS_RATE_SOURCE_KEY',
  'POS_UBEREATS_CLIENT_SECRET',
  'POS_RAPPI_CLIENT_SECRET',
  'POS_MP_ACCESS_TOKEN',
  'POS_MP_WEBHOOK_SECRET',
] as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const PIN_PATTERN = /^\d{4,12}$/;
const HOST_NAME_PATTERN =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Reads the environment once; every bad value is reported together so an operator fixes them in one go. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const fromFiles = readSecretFiles(env, problems);
  const read = (name: string) => {
    const value = (fromFiles.get(name) ?? env[name])?.trim();
    return value === '' ? undefined : value;
  };

  const keySource = (name: string): KeySource =>
    fromFiles.has(name) ? 'file' : read(name) !== undefined ? 'environment' : 'database';

  const port = Number(read('PORT') ?? 9154);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push('PORT must be an integer from 0 to 65535');

  const databaseUrl = read('DATABASE_URL') ?? 'sqlite:./data/pos.db';
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://…');
  }

  const timeZone = read('POS_TIMEZONE') ?? 'UTC';
  if (!DateTime.now().setZone(timeZone).isValid)
    problems.push(`POS_TIMEZONE "${timeZone}" is not an IANA time zone`);

  const baseCurrency = (read('POS_BASE_CURRENCY') ?? 'MXN').toUpperCase();
  if (!CURRENCY_CODES.includes(baseCurrency as CurrencyCode)) {
    problems.push(`POS_BASE_CURRENCY must be one of ${CURRENCY_CODES.join(', ')}`);
  }

  const rateSource = read('POS_RATE_SOURCE');
  if (
    rateSource !== undefined &&
    !isPublicRateSource(rateSource) &&
    parseFixedPrice(rateSource) === undefined
  ) {
    problems.push(
      'POS_RATE_SOURCE must be coingecko, coinbase or fixed:<price of 1 BTC in the base currency>',
    );
  }
  const rateSourceUrl = read('POS_RATE_SOURCE_URL');
  if (rateSourceUrl !== undefined) {
    if (!/^https?:\/\//.test(rateSourceUrl) || !URL.canParse(rateSourceUrl)) {
      problems.push('POS_RATE_SOURCE_URL must be an http:// or https:// URL');
    }
    if (rateSource === undefined || !isPublicRateSource(rateSource)) {
      problems.push('POS_RATE_SOURCE_URL needs POS_RATE_SOURCE coingecko or coinbase');
    }
  }
  const rateSourceKey = read('POS_RATE_SOURCE_KEY');
  if (rateSourceKey !== undefined && rateSource !== 'coingecko') {
    problems.push("POS_RATE_SOURCE_KEY needs POS_RATE_SOURCE coingecko (Coinbase's spot price takes no key)");
  }

  const corsOrigins = (read('POS_CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!URL.canParse(origin)) problems.push(`POS_CORS_ORIGINS entry "${origin}" is not a URL`);
  }

  const allowedHosts = (read('POS_ALLOWED_HOSTS') ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase().replace(/\.$/, ''))
    .filter(Boolean);
  for (const host of allowedHosts) {
    if (!HOST_NAME_PATTERN.test(host)) {
      problems.push(`POS_ALLOWED_HOSTS entry "${host}" is not a host name (no scheme, no port)`);
    }
  }

  const trustProxy = parseTrustProxy(read('POS_TRUST_PROXY'), problems);
  const backups = parseBackups(read, databaseUrl, problems);
  const isSqliteFile = databaseUrl.startsWith('sqlite:') && databaseUrl !== 'sqlite::memory:';
  const auditAnchorFile =
    read('POS_AUDIT_ANCHOR_FILE') ??
    (isSqliteFile ? `${resolve(databaseUrl.slice('sqlite:'.length))}.audit-head` : undefined);

  const isProduction = env.NODE_ENV === 'production';
  const cookieSecureRaw = read('POS_COOKIE_SECURE');
  if (cookieSecureRaw !== undefined && !['true', 'false'].includes(cookieSecureRaw)) {
    problems.push('POS_COOKIE_SECURE must be true or false');
  }
  const cookieSecure = cookieSecureRaw === undefined ? isProduction : cookieSecureRaw === 'true';

  const adminName = read('POS_ADMIN_NAME');
  const adminPin = read('POS_ADMIN_PIN');
  if ((adminName === undefined) !== (adminPin === undefined)) {
    problems.push('POS_ADMIN_NAME and POS_ADMIN_PIN must be set together');
  }
  if (adminPin !== undefined && !PIN_PATTERN.test(adminPin))
    problems.push('POS_ADMIN_PIN must be 4 to 12 digits');
  const country = read('POS_COUNTRY');
  if (country !== undefined && !(SETUP_COUNTRIES as readonly string[]).includes(country))
    problems.push(`POS_COUNTRY must be one of ${SETUP_COUNTRIES.join(', ')}`);

  const phoenixdUrl = read('PHOENIXD_URL') ?? 'http://127.0.0.1:9740';
  if (!URL.canParse(phoenixdUrl)) problems.push('PHOENIXD_URL is not a URL');
  const phoenixdWebhookUrl = read('PHOENIXD_WEBHOOK_URL');
  if (
    phoenixdWebhookUrl !== undefined &&
    (!/^https?:\/\//.test(phoenixdWebhookUrl) || !URL.canParse(phoenixdWebhookUrl))
  ) {
    problems.push('PHOENIXD_WEBHOOK_URL must be an http:// or https:// URL');
  }
  const phoenixdTimeoutMs = Number(read('PHOENIXD_TIMEOUT_MS') ?? 5000);
  const phoenixdPaymentTimeoutMs = Number(read('PHOENIXD_PAYMENT_TIMEOUT_MS') ?? 60_000);
  for (const [name, value] of [
    ['PHOENIXD_TIMEOUT_MS', phoenixdTimeoutMs],
    ['PHOENIXD_PAYMENT_TIMEOUT_MS', phoenixdPaymentTimeoutMs],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) problems.push(`${name} must be a positive integer`);
  }

  const publicUrl = read('POS_PUBLIC_URL');
  if (publicUrl !== undefined && (!/^https?:\/\//.test(publicUrl) || !URL.canParse(publicUrl))) {
    problems.push('POS_PUBLIC_URL must be an http:// or https:// URL');
  } else if (publicUrl !== undefined) {
    // Guests reach the server by that name (through the public proxy): it is one of its names.
    const publicHost = new URL(publicUrl).hostname.toLowerCase();
    if (!allowedHosts.includes(publicHost)) allowedHosts.push(publicHost);
  }

  const pacUrl = read('POS_PAC_URL') ?? 'https://www.facturapi.io/v2';
  if (!/^https?:\/\//.test(pacUrl) || !URL.canParse(pacUrl)) {
    problems.push('POS_PAC_URL must be an http:// or https:// URL');
  }
  const pacTimeoutMs = Number(read('POS_PAC_TIMEOUT_MS') ?? 15_000);
  if (!Number.isInteger(pacTimeoutMs) || pacTimeoutMs < 1) {
    problems.push('POS_PAC_TIMEOUT_MS must be a positive integer');
  }

  const ubereats = parseDeliveryApp(problems, 'POS_UBEREATS', {
    clientId: read('POS_UBEREATS_CLIENT_ID'),
    clientSecret: read('POS_UBEREATS_CLIENT_SECRET'),
    storeId: read('POS_UBEREATS_STORE_ID'),
    apiUrl: read('POS_UBEREATS_API_URL') ?? 'https://api.uber.com',
    timeoutMs: read('POS_UBEREATS_TIMEOUT_MS'),
  });
  const uberAuthUrl = checkUrl(
    problems,
    'POS_UBEREATS_AUTH_URL',
    read('POS_UBEREATS_AUTH_URL') ?? 'https://auth.uber.com',
  );
  const rappi = parseDeliveryApp(problems, 'POS_RAPPI', {
    clientId: read('POS_RAPPI_CLIENT_ID'),
    clientSecret: read('POS_RAPPI_CLIENT_SECRET'),
    storeId: read('POS_RAPPI_STORE_ID'),
    // Rappi's domain for Mexico, where its docs place the token login and the orders.
    apiUrl: read('POS_RAPPI_API_URL') ?? 'https://api.rappi.com.mx',
    timeoutMs: read('POS_RAPPI_TIMEOUT_MS'),
  });

  const mpApiUrl = checkUrl(
    problems,
    'POS_MP_API_URL',
    read('POS_MP_API_URL') ?? 'https://api.mercadopago.com',
  );
  const mpTimeoutMs = Number(read('POS_MP_TIMEOUT_MS') ?? 10_000);
  if (!Number.isInteger(mpTimeoutMs) || mpTimeoutMs < 1)
    problems.push('POS_MP_TIMEOUT_MS must be a positive integer');
  const mpAccessToken = read('POS_MP_ACCESS_TOKEN');
  const mpWebhookSecret = read('POS_MP_WEBHOOK_SECRET');
  if (mpAccessToken === undefined && mpWebhookSecret !== undefined) {
    problems.push('POS_MP_WEBHOOK_SECRET is set without POS_MP_ACCESS_TOKEN');
  }

  const eventsHeartbeatMs = Number(read('POS_EVENTS_HEARTBEAT_MS') ?? 10_000);
  if (!Number.isInteger(eventsHeartbeatMs) || eventsHeartbeatMs < 100 || eventsHeartbeatMs > 15_000) {
    problems.push('POS_EVENTS_HEARTBEAT_MS must be an integer from 100 to 15000');
  }

  const logLevel = read('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const logFormat = read('LOG_FORMAT') ?? 'json';
  if (!LOG_FORMATS.includes(logFormat as LogFormat)) {
    problems.push(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}`);
  }

  for (const name of ['POS_JWT_SECRET', 'POS_PIN_KEY']) {
    const secret = read(name);
    if (secret !== undefined && secret.length < 32) problems.push(`${name} must be at least 32 characters`);
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host: read('HOST') ?? '127.0.0.1',
    databaseUrl,
    jwtSecret: read('POS_JWT_SECRET'),
    pinKey: read('POS_PIN_KEY'),
    keySources: Object.freeze({
      jwtSecret: keySource('POS_JWT_SECRET'),
      pinKey: keySource('POS_PIN_KEY'),
    }),
    adminBootstrap:
      adminName && adminPin
        ? { name: adminName, pin: adminPin, walletPassword: read('POS_ADMIN_WALLET_PASSWORD') }
        : undefined,
    country: country as SetupCountry | undefined,
    timeZone,
    baseCurrency: baseCurrency as CurrencyCode,
    rateSource,
    rateSourceUrl,
    rateSourceKey,
    businessName: read('POS_BUSINESS_NAME') ?? 'Restaurant',
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    corsOrigins: Object.freeze(corsOrigins),
    allowedHosts: Object.freeze(allowedHosts),
    trustProxy: Array.isArray(trustProxy) ? Object.freeze(trustProxy) : trustProxy,
    cookieSecure,
    auditAnchorFile,
    backups: Object.freeze(backups),
    phoenixd: Object.freeze({
      url: phoenixdUrl.replace(/\/$/, ''),
      password: read('PHOENIXD_PASSWORD'),
      webhookSecret: read('PHOENIXD_WEBHOOK_SECRET'),
      webhookUrl: phoenixdWebhookUrl,
      timeoutMs: phoenixdTimeoutMs,
      paymentTimeoutMs: phoenixdPaymentTimeoutMs,
    }),
    pac: Object.freeze({
      url: pacUrl.replace(/\/+$/, ''),
      key: read('POS_PAC_KEY'),
      timeoutMs: pacTimeoutMs,
    }),
    deliveryApps: Object.freeze({
      ubereats: ubereats && Object.freeze({ ...ubereats, authUrl: uberAuthUrl }),
      rappi: rappi && Object.freeze(rappi),
    }),
    cardTerminal:
      mpAccessToken === undefined
        ? undefined
        : Object.freeze({
            accessToken: mpAccessToken,
            webhookSecret: mpWebhookSecret,
            apiUrl: mpApiUrl,
            timeoutMs: mpTimeoutMs,
          }),
    eventsHeartbeatMs,
    logLevel,
    logFormat: logFormat as LogFormat,
    isProduction,
  });
}

/** An http(s) base URL, returned without its trailing slash. */
function checkUrl(problems: string[], name: string, url: string): string {
  if (!/^https?:\/\//.test(url) || !URL.canParse(url))
    problems.push(`${name} must be an http:// or https:// URL`);
  return url.replace(/\/+$/, '');
}

/**
 * `<PREFIX>_CLIENT_ID`, `_CLIENT_SECRET` and `_STORE_ID` switch a delivery app on together; some without
 * the others is a mistake the operator hears of at start, not an app that silently stays off.
 */
function parseDeliveryApp(
  problems: string[],
  prefix: string,
  raw: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    storeId: string | undefined;
    apiUrl: string;
    timeoutMs: string | undefined;
  },
): DeliveryAppConfig | undefined {
  const apiUrl = checkUrl(problems, `${prefix}_API_URL`, raw.apiUrl);
  const timeoutMs = Number(raw.timeoutMs ?? 10_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    problems.push(`${prefix}_TIMEOUT_MS must be a positive integer`);
  const { clientId, clientSecret, storeId } = raw;
  const given = { CLIENT_ID: clientId, CLIENT_SECRET: clientSecret, STORE_ID: storeId };
  const names = Object.keys(given).map((name) => `${prefix}_${name}`);
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([name]) => `${prefix}_${name}`);
  if (missing.length === names.length) return undefined;
  if (clientId === undefined || clientSecret === undefined || storeId === undefined) {
    problems.push(`${names.join(', ')} must be set together (missing ${missing.join(', ')})`);
    return undefined;
  }
  return { clientId, clientSecret, storeId, apiUrl, timeoutMs };
}

/** A secret is a line; a file without end (`/dev/zero`, a pipe) must not hang the start. */
const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** The file's text, reading at most `max` bytes; undefined when there is more. */
function readAtMost(path: string, max: number): string | undefined {
  const descriptor = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(max + 1);
    let length = 0;
    for (;;) {
      const read = readSync(descriptor, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > max) return undefined;
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}

function readSecretFiles(env: NodeJS.ProcessEnv, problems: string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const name of FILE_VARIABLES) {
    const path = env[`${name}_FILE`]?.trim();
    if (!path) continue;
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: keep one`);
      continue;
    }
    try {
      const text = readAtMost(path, MAX_SECRET_FILE_BYTES);
      if (text === undefined) {
        problems.push(`${name}_FILE ${path} holds more than 64 KiB: it must hold the one value`);
        continue;
      }
      // A file written by `echo` ends with a newline that is no part of the secret.
      values.set(name, text.replace(/\r?\n$/, ''));
    } catch (error) {
      problems.push(`${name}_FILE ${path} cannot be read (${(error as NodeJS.ErrnoException).code})`);
    }
  }
  return values;
}

const TRUST_PROXY_PROBLEM =
  'POS_TRUST_PROXY must be a hop count (1) or comma-separated proxy addresses or CIDRs (127.0.0.1, 10.0.0.0/8)';

function parseTrustProxy(raw: string | undefined, problems: string[]): false | number | string[] {
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
    problems.push(TRUST_PROXY_PROBLEM);
    return false;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || !entries.every(isAddressOrCidr)) problems.push(TRUST_PROXY_PROBLEM);
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const DURATION_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

function parseBackups(
  read: (name: string) => string | undefined,
  databaseUrl: string,
  problems: string[],
): Config['backups'] {
  const dir = read('POS_BACKUP_DIR');
  const every = read('POS_BACKUP_EVERY');
  const keep = Number(read('POS_BACKUP_KEEP') ?? 14);
  if (!Number.isInteger(keep) || keep < 1 || keep > 10_000)
    problems.push('POS_BACKUP_KEEP must be an integer from 1 to 10000');
  let everyMs: number | undefined;
  if (every !== undefined) {
    const match = /^(\d{1,4})(m|h|d)$/.exec(every);
    everyMs = match ? Number(match[1]) * (DURATION_UNITS_MS[match[2] as string] as number) : undefined;
    if (everyMs === undefined || everyMs < 60_000) {
      problems.push('POS_BACKUP_EVERY must be a duration such as 30m, 6h or 1d');
    }
    if (dir === undefined) problems.push('POS_BACKUP_EVERY needs POS_BACKUP_DIR, the folder backups go to');
    if (!databaseUrl.startsWith('sqlite:') || databaseUrl === 'sqlite::memory:') {
      problems.push(
        'POS_BACKUP_EVERY backs up a SQLite file; back up PostgreSQL with pg_dump (docs/operations.md)',
      );
    }
  }
  return { dir, everyMs, keep };
}
