import { parseArgs } from 'node:util';
import { MercadoPagoSimulator } from '../test/mp-sim/simulator';
import { PhoenixdSimulator } from '../test/phoenixd-sim/simulator';
import { Ledger } from './crash/ledger';
import { MoneyLedger, WRITE_KINDS } from './crash/money-ledger';
import { verifyMoneyInDatabase } from './crash/money-verify';
import {
  type MoneySetup,
  payInvoice,
  type Simulators,
  serveUntilStopped,
  tapAtTerminal,
} from './crash/money-writers';
import { type Findings, verifyInDatabase, verifyThroughApi } from './crash/verify';
import { writeUntilStopped } from './crash/writers';
import { ApiSession, createWaiters, loginEach, type Menu, seedMenuAndFloor, type Waiter } from './lib/api';
import { type BenchDatabase, type Engine, freshDatabase, postgresServerUrl } from './lib/databases';
import { APP_ADMIN, freePort, HOST, type RunningServer, startAppServer } from './lib/processes';

/**
 * `npm run crash-test [-- --runs 5 --writers 8 --cashiers 4 --max-ms 6000 --db sqlite|postgres]`
 * Writers hit the server at full speed; it is SIGKILLed at a random moment and restarted, several
 * times. Waiters' writers open orders and add dishes; cashiers' writers run whole services with money
 * and stock (send, move, merge, bill, cash, card, card charged on the cashier's own terminal at the
 * Mercado Pago simulator, Lightning paid through the phoenixd simulator, refunds, stock counts, close),
 * and invoices left unpaid and charges left at their terminal are paid while the server is dead.
 * Every acknowledged write must then be there exactly once, whole, with sums that agree, and every
 * invoice paid at the node and every card tapped at a terminal settled once. Exits 1 on any loss.
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
/**
 * Longer than a restarted server takes to read the node's paid list (its catch-up job runs every 30 s)
 * and a terminal charge back (a claim of the killed server's watch job runs out after 30 s).
 */
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
  // The server keeps its port across restarts: the node's webhooks and the terminals' notifications name it.
  const port = await freePort();
  const webhookSecret = 'crash-test-webhook-secret';
  const phoenixd = await PhoenixdSimulator.start({
    webhookUrl: `http://${HOST}:${port}/webhook/phoenixd`,
    webhookSecret,
  });
  const terminals = Array.from(
    { length: cashierCount },
    (_, index) => `NEWLAND_N950__CRASH${String(index + 1).padStart(10, '0')}`,
  );
  const mercadoPago = await MercadoPagoSimulator.start({
    notificationUrl: `http://${HOST}:${port}/terminals/mercadopago/webhook`,
    terminals: terminals.map((id, index) => ({
      id,
      pos_id: 70_000_001 + index,
      store_id: '70000001',
      external_pos_id: `CAJA${index + 1}`,
      operating_mode: 'PDV',
    })),
  });
  const simulators: Simulators = { phoenixd, mercadoPago };
  const env = {
    PHOENIXD_URL: phoenixd.url,
    PHOENIXD_PASSWORD: phoenixd.password,
    PHOENIXD_WEBHOOK_SECRET: webhookSecret,
    POS_RATE_SOURCE: `fixed:${BTC_PRICE}`,
    POS_MP_ACCESS_TOKEN: mercadoPago.accessToken,
    POS_MP_WEBHOOK_SECRET: mercadoPago.webhookSecret,
    POS_MP_API_URL: mercadoPago.url,
  };
  const start = () => startAppServer(database.url, { env, port });
  try {
    let server = await start();
    const admin = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
    const menu = await seedMenuAndFloor(admin, { dishes: 12, tables: 0 });
    const setup = await seedMoneyService(admin, terminals);
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
        { menu, setup, simulators },
        { ledger, money },
        killAfterMs,
      );
      // The guests whose invoices were left unpaid pay now, at the node, while the server is dead; so do
      // those still at a terminal (left there, or whose charge got no answer but reached the terminal).
      const paidWhileDown = setup.unpaidInvoices.splice(0);
      for (const asked of paidWhileDown) await payInvoice(phoenixd, money, asked);
      const tappedWhileDown = tapWaitingGuests(setup, simulators, money);
      money.tappedWhileDown += tappedWhileDown;
      server = await start();
      const checker = await ApiSession.login(server.baseUrl, APP_ADMIN.name, APP_ADMIN.pin);
      apiFindings = await verifyThroughApi(checker, ledger);
      const settleMs = await waitForSettlement(checker, money, setup, simulators);
      console.log(
        `run ${run}: SIGKILL after ${killAfterMs} ms, ${ledger.acknowledgedWrites + money.acknowledgedWrites - before} ` +
          `writes acknowledged, ${paidWhileDown.length} invoices paid and ${tappedWhileDown} terminal charges ` +
          `tapped while down (settled ${settleMs} ms after the restart); after restart: ` +
          `${apiFindings.lost.length} lost, ${apiFindings.halfWritten.length} half-written (API)`,
      );
    }
    await server.stop();
    const databaseFindings = await verifyInDatabase(database.url, ledger);
    const moneyFindings = await verifyMoneyInDatabase(database.url, money, {
      terminalOrders: ordersByReference(mercadoPago),
    });
    const lost = new Set([...apiFindings.lost, ...databaseFindings.lost, ...moneyFindings.lost]);
    const halfWritten = new Set([
      ...apiFindings.halfWritten,
      ...databaseFindings.halfWritten,
      ...moneyFindings.halfWritten,
    ]);
    const { settledTwice } = moneyFindings;
    for (const finding of [...lost, ...halfWritten, ...settledTwice].slice(0, 40))
      console.log(`  ${finding}`);
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
      `| terminal charges tapped (while the server was down) | ${money.tappedCharges.size} ` +
        `(${money.tappedWhileDown}) | declined first: ${money.declinedCharges} |`,
    );
    console.log(
      `${database.engine}: runs ${runs}, acknowledged writes ${ledger.acknowledgedWrites + money.acknowledgedWrites} ` +
        `(${ledger.orders.size} waiters' orders), losses ${lost.size}, half-written ${halfWritten.size}, ` +
        `settled twice ${settledTwice.length}, refused ${refused.length}`,
    );
    return lost.size > 0 || halfWritten.size > 0 || settledTwice.length > 0 || refused.length > 0;
  } finally {
    await phoenixd.stop();
    await mercadoPago.stop();
  }
}

