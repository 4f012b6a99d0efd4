import { parseArgs } from 'node:util';
import { Ledger } from './crash/ledger';
import { type Findings, verifyInDatabase, verifyThroughApi } from './crash/verify';
import { writeUntilStopped } from './crash/writers';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor, type Waiter } from './lib/api';
import { type BenchDatabase, type Engine, freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, type RunningServer, startAppServer } from './lib/processes';

/**
 * `npm run crash-test [-- --runs 5 --writers 8 --db sqlite|postgres]`
 * Writers hit the server at full speed; it is SIGKILLed at a random moment and restarted, several
 * times. Every order a writer got a 2xx for must then be there with its dishes and a right total,
 * and nothing half-written may exist. Exits 1 on any loss.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    writers: { type: 'string', default: '8' },
    db: { type: 'string', default: 'all' },
  },
});
const runs = Math.min(20, Math.max(1, Number(values.runs)));
const writerCount = Math.min(32, Math.max(1, Number(values.writers)));
const postgresUrl = postgresServerUrl();
const engines: Engine[] =
  values.db === 'all' ? (postgresUrl ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as Engine];

const KILL_AFTER_MS = { min: 300, max: 3000 };

let failed = false;
for (const engine of engines) {
  const database = await freshDatabase(engine, postgresUrl);
  try {
    failed = (await crashRepeatedly(database)) || failed;
  } finally {
    await database.drop();
  }
}
process.exit(failed ? 1 : 0);

/** True when something acknowledged was lost or something half-written was found. */
async function crashRepeatedly(database: BenchDatabase): Promise<boolean> {
  console.log(`\n## crash test on ${database.engine}: ${runs} runs, ${writerCount} writers`);
  let server = await startAppServer(database.url);
  const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
  const menu = await seedMenuAndFloor(admin, { dishes: 12, tables: 0 });
  const waiters = await createWaiters(admin, writerCount, 'writer');
  const ledger = new Ledger();
  let apiFindings: Findings = { lost: [], halfWritten: [] };
  for (let run = 1; run <= runs; run++) {
    const killAfterMs =
      KILL_AFTER_MS.min + Math.floor(Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min));
    const before = ledger.acknowledgedWrites;
    await writeAndKill(server, waiters, menu, ledger, killAfterMs);
    server = await startAppServer(database.url);
    const checker = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    apiFindings = await verifyThroughApi(checker, ledger);
    console.log(
      `run ${run}: SIGKILL after ${killAfterMs} ms, ${ledger.acknowledgedWrites - before} writes acknowledged, ` +
        `${ledger.unansweredWrites} unanswered so far; after restart: ${apiFindings.lost.length} lost, ` +
        `${apiFindings.halfWritten.length} half-written (API)`,
    );
  }
  await server.stop();
  const databaseFindings = await verifyInDatabase(database.url, ledger);
  const lost = new Set([...apiFindings.lost, ...databaseFindings.lost]);
  const halfWritten = new Set([...apiFindings.halfWritten, ...databaseFindings.halfWritten]);
  for (const finding of [...lost, ...halfWritten]) console.log(`  ${finding}`);
  for (const refusal of ledger.refusedWrites.slice(0, 10)) console.log(`  refused: ${refusal}`);
  console.log(
    `${database.engine}: runs ${runs}, acknowledged writes ${ledger.acknowledgedWrites} ` +
      `(${ledger.orders.size} orders), losses ${lost.size}, half-written ${halfWritten.size}, ` +
      `refused ${ledger.refusedWrites.length}`,
  );
  return lost.size > 0 || halfWritten.size > 0 || ledger.refusedWrites.length > 0;
}

async function writeAndKill(
  server: RunningServer,
  waiters: Waiter[],
  menu: Menu,
  ledger: Ledger,
  killAfterMs: number,
): Promise<void> {
  const sessions = await loginEach(server.baseUrl, waiters);
  let isStopped = false;
  const writers = sessions.map((session) => writeUntilStopped(session, menu, ledger, () => isStopped));
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  await server.kill();
  isStopped = true;
  await Promise.all(writers);
}
