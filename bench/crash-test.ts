import { parseArgs } from 'node:util';
import { PhoenixdSimulator } from '../test/phoenixd-sim/simulator';
import { Ledger } from './crash/ledger';
import { MoneyLedger, WRITE_KINDS } from './crash/money-ledger';
import { verifyMoneyInDatabase } from './crash/money-verify';
import { type MoneySetup, payInvoice, serveUntilStopped } from './crash/money-writers';
import { type Findings, verifyInDatabase, verifyThroughApi } from './crash/verify';
import { writeUntilStopped } from './crash/writers';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor, type Waiter } from './lib/api';
import { type BenchDatabase, type Engine, freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, freePort, HOST, type RunningServer, startAppServer } from './lib/processes';

/**
 * `npm run crash-test [-- --runs 5 --writers 8 --cashiers 4 --max-ms 6000 --db sqlite|postgres]`
 * Writers hit the server at full speed; it is SIGKILLed at a random moment and restarted, several
 * times. Waiters' writers open orders and add dishes; cashiers' writers run whole services with money
 * and stock (send, move, merge, bill, cash, card, Lightning paid through the phoenixd simulator,
 * refunds, stock counts, close), and invoices left unpaid are paid at the node while the server is
 * dead. Every acknowledged write must then be there exactly once, whole, with sums that agree, and
 * every invoice paid at the node settled once. Exits 1 on any loss.
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    writers: { type: 'string', default: '8' },
    cashiers: { type: 'string', default: '4' },
    'max-ms': { type: 'string', default: '6000' },
    db: { type: 'string', default: 'all' },
  },
});
const runs = Math.min(20, Math.max(1, Number(values.runs)));
const writerCount = Math.min(32, Math.max(1, Number(values.writers)));
const cashierCount = Math.min(16, Math.max(0, Number(values.cashiers)));
/** Longer than a restarted server takes to read the node's paid list (its catch-up job runs every 30 s). */
const SETTLEMENT_WAIT_MS = 90_000;
const BTC_PRICE = 2_000_000;
const postgresUrl = postgresServerUrl();
const engines: Engine[] =
  values.db === 'all' ? (postgresUrl ? ['sqlite', 'postgres'] : ['sqlite']) : [values.db as Engine];

const KILL_AFTER_MS = { min: 300, max: Math.max(500, Number(values['max-ms'])) };

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
  console.log(
    `\n## crash test on ${database.engine}: ${runs} runs, ${writerCount} waiters, ${cashierCount} cashiers`,
  );
  // The server keeps its port across restarts: the node's webhooks name it.
  const port = await freePort();
  const webhookSecret = 'crash-test-webhook-secret';
  const simulator = await PhoenixdSimulator.start({
    webhookUrl: `http://${HOST}:${port}/webhook/phoenixd`,
    webhookSecret,
  });
  const env = {
    PHOENIXD_URL: simulator.url,
    PHOENIXD_PASSWORD: simulator.password,
    PHOENIXD_WEBHOOK_SECRET: webhookSecret,
    POS_RATE_SOURCE: `fixed:${BTC_PRICE}`,
  };
  const start = () => startAppServer(database.url, { env, port });
  try {
    let server = await start();
    const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    const menu = await seedMenuAndFloor(admin, { dishes: 12, tables: 0 });
    const setup = await seedMoneyService(admin);
    const waiters = await createWaiters(admin, writerCount, 'writer');
    const cashiers = await createWaiters(admin, cashierCount, 'cashier', 'manager');
    const ledger = new Ledger();
    const money = new MoneyLedger();
    let apiFindings: Findings = { lost: [], halfWritten: [] };
    for (let run = 1; run <= runs; run++) {
      const killAfterMs =
        KILL_AFTER_MS.min + Math.floor(Math.random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min));
      const before = ledger.acknowledgedWrites + money.acknowledgedWrites;
      await writeAndKill(
        server,
        { waiters, cashiers },
        { menu, setup, simulator },
        { ledger, money },
        killAfterMs,
      );
      // The guests whose invoices were left unpaid pay now, at the node, while the server is dead.
      const paidWhileDown = setup.unpaidInvoices.splice(0);
      for (const asked of paidWhileDown) await payInvoice(simulator, money, asked);
      server = await start();
      const checker = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      apiFindings = await verifyThroughApi(checker, ledger);
      const settleMs = await waitForSettlement(checker, money);
      console.log(
        `run ${run}: SIGKILL after ${killAfterMs} ms, ${ledger.acknowledgedWrites + money.acknowledgedWrites - before} ` +
          `writes acknowledged, ${paidWhileDown.length} invoices paid while down (settled ${settleMs} ms after ` +
          `the restart); after restart: ${apiFindings.lost.length} lost, ${apiFindings.halfWritten.length} half-written (API)`,
      );
    }
    await server.stop();
    const databaseFindings = await verifyInDatabase(database.url, ledger);
    const moneyFindings = await verifyMoneyInDatabase(database.url, money);
    const lost = new Set([...apiFindings.lost, ...databaseFindings.lost, ...moneyFindings.lost]);
    const halfWritten = new Set([
      ...apiFindings.halfWritten,
      ...databaseFindings.halfWritten,
      ...moneyFindings.halfWritten,
    ]);
    for (const finding of [...lost, ...halfWritten].slice(0, 40)) console.log(`  ${finding}`);
    const refused = [...ledger.refusedWrites, ...money.refused];
    for (const refusal of refused.slice(0, 10)) console.log(`  refused: ${refusal}`);
    console.log(`| write | acknowledged | unanswered at the kills |\n| --- | --- | --- |`);
    console.log(
      `| order with dishes, dishes added (waiters) | ${ledger.acknowledgedWrites} | ${ledger.unansweredWrites} |`,
    );
    for (const kind of WRITE_KINDS)
      console.log(`| ${kind} | ${money.acknowledged.get(kind)} | ${money.unanswered.get(kind)} |`);
    console.log(`| Lightning invoices paid at the node | ${money.paidInvoices.size} | |`);
    console.log(
      `${database.engine}: runs ${runs}, acknowledged writes ${ledger.acknowledgedWrites + money.acknowledgedWrites} ` +
        `(${ledger.orders.size} waiters' orders), losses ${lost.size}, half-written ${halfWritten.size}, ` +
        `refused ${refused.length}`,
    );
    return lost.size > 0 || halfWritten.size > 0 || refused.length > 0;
  } finally {
    await simulator.stop();
  }
}

