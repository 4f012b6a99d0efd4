import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type DeliveryFigures, LiveSubscribers, type Spread } from './events';
import { selfTimeByPackage, topHotspots } from './lib/cpu-profile';
import { type Engine, postgresServerUrl } from './lib/databases';
import { fixed, markdownTable, median } from './lib/report';
import {
  addCensus,
  addEventCounts,
  type Census,
  type EventCounts,
  type RushRun,
  type RushWatcher,
  rushBaseline,
  rushOurServer,
} from './rush-runs';
import { runScale, type ScaleStep } from './scale';

/**
 * `npm run bench [-- --only rush,scale,events] [--db sqlite|postgres] [--rounds 3] [--max-orders 100000] [--cpu-prof] [--load] [--saturated-only]`
 * Every server it starts listens on 127.0.0.1 and every run has a fixed length, so it always ends.
 */
const PARTS = ['rush', 'scale', 'events', 'census'] as const;
/** Live-stream subscribers held during the `events` part's rush. */
const SUBSCRIBERS = 200;
/** The share of the baseline's saturated throughput the paced events run asks for. */
const PACED_SHARE = 0.5;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'rush,scale' },
    db: { type: 'string', default: 'all' },
    'max-orders': { type: 'string', default: '1000000' },
    connections: { type: 'string', default: '32' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'boolean', default: false },
    'census-rate': { type: 'string', default: '150' },
    load: { type: 'boolean', default: false },
    'saturated-only': { type: 'boolean', default: false },
  },
});

const parts = (values.only as string).split(',').map((part) => part.trim()) as Part[];
const unknownPart = parts.find((part) => !PARTS.includes(part));
if (unknownPart) throw new Error(`--only takes ${PARTS.join(', ')}; got ${unknownPart}`);
const postgresUrl = postgresServerUrl();
const engines = chooseEngines(values.db as string, postgresUrl);
const settings = {
  connections: boundedInteger(values.connections as string, 1, 256, '--connections'),
  seconds: boundedInteger(values.duration as string, 1, 120, '--duration'),
  rounds: boundedInteger(values.rounds as string, 1, 20, '--rounds'),
  maxOrders: boundedInteger(values['max-orders'] as string, 10_000, 1_000_000, '--max-orders'),
  censusRate: boundedInteger(values['census-rate'] as string, 10, 5000, '--census-rate'),
};

console.log(
  `# bench: ${parts.join(' + ')} on ${engines.join(' + ')}; ${cpus().length} cores, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
);
const load = values.load
  ? fork(resolve('bench/lib/cpu-burner.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  : undefined;
if (load) console.log('loaded: a second process keeps one core busy hashing (bench/lib/cpu-burner.mjs)');
for (const engine of engines) {
  if (parts.includes('rush')) await rush(engine);
  if (parts.includes('scale')) await scale(engine);
  if (parts.includes('events')) await events(engine);
  if (parts.includes('census')) await census(engine);
}
load?.disconnect();

/**
 * The rush with ${SUBSCRIBERS} live streams open: on SQLite against the one server, on PostgreSQL
 * against two server processes, the tablets writing through both and the streams held on the second.
 * First as fast as the servers answer (the ratio, and delivery at saturation, where every request
 * queues for the two shared cores), then at a steady pace of half the baseline's saturated throughput,
 * a busy evening that leaves the box headroom: delivery latency there is what a kitchen screen sees.
 */
async function events(engine: Engine): Promise<void> {
  const processes = engine === 'postgres' ? 2 : 1;
  const where = processes === 1 ? 'the server' : 'process B of 2';
  const saturated = await eventsRush(engine, {
    title: `events on ${engine}: ${SUBSCRIBERS} subscribers on ${where} during the rush`,
    processes,
  });
  if (values['saturated-only']) return;
  const pace = Math.round(median(saturated.map((round) => round.baseline.requestsPerSecond)) * PACED_SHARE);
  await eventsRush(engine, {
    title: `events on ${engine}: ${SUBSCRIBERS} subscribers on ${where}, the rush paced at ${pace} req/s (half the baseline's saturated throughput)`,
    processes,
    rate: pace,
  });
}

