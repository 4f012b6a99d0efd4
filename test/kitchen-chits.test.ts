import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chitLines } from '../src/printing/chit-layout';
import { escposOf } from '../src/printing/escpos';
import { enqueueKitchenChits } from '../src/printing/kitchen-chits';
import { PRINT_JOBS } from '../src/printing/print-queue';
import type { PaperLocale } from '../src/settings/paper-locales';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { insertDish, insertTable, insertUser } from './helpers/factories';
import { FakePrinter, switchedOffPort } from './helpers/fake-printer';
import { type Caller, callerFor } from './helpers/orders-factories';

type Built = Awaited<ReturnType<typeof buildTestApp>>;

/** Ana's order at T4: two tacos for the grill (one without onion, one plain, one more plain) and a water for the bar. */
async function orderForTwoStations({ app, db }: Built) {
  const ana = await insertUser(db, { name: 'Ana', role: 'staff' });
  const boss = await insertUser(db, { role: 'admin' });
  const call = callerFor(app, await login(app, ana.name, ana.pin));
  const admin = callerFor(app, await login(app, boss.name, boss.pin));
  const zone = await admin('PUT', '/settings', { timezone: 'America/Mexico_City' });
  assert.equal(zone.statusCode, 200, zone.body);
  const tacos = await insertDish(db, { name: 'Tacos al pastor' });
  const water = await insertDish(db, { name: 'Agua de jamaica' });
  const table = await insertTable(db, { name: 'T4' });
  const created = await call('POST', '/orders/with-dishes', {
    order: { table_id: table.id },
    dishes: [
      { dish_id: tacos.id, notes: 'no onion' },
      { dish_id: tacos.id },
      { dish_id: water.id },
      { dish_id: tacos.id },
    ],
  });
  assert.equal(created.statusCode, 201, created.body);
  const orderId: string = created.json().id;
  const rows = await db
    .selectFrom('order_dishes')
    .select(['id', 'dish_id'])
    .where('order_id', '=', orderId)
    .execute();
  const dishes = rows.map((row) => ({
    orderDishId: row.id,
    station: row.dish_id === tacos.id ? 'Grill' : 'bar',
  }));
  return { call, admin, orderId, dishes };
}