/** A dining room for new tables and a plate whose recipe takes an ingredient and a product. */
async function seedMoneyService(admin: ApiSession): Promise<MoneySetup> {
  const space = await admin.expect<{ id: string }>(201, 'POST', '/spaces', { name: 'Terraza' });
  const pantry = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Despensa',
    type: 'ingredient',
  });
  const drinks = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Refrescos',
    type: 'product',
  });
  const plates = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Platos',
    type: 'dish',
  });
  const ingredient = await admin.expect<{ id: string }>(201, 'POST', '/ingredients', {
    name: 'Carne al pastor',
    category_id: pantry.id,
    quantity: 100_000,
    unit: 'kg',
  });
  const product = await admin.expect<{ id: string }>(201, 'POST', '/products', {
    name: 'Refresco',
    sku: 'REF-355',
    price: 25,
    quantity: 100_000,
    category_id: drinks.id,
  });
  const dish = await admin.expect<{ id: string }>(201, 'POST', '/dishes', {
    name: 'Orden de pastor con refresco',
    price: 145.5,
    category_id: plates.id,
    recipe: [
      { ingredient_id: ingredient.id, quantity: 0.2 },
      { product_id: product.id, quantity: 1 },
    ],
  });
  return {
    spaceId: space.id,
    plateDishId: dish.id,
    ingredientId: ingredient.id,
    productId: product.id,
    unpaidInvoices: [],
  };
}

/** Waits until every invoice paid at the node is settled on a restarted server; the time it took. */
async function waitForSettlement(checker: ApiSession, money: MoneyLedger): Promise<number> {
  const started = Date.now();
  const waiting = new Set([...money.paidInvoices.values()].map((paid) => paid.paymentId));
  while (waiting.size > 0 && Date.now() - started < SETTLEMENT_WAIT_MS) {
    for (const id of [...waiting]) {
      const reply = await checker.request('GET', `/payments/${id}`);
      const status = (reply.body as { status?: string } | undefined)?.status;
      if (status === 'settled' || status === 'refunded' || status === 'partially_refunded')
        waiting.delete(id);
    }
    if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return Date.now() - started;
}

async function writeAndKill(
  server: RunningServer,
  users: { waiters: Waiter[]; cashiers: Waiter[] },
  world: { menu: Menu; setup: MoneySetup; simulator: PhoenixdSimulator },
  ledgers: { ledger: Ledger; money: MoneyLedger },
  killAfterMs: number,
): Promise<void> {
  const waiterSessions = await loginEach(server.baseUrl, users.waiters);
  const cashierSessions = await loginEach(server.baseUrl, users.cashiers);
  let isStopped = false;
  const writers = [
    ...waiterSessions.map((session) =>
      writeUntilStopped(session, world.menu, ledgers.ledger, () => isStopped),
    ),
    ...cashierSessions.map((session, index) =>
      serveUntilStopped(session, index + 1, world.setup, ledgers.money, world.simulator, () => isStopped),
    ),
  ];
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  await server.kill();
  isStopped = true;
  await Promise.all(writers);
}