async function eventsRush(engine: Engine, variant: Omit<RushVariant, 'watcher'>) {
  const figures: Record<Server, DeliveryFigures[]> = { ours: [], baseline: [] };
  const rounds = await rush(engine, {
    ...variant,
    watcher: (server) => {
      const subscribers = new LiveSubscribers(SUBSCRIBERS);
      return {
        watcher: subscribers,
        done: () => {
          subscribers.close();
          figures[server].push(subscribers.figures());
        },
      };
    },
  });
  const rows = (['ours', 'baseline'] as const).flatMap((server) =>
    figures[server].map((run, index) => [
      index + 1,
      server,
      run.subscribers,
      run.events,
      run.deliveries,
      run.afterAt.p50Ms,
      run.afterAt.p99Ms,
      run.afterAt.maxMs,
      run.afterCommit ? fixed(run.afterCommit.p50Ms, 0) : '–',
      run.afterCommit ? fixed(run.afterCommit.p99Ms, 0) : '–',
      run.afterAnswer.count,
      run.afterAnswer.p50Ms,
      run.afterAnswer.p99Ms,
      run.reconnects,
      run.misordered,
    ]),
  );
  console.log(
    markdownTable(
      [
        'round',
        'server',
        'subscribers',
        'events',
        'deliveries',
        'p50 ms',
        'p99 ms',
        'max ms',
        'after commit: p50 ms',
        'p99 ms',
        'after answer: n',
        'p50 ms',
        'p99 ms',
        'reconnects',
        'misordered',
      ],
      rows,
    ),
  );
  const target = engine === 'postgres' ? 100 : 50;
  const ours = figures.ours;
  const afterCommit = ours.flatMap((run) => (run.afterCommit ? [run.afterCommit] : []));
  const commitFigures =
    afterCommit.length === 0
      ? 'not measured (SQLite, or PostgreSQL without track_commit_timestamp)'
      : medianSpread(afterCommit);
  console.log(
    `\nmedian of ${ours.length} rounds: commit-to-delivery (the writer's commit to arrival) ${commitFigures} ` +
      `(target < ${target} ms); from the event's \`at\` (before the writer's queries) to arrival ` +
      `${medianSpread(ours.map((run) => run.afterAt))}; from the tablet's answer to a ticket.created's arrival ` +
      medianSpread(ours.map((run) => run.afterAnswer)),
  );
  return rounds;
}

type Server = 'ours' | 'baseline';

/**
 * Where each server's CPU went during the measured runs (profiled in-process between the census's
 * two readings, so start-up and seeding are left out), in µs of self time per answered request.
 */
function printCpuPerRequest(rounds: { ours: RushRun; baseline: RushRun }[]): void {
  const perRequest = (server: Server, pick: 'byPackage' | 'hotspots') => {
    const requests = rounds.reduce((sum, round) => sum + round[server].requests, 0);
    const micros = new Map<string, number>();
    for (const round of rounds) {
      for (const spot of round[server].profile?.[pick] ?? [])
        micros.set(spot.where, (micros.get(spot.where) ?? 0) + spot.selfMicros);
    }
    return new Map([...micros].map(([where, total]) => [where, total / requests]));
  };
  const ours = perRequest('ours', 'byPackage');
  const baseline = perRequest('baseline', 'byPackage');
  const sum = (shares: Map<string, number>) => [...shares.values()].reduce((all, value) => all + value, 0);
  const packages = [...new Set([...ours.keys(), ...baseline.keys()])]
    .sort((a, b) => (ours.get(b) ?? 0) + (baseline.get(b) ?? 0) - (ours.get(a) ?? 0) - (baseline.get(a) ?? 0))
    .slice(0, 16);
  console.log('\nCPU self time per request, by package (µs), in the measured run only:');
  console.log(
    markdownTable(
      ['where', 'ours', 'baseline'],
      [
        ...packages.map((where) => [
          where,
          fixed(ours.get(where) ?? 0, 0),
          fixed(baseline.get(where) ?? 0, 0),
        ]),
        ['all', fixed(sum(ours), 0), fixed(sum(baseline), 0)],
      ],
    ),
  );
  for (const server of ['ours', 'baseline'] as const) {
    const ranked = [...perRequest(server, 'hotspots')].sort(([, a], [, b]) => b - a);
    // Native work (SQLite's statements, socket writes) first, then the JavaScript behind it.
    const isJavaScript = ([where]: [string, number]) => where.includes(' ');
    const spots = [
      ...ranked.filter((spot) => !isJavaScript(spot)).slice(0, 6),
      ...ranked.filter(isJavaScript).slice(0, 14),
    ];
    console.log(`\nthe top functions of ${server} (µs of self time per request):`);
    console.log(
      markdownTable(
        ['µs', 'function'],
        spots.map(([where, micros]) => [fixed(micros, 1), where]),
      ),
    );
  }
}

