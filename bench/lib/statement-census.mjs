// Loaded into a server process with `--import` (NODE_OPTIONS) by the bench's census: counts, per kind
// of request (method and path, ids folded), the SQL statements it runs and the bytes it hands the
// database (statement text and parameters), and the bytes it answers; what runs outside any request
// (jobs, the event feed) is counted apart, and so are the bytes written to live streams. The same
// file loads into our server and the baseline, so both are counted alike. SIGUSR2 writes the counts
// to CENSUS_FILE and starts them again.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const censusFile = process.env.CENSUS_FILE;
const requireFromApp = createRequire(join(process.cwd(), 'package.json'));
const current = new AsyncLocalStorage();
const OUTSIDE = 'outside any request';
const STREAMS = 'live streams';
let kinds = new Map();

function kindOf(method, url) {
  const path = (url ?? '')
    .split('?')[0]
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
  return `${method} ${path}`;
}

function tally(kind) {
  let entry = kinds.get(kind);
  if (!entry) {
    entry = { requests: 0, statements: 0, databaseBytes: 0, answerBytes: 0, events: {} };
    kinds.set(kind, entry);
  }
  return entry;
}

function timeStatement(text, micros) {
  const entry = tally(current.getStore() ?? OUTSIDE);
  entry.micros ??= {};
  const key = String(text ?? '')
    .replace(/\s+/g, ' ')
    .slice(0, 140);
  entry.micros[key] = (entry.micros[key] ?? 0) + micros;
}

// Both servers write an event as (type, topic, payload, created_at): the census counts them by type
// with their payload's bytes, which is what the live streams carry.
const EVENT_INSERT = /^\s*insert into "?events"?/i;

function countEvent(entry, parameters) {
  const values = Array.isArray(parameters?.[0]) ? parameters[0] : parameters;
  const [type, , payload] = values ?? [];
  if (typeof type !== 'string') return;
  entry.events[type] ??= { count: 0, payloadBytes: 0 };
  const count = entry.events[type];
  count.count += 1;
  count.payloadBytes += Buffer.byteLength(String(payload ?? ''));
}

function countStatement(text, parameters) {
  const entry = tally(current.getStore() ?? OUTSIDE);
  entry.statements += 1;
  if (EVENT_INSERT.test(text ?? '')) countEvent(entry, parameters);
  if (process.env.CENSUS_TEXTS) {
    entry.texts ??= {};
    const key = String(text ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 140);
    entry.texts[key] = (entry.texts[key] ?? 0) + 1;
  }
  entry.databaseBytes +=
    Buffer.byteLength(text ?? '') +
    (parameters
      ? Buffer.byteLength(
          JSON.stringify(parameters, (_key, value) => (typeof value === 'bigint' ? String(value) : value)) ??
            '',
        )
      : 0);
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, request, ...rest) {
  if (event !== 'request') return emit.call(this, event, request, ...rest);
  const kind = kindOf(request.method, request.url);
  tally(kind).requests += 1;
  return current.run(kind, () => emit.call(this, event, request, ...rest));
};

const write = http.ServerResponse.prototype.write;
http.ServerResponse.prototype.write = function (chunk, ...rest) {
  // A stream's head is written with writeHead, so its content type is read from the head as sent.
  const isStream = String(this._header ?? this.getHeader('content-type') ?? '').includes('text/event-stream');
  const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk?.length ?? 0);
  tally(isStream ? STREAMS : (current.getStore() ?? OUTSIDE)).answerBytes += bytes;
  return write.call(this, chunk, ...rest);
};
const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (chunk, ...rest) {
  if (chunk !== undefined && typeof chunk !== 'function') {
    const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : (chunk?.length ?? 0);
    tally(current.getStore() ?? OUTSIDE).answerBytes += bytes;
  }
  return end.call(this, chunk, ...rest);
};

try {
  const Database = requireFromApp('better-sqlite3');
  const probe = new Database(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statementPrototype[method];
    statementPrototype[method] = function (...parameters) {
      countStatement(this.source, parameters);
      if (!process.env.CENSUS_TEXTS) return original.apply(this, parameters);
      // SQLite runs in this thread: the time a statement takes is its CPU, worth seeing per statement.
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, parameters);
      } finally {
        timeStatement(this.source, Number(process.hrtime.bigint() - started) / 1000);
      }
    };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (source) {
    countStatement(source);
    return exec.call(this, source);
  };
} catch {
  // No SQLite in this process.
}
try {
  const pg = requireFromApp('pg');
  // pg-pool hands a freed client to the next waiting callback in the context of whoever freed it:
  // bound to its caller, a pooled query counts for the request that asked.
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function (callback) {
    return connect.call(this, typeof callback === 'function' ? AsyncResource.bind(callback) : callback);
  };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, values, callback) {
    const text = typeof config === 'string' ? config : config?.text;
    countStatement(text, Array.isArray(values) ? values : config?.values);
    return query.call(this, config, values, callback);
  };
} catch {
  // No PostgreSQL client in this process.
}

// CENSUS_PROFILE_DIR: each census also ends the CPU profile begun at the one before, writing it
// there, so the profile covers the measured run and nothing of the start-up.
const profileDir = process.env.CENSUS_PROFILE_DIR;
let profiler;
async function nextProfile() {
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(
      join(profileDir, `census-${process.pid}-${Date.now()}.cpuprofile`),
      JSON.stringify(profile),
    );
  } else {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
  }
  await profiler.post('Profiler.start');
}

process.on('SIGUSR2', async () => {
  if (profileDir) await nextProfile();
  if (censusFile) {
    // Whole or not at all: the bench reads the file as soon as it appears.
    writeFileSync(`${censusFile}.part`, JSON.stringify(Object.fromEntries(kinds)));
    renameSync(`${censusFile}.part`, censusFile);
  }
  // CENSUS_TEXTS names a file that keeps the last census with each statement's text, to see which ones.
  if (process.env.CENSUS_TEXTS) {
    writeFileSync(`${process.env.CENSUS_TEXTS}.${process.pid}`, JSON.stringify(Object.fromEntries(kinds)));
  }
  kinds = new Map();
});