/** Every guest whose charge a crash terminal still shows pays it; how many did. */
function tapWaitingGuests(setup: MoneySetup, simulators: Simulators, money: MoneyLedger): number {
  let tapped = 0;
  for (const terminal of setup.terminals) {
    const asked = setup.terminalCharges.get(terminal);
    if (asked && tapAtTerminal(simulators.mercadoPago, money, terminal, asked)) tapped++;
  }
  return tapped;
}

/** What the provider knows: how many orders were made for each payment (its external reference). */
function ordersByReference(simulator: MercadoPagoSimulator): Map<string, number> {
  const orders = new Map<string, number>();
  for (const order of simulator.snapshot().orders)
    orders.set(order.external_reference, (orders.get(order.external_reference) ?? 0) + 1);
  return orders;
}

/**
 * A dining room for new tables and a plate whose recipe takes an ingredient and a product. Paid orders
 * do not close themselves: the cashier's close is one of the writes the test holds the server to.
 */
async function seedMoneyService(admin: ApiSession, terminals: string[]): Promise<MoneySetup> {
  await admin.expect(200, 'PUT', '/settings', { close_paid_orders: false });
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
    terminals,
    terminalCharges: new Map(),
  };
}

/**
 * Waits until every invoice paid at the node and every card tapped at a terminal is settled on a
 * restarted server, and no terminal is left with a charge pending (one whose creation got no answer
 * is sent again by the restarted server: its guest, still there, pays it); the time it took.
 */
async function waitForSettlement(
  checker: ApiSession,
  money: MoneyLedger,
  setup: MoneySetup,
  simulators: Simulators,
): Promise<number> {
  const started = Date.now();
  const paid = [...money.paidInvoices.values(), ...money.tappedCharges.values()];
  const waiting = new Set(paid.map((payment) => payment.paymentId));
  const bills = new Set([...setup.terminalCharges.values()].map((asked) => asked.ticketId));
  while ((waiting.size > 0 || bills.size > 0) && Date.now() - started < SETTLEMENT_WAIT_MS) {
    for (const paymentId of tappedNow()) waiting.add(paymentId);
    for (const id of [...waiting]) {
      const reply = await checker.request('GET', `/payments/${id}`);
      const status = (reply.body as { status?: string } | undefined)?.status;
      if (status === 'settled' || status === 'refunded' || status === 'partially_refunded')
        waiting.delete(id);
    }
    for (const ticketId of [...bills]) {
      const reply = await checker.request('GET', `/tickets/${ticketId}/payments`);
      const payments = (reply.body as { method: string; status: string }[] | undefined) ?? [];
      const isCharging = payments.some(
        (payment) =>
          payment.method === 'card_terminal' && ['pending', 'action_required'].includes(payment.status),
      );
      if (!isCharging) bills.delete(ticketId);
    }
    if (waiting.size > 0 || bills.size > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return Date.now() - started;

  function tappedNow(): string[] {
    const before = new Set(money.tappedCharges.keys());
    tapWaitingGuests(setup, simulators, money);
    return [...money.tappedCharges.keys()].filter((id) => !before.has(id));
  }
}

async function writeAndKill(
  server: RunningServer,
  users: { waiters: Waiter[]; cashiers: Waiter[] },
  world: { menu: Menu; setup: MoneySetup; simulators: Simulators },
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
      serveUntilStopped(session, index + 1, world.setup, ledgers.money, world.simulators, () => isStopped),
    ),
  ];
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  await server.kill();
  isStopped = true;
  await Promise.all(writers);
}