/**
 * What each kind of request costs, ours against the baseline, counted by the statement census
 * (bench/lib/statement-census.mjs) during the paced rush with the live streams open: the statements
 * it runs and the bytes it hands the database, and the bytes it answers; then the statements run
 * outside any request (jobs, the event feed) and the bytes written to the live streams.
 */
async function census(engine: Engine): Promise<void> {
  const processes = engine === 'postgres' ? 2 : 1;
  const rounds = await eventsRush(engine, {
    title: `census on ${engine}: ${SUBSCRIBERS} subscribers, the rush paced at ${settings.censusRate} req/s`,
    processes,
    rate: settings.censusRate,
    census: true,
  });
  const total = (server: Server) => {
    const sum: Census = {};
    for (const round of rounds) addCensus(sum, round[server].census ?? {});
    return sum;
  };
  const ours = total('ours');
  const baseline = total('baseline');
  const perRequest = (
    counts: Census[string] | undefined,
    key: 'statements' | 'databaseBytes' | 'answerBytes',
  ) => (counts && counts.requests > 0 ? fixed(counts[key] / counts.requests, 1) : '–');
  const rushKinds = Object.keys(baseline).filter((kind) => (baseline[kind]?.requests ?? 0) > 0);
  console.log(
    markdownTable(
      [
        'request',
        'ours: n',
        'statements/req',
        'baseline',
        'ours: DB bytes/req',
        'baseline',
        'ours: answer bytes/req',
        'baseline',
      ],
      rushKinds.map((kind) => [
        kind,
        ours[kind]?.requests ?? 0,
        perRequest(ours[kind], 'statements'),
        perRequest(baseline[kind], 'statements'),
        perRequest(ours[kind], 'databaseBytes'),
        perRequest(baseline[kind], 'databaseBytes'),
        perRequest(ours[kind], 'answerBytes'),
        perRequest(baseline[kind], 'answerBytes'),
      ]),
    ),
  );
  const overall = (sum: Census) => {
    const kinds = rushKinds.map((kind) => sum[kind]).filter((counts) => counts !== undefined);
    const requests = kinds.reduce((all, counts) => all + counts.requests, 0);
    const seconds = settings.seconds * rounds.length;
    return {
      statements: fixed(kinds.reduce((all, counts) => all + counts.statements, 0) / requests, 1),
      databaseBytes: fixed(kinds.reduce((all, counts) => all + counts.databaseBytes, 0) / requests, 0),
      outsidePerSecond: fixed((sum['outside any request']?.statements ?? 0) / seconds, 1),
      streamBytes: fixed((sum['live streams']?.answerBytes ?? 0) / requests, 0),
    };
  };
  printEventsPerRequest(ours, baseline, rushKinds);
  printCpuPerRequest(rounds);
  const [o, b] = [overall(ours), overall(baseline)];
  console.log(
    `
per rush request: ${o.statements} statements and ${o.databaseBytes} database bytes (baseline ` +
      `${b.statements} and ${b.databaseBytes}), ${o.streamBytes} bytes to the live streams (baseline ` +
      `${b.streamBytes}); outside any request: ${o.outsidePerSecond} statements/s (baseline ${b.outsidePerSecond})`,
  );
}

/**
 * The events each server wrote per rush request, by type, and their payloads' bytes: every event goes
 * to each live stream whose topics take it, so these are what the streams' bytes are made of.
 */
function printEventsPerRequest(ours: Census, baseline: Census, rushKinds: string[]): void {
  const byType = (sum: Census) => {
    const types: EventCounts = {};
    for (const kind of [...rushKinds, 'outside any request']) addEventCounts(types, sum[kind]?.events ?? {});
    return types;
  };
  const requests = rushKinds.reduce((all, kind) => all + (ours[kind]?.requests ?? 0), 0);
  const baselineRequests = rushKinds.reduce((all, kind) => all + (baseline[kind]?.requests ?? 0), 0);
  const [oursTypes, baselineTypes] = [byType(ours), byType(baseline)];
  const types = [...new Set([...Object.keys(oursTypes), ...Object.keys(baselineTypes)])].sort();
  const per = (
    counts: EventCounts,
    type: string,
    key: 'count' | 'payloadBytes',
    of: number,
    digits: number,
  ) => fixed((counts[type]?.[key] ?? 0) / Math.max(of, 1), digits);
  console.log('\nevents written per rush request, by type, with their payload bytes:');
  console.log(
    markdownTable(
      ['event', 'ours: per request', 'baseline', 'ours: payload bytes/req', 'baseline'],
      types.map((type) => [
        type,
        per(oursTypes, type, 'count', requests, 3),
        per(baselineTypes, type, 'count', baselineRequests, 3),
        per(oursTypes, type, 'payloadBytes', requests, 0),
        per(baselineTypes, type, 'payloadBytes', baselineRequests, 0),
      ]),
    ),
  );
}