async function addPrinter(admin: Caller, body: Record<string, unknown>): Promise<string> {
  const created = await admin('POST', '/printers', { host: '127.0.0.1', width: 32, ...body });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

/** The chit's head as a Mexican kitchen reads it. */
function header(station: string, orderId: string): string[] {
  const title = station.toUpperCase();
  return [
    ' '.repeat(Math.floor((32 - title.length) / 2)) + title,
    'Mesa T4',
    'Mesero Ana',
    `Orden ${orderId.slice(0, 6).toUpperCase()}`,
    'Enviado 22/11/2026 12:00',
    '-'.repeat(32),
  ];
}

describeEachDatabase('kitchen chits', (target) => {
  it('queues a chit per station printer with that station’s dishes, and prints it', async (t) => {
    const built = await buildTestApp(t, target);
    const { app, db, clock } = built;
    const { admin, orderId, dishes } = await orderForTwoStations(built);
    const grill = await FakePrinter.start();
    const everything = await FakePrinter.start();
    t.after(() => Promise.all([grill.stop(), everything.stop()]));
    const grillId = await addPrinter(admin, {
      name: 'Grill',
      port: grill.port,
      role: 'kitchen',
      station: 'grill',
    });
    const passId = await addPrinter(admin, { name: 'Pass', port: everything.port, role: 'kitchen' });
    await addPrinter(admin, { name: 'Bar', port: await switchedOffPort(), role: 'kitchen', station: 'Bar' });
    await addPrinter(admin, { name: 'Till', port: everything.port, role: 'receipt' });

    const queued = await db
      .transaction()
      .execute((trx) => enqueueKitchenChits(trx, { orderId, dishes, now: clock.now() }));
    assert.equal(queued, 3, 'grill, bar and the printer of every station; never the receipt printer');
    const jobs = await db.selectFrom('print_jobs').selectAll().execute();
    assert.deepEqual(
      jobs.map((job) => [job.kind, job.order_id, job.ticket_id, job.state]),
      Array(3).fill(['kitchen_chit', orderId, null, 'pending']),
    );

    await app.jobs.run(PRINT_JOBS);
    // In the order the waiter entered them: the taco without onion first, then the two plain ones.
    const tacos = ['1 x Tacos al pastor', '>> no onion', '2 x Tacos al pastor'];
    assert.deepEqual(grill.jobs, [
      Buffer.from(escposOf([...header('Grill', orderId), ...tacos, '-'.repeat(32)], 32)),
    ]);
    assert.deepEqual(everything.jobs, [
      Buffer.from(
        escposOf([...header('COCINA', orderId), ...tacos, '1 x Agua de jamaica', '-'.repeat(32)], 32),
      ),
    ]);
    const states = await db.selectFrom('print_jobs').select(['printer_id', 'state']).execute();
    assert.deepEqual(
      states
        .filter((job) => job.state === 'printed')
        .map((job) => job.printer_id)
        .sort(),
      [grillId, passId].sort(),
    );
    assert.equal(states.filter((job) => job.state === 'pending').length, 1, 'the bar printer is off: kept');
  });

  it('queues nothing when the sending rolls back, and nothing without kitchen printers', async (t) => {
    const built = await buildTestApp(t, target);
    const { db, clock } = built;
    const { admin, orderId, dishes } = await orderForTwoStations(built);
    const sent = { orderId, dishes, now: clock.now() };
    assert.equal(await db.transaction().execute((trx) => enqueueKitchenChits(trx, sent)), 0);
    await addPrinter(admin, { name: 'Grill', port: 9100, role: 'kitchen', station: 'grill' });
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        assert.equal(await enqueueKitchenChits(trx, sent), 1);
        throw new Error('the send failed after the chits were queued');
      }),
      /the send failed/,
    );
    assert.deepEqual(await db.selectFrom('print_jobs').selectAll().execute(), []);
  });

  it('prints a void chit at the station when a plate it is making is voided or removed, and none for a plate served', async (t) => {
    const built = await buildTestApp(t, target);
    const { app } = built;
    const { call, admin, orderId } = await orderForTwoStations(built);
    const pass = await FakePrinter.start();
    t.after(() => pass.stop());
    await addPrinter(admin, { name: 'Pass', port: pass.port, role: 'kitchen' });
    assert.equal((await call('POST', `/orders/${orderId}/send`)).statusCode, 200);
    await app.jobs.run(PRINT_JOBS);
    assert.equal(pass.jobs.length, 1, 'the chit of the send');
    const plates = (await call('GET', `/orders/${orderId}/dishes`)).json() as {
      id: string;
      dish_name: string;
    }[];
    const [firstTaco, secondTaco] = plates.filter((plate) => plate.dish_name === 'Tacos al pastor');
    const water = plates.find((plate) => plate.dish_name === 'Agua de jamaica');

    const voided = await admin('POST', `/orders/${orderId}/dishes/${firstTaco?.id}/void`, {
      reason: 'Mesa equivocada',
    });
    assert.equal(voided.statusCode, 200, voided.body);
    const removed = await admin('DELETE', `/orders/${orderId}/dishes/${water?.id}`);
    assert.equal(removed.statusCode, 200, removed.body);
    for (const status of ['preparing', 'ready', 'served']) {
      const moved = await admin('PUT', `/orders/${orderId}/dishes/${secondTaco?.id}/status`, { status });
      assert.equal(moved.statusCode, 200, moved.body);
    }
    const servedRemoved = await admin('DELETE', `/orders/${orderId}/dishes/${secondTaco?.id}`);
    assert.equal(servedRemoved.statusCode, 200, servedRemoved.body);

    await app.jobs.run(PRINT_JOBS);
    const banner = `${' '.repeat(2)}*** ANULADO: NO PREPARAR ***`;
    const text = pass.jobs.slice(1).map((job) => job.toString('latin1'));
    assert.equal(text.length, 2, 'one per void of a plate being made; none for the served one');
    // Queued in the same instant: printed in either order.
    const taco = text.find((chit) => chit.includes('1 x Tacos al pastor'));
    const waterChit = text.find((chit) => chit.includes('1 x Agua de jamaica'));
    assert.ok(taco?.includes(banner) && taco.includes('Motivo: Mesa equivocada'), taco);
    assert.ok(waterChit?.includes(banner), waterChit);
  });

  it('prints the chit in English for an English set-up', async (t) => {
    const built = await buildTestApp(t, target);
    const { app, db, clock } = built;
    const { admin, orderId, dishes } = await orderForTwoStations(built);
    const english = await admin('PUT', '/settings', { locale: 'en-US' });
    assert.equal(english.statusCode, 200, english.body);
    const pass = await FakePrinter.start();
    t.after(() => pass.stop());
    await addPrinter(admin, { name: 'Pass', port: pass.port, role: 'kitchen' });
    await db.transaction().execute((trx) => enqueueKitchenChits(trx, { orderId, dishes, now: clock.now() }));
    await app.jobs.run(PRINT_JOBS);
    assert.deepEqual(pass.jobs, [
      Buffer.from(
        escposOf(
          [
            '            KITCHEN',
            'Table T4',
            'Waiter Ana',
            `Order ${orderId.slice(0, 6).toUpperCase()}`,
            'Sent 2026-11-22 12:00',
            '-'.repeat(32),
            '1 x Tacos al pastor',
            '>> no onion',
            '2 x Tacos al pastor',
            '1 x Agua de jamaica',
            '-'.repeat(32),
          ],
          32,
        ),
      ),
    ]);
  });
});

describe('a chit’s heading', () => {
  const chit = (locale: PaperLocale, station: string | null) =>
    chitLines(
      { locale, station, orderId: 'a3d69632-0000', tableName: '4', waiter: 'Wen', sentAt: '', dishes: [] },
      32,
    )[0]?.trim();

  it('names the station every category starts in, "kitchen", in the paper’s language', () => {
    assert.deepEqual(
      [chit('es-MX', 'kitchen'), chit('es-MX', null), chit('en-US', 'kitchen'), chit('es-MX', 'parrilla')],
      ['COCINA', 'COCINA', 'KITCHEN', 'PARRILLA'],
    );
  });
});