function medianSpread(spreads: Spread[]): string {
  const medianOf = (percentileMs: (spread: Spread) => number) => fixed(median(spreads.map(percentileMs)), 0);
  return `p50 ${medianOf((spread) => spread.p50Ms)} ms, p99 ${medianOf((spread) => spread.p99Ms)} ms`;
}

type RushVariant = {
  title: string;
  processes: number;
  /** Count each request kind's statements and bytes (bench/lib/statement-census.mjs). */
  census?: boolean;
  /** A steady pace in requests per second; none: as fast as the servers answer. */
  rate?: number;
  /** A fresh watcher for each round of either server, and what to do once that round ended. */
  watcher?: (server: Server) => { watcher: RushWatcher; done: () => void };
  /** Uber Eats and Rappi orders arriving during our server's rush (bench/lib/delivery-traffic.ts). */
  delivery?: boolean;
};

async function rush(
  engine: Engine,
  variant: RushVariant = {
    title: `rush on ${engine}: ${settings.connections} connections, ${settings.seconds} s, delivery orders arriving`,
    processes: 1,
    delivery: true,
  },
): Promise<{ ours: RushRun; baseline: RushRun }[]> {
  const runSettings = {
    connections: settings.connections,
    seconds: settings.seconds,
    rate: variant.rate,
    census: variant.census ?? false,
    delivery: variant.delivery ?? false,
  };
  console.log(`\n## ${variant.title}, ${settings.rounds} rounds of ours and the baseline in turn`);
  // The machine's speed drifts (shared cores); running the two in turn, each first every other round,
  // and comparing within a round keeps that drift out of the ratio.
  const rounds: { ours: RushRun; baseline: RushRun }[] = [];
  // With --cpu-prof only the first round is profiled, so the profile is printed once.
  const oursOnce = async (cpuProfileDir: string | undefined) => {
    const watching = variant.watcher?.('ours');
    try {
      return await rushOurServer(engine, postgresUrl, {
        ...runSettings,
        cpuProfileDir,
        processes: variant.processes,
        ...(watching && { watcher: watching.watcher }),
      });
    } finally {
      watching?.done();
    }
  };
  const ours = (round: number) => (round === 0 ? profiled(`rush-${engine}`, oursOnce) : oursOnce(undefined));
  const baseline = async () => {
    const watching = variant.watcher?.('baseline');
    try {
      return await rushBaseline(engine, postgresUrl, {
        ...runSettings,
        cpuProfileDir: undefined,
        processes: variant.processes,
        watcher: watching?.watcher,
      });
    } finally {
      watching?.done();
    }
  };
  for (let round = 0; round < settings.rounds; round++) {
    if (round % 2 === 0) {
      const oursRun = await ours(round);
      rounds.push({ ours: oursRun, baseline: await baseline() });
    } else {
      const baselineRun = await baseline();
      rounds.push({ ours: await ours(round), baseline: baselineRun });
    }
  }
  const ratios = rounds.map((run) => run.ours.requestsPerSecond / run.baseline.requestsPerSecond);
  const row = (name: string, run: RushRun) => [
    name,
    fixed(run.requestsPerSecond, 0),
    run.p50Ms,
    run.p99Ms,
    run.maxMs,
    fixed(run.cpuMicrosPerRequest, 0),
    fixed(run.peakRssMb, 0),
    run.requests,
    run.non2xx + run.errors + run.timeouts,
  ];
  console.log(
    markdownTable(
      [
        'round',
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        'CPU µs/req',
        'peak RSS MiB',
        'requests',
        'failed',
        'ours/baseline',
      ],
      rounds.flatMap((run, index) => [
        [index + 1, ...row('ours', run.ours), fixed(ratios[index] as number, 2)],
        [index + 1, ...row('baseline', run.baseline), ''],
      ]),
    ),
  );
  const oursP99 = rounds.map((run) => run.ours.p99Ms);
  const cpuRatios = rounds.map((run) => run.baseline.cpuMicrosPerRequest / run.ours.cpuMicrosPerRequest);
  const rssRatios = rounds.map((run) => run.ours.peakRssMb / run.baseline.peakRssMb);
  console.log(
    `\nmedian of ${rounds.length} rounds: ours/baseline throughput ${fixed(median(ratios), 2)} (target >= 0.6), ` +
      `ours p99 ${fixed(median(oursP99), 0)} ms (target < 25 ms), ` +
      `baseline/ours CPU per request ${fixed(median(cpuRatios), 2)}, RSS ${fixed(median(rssRatios), 2)}x`,
  );
  for (const [index, run] of rounds.entries()) {
    const { paid, withFee, settledByWebhook, settledOnce } = run.ours.lightning;
    console.log(
      `  round ${index + 1} ours: ${paid} Lightning bills paid (${withFee} net of a liquidity fee), ` +
        `${settledByWebhook} settled by the webhook, ${settledOnce} of ${paid} settled exactly once`,
    );
    const { delivery } = run.ours;
    if (delivery) {
      const line = (name: string, figures: (typeof delivery)['ubereats']) =>
        `${name} ${figures.accepted} of ${figures.placed} accepted (p50 ${figures.p50Seconds ?? '–'} s, max ${figures.maxSeconds ?? '–'} s after placing)`;
      console.log(
        `  round ${index + 1} ours: delivery orders during the rush: ${line('Uber Eats', delivery.ubereats)}; ${line('Rappi', delivery.rappi)}`,
      );
    }
    for (const [name, result] of Object.entries(run)) {
      for (const [failure, count] of Object.entries(result.failures))
        console.log(`  round ${index + 1} ${name} failed ${count}x: ${failure}`);
    }
  }
  return rounds;
}

async function scale(engine: Engine): Promise<void> {
  console.log(
    `\n## scale on ${engine}: up to ${settings.maxOrders} orders, 50 sequential requests per query`,
  );
  const rows: (string | number)[][] = [];
  const steps = await profiled(`scale-${engine}`, (cpuProfileDir) =>
    runScale(engine, postgresUrl, {
      maxOrders: settings.maxOrders,
      cpuProfileDir,
      onStep: (step: ScaleStep) =>
        console.log(
          `  seeded ${step.orders} orders in ${fixed(step.seedSeconds)} s and ${step.movements} stock ` +
            `movements over a year in ${fixed(step.movementSeconds)} s, measured`,
        ),
    }),
  );
  for (const step of steps) {
    for (const timing of step.timings) {
      rows.push([
        step.orders,
        `GET ${timing.query}`,
        fixed(timing.p50Ms, 2),
        fixed(timing.p99Ms, 2),
        timing.status,
        fixed(step.peakRssMb, 0),
      ]);
    }
  }
  console.log(markdownTable(['orders', 'query', 'p50 ms', 'p99 ms', 'status', 'peak RSS MiB'], rows));
}

/** Runs `work` with the server under `node --cpu-prof` when asked, then prints where its time went. */
async function profiled<T>(
  label: string,
  work: (cpuProfileDir: string | undefined) => Promise<T>,
): Promise<T> {
  if (!values['cpu-prof']) return work(undefined);
  const folder = mkdtempSync(join(tmpdir(), `pos-${label}-prof-`));
  try {
    const result = await work(folder);
    console.log(`\n### ${label}: top self-time functions of our server (node --cpu-prof)`);
    console.log(
      markdownTable(
        ['self %', 'function'],
        topHotspots(folder).map((spot) => [fixed(spot.selfPercent), spot.where]),
      ),
    );
    const byPackage = selfTimeByPackage(folder).filter((share) => !share.where.startsWith('node:'));
    console.log(
      `\nself time by package: ${byPackage
        .slice(0, 8)
        .map((share) => `${share.where} ${fixed(share.selfPercent)} %`)
        .join(', ')}`,
    );
    return result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function chooseEngines(choice: string, url: string | undefined): Engine[] {
  if (choice === 'sqlite') return ['sqlite'];
  if (choice === 'postgres') {
    if (!url)
      throw new Error('--db postgres needs DATABASE_URL or TEST_DATABASE_URL naming a PostgreSQL server');
    return ['postgres'];
  }
  if (choice !== 'all') throw new Error('--db takes sqlite, postgres or all');
  return url ? ['sqlite', 'postgres'] : ['sqlite'];
}

function boundedInteger(raw: string, min: number, max: number, name: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}
