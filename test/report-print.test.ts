import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Db } from '../src/core/db/database';
import { PRINT_JOBS } from '../src/printing/print-queue';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import { FakePrinter } from './helpers/fake-printer';
import { type Caller, callerFor } from './helpers/orders-factories';
import { paperText } from './helpers/paper';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';
const DAY = '2026-11-22';

type TestContext = Parameters<typeof buildTestApp>[0];

async function addReceiptPrinter(admin: Caller, port: number, width: number): Promise<void> {
  const created = await admin('POST', '/printers', {
    name: 'Till',
    host: '127.0.0.1',
    port,
    role: 'receipt',
    width,
  });
  assert.equal(created.statusCode, 201, created.body);
}

function printJobCount(db: Db): Promise<number> {
  return db
    .selectFrom('print_jobs')
    .select((eb) => eb.fn.countAll<number>().as('jobs'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.jobs));
}

/**
 * Casa Pepe's night: a table of four eats 60.00 in two bills, both paid by the cashier's shift (cash
 * 20.00 with a 2.00 tip, card 40.00); the drawer opened with 100.00 and is counted 1.00 short.
 */
async function closedNight(t: TestContext, target: DatabaseTarget) {
  const built = await buildTestApp(t, target, { env: { POS_TIMEZONE: 'America/Mexico_City' } });
  const { app, db } = built;
  const { call: waiter, admin, orderId, dishIds } = await billableOrder(app, db, [2000, 4000]);
  const renamed = await admin('PUT', '/settings', { business_name: 'Casa Pepe' });
  assert.equal(renamed.statusCode, 200, renamed.body);
  await db.updateTable('orders').set({ guests: 4 }).where('id', '=', orderId).execute();
  const cashierUser = await loggedInUser(app, db, 'cashier');
  const cashier = callerFor(app, cashierUser.cookies);
  const manager = callerFor(app, (await loggedInUser(app, db, 'manager')).cookies);
  const opened = await cashier('POST', '/shifts', { opening_cash: 100 });
  assert.equal(opened.statusCode, 201, opened.body);
  const shiftId: string = opened.json().id;
  const first = await createBill(waiter, orderId, { order_dish_ids: [dishIds[0]] });
  const cash = await cashier('POST', `/tickets/${first}/payments`, { method: 'cash', amount: 20, tip: 2 });
  assert.equal(cash.statusCode, 201, cash.body);
  const second = await createBill(waiter, orderId, {});
  const card = await cashier('POST', `/tickets/${second}/payments`, { method: 'card', amount: 40 });
  assert.equal(card.statusCode, 201, card.body);
  const closed = await cashier('POST', `/shifts/${shiftId}/close`, { counted_cash: 121 });
  assert.equal(closed.statusCode, 200, closed.body);
  return { ...built, admin, waiter, cashier, manager, cashierName: cashierUser.user.name, shiftId };
}

/** Each figure's line as the paper pairs it: the label, spaces, the amount flush right. */
function hasLine(text: string, label: string, value: string): boolean {
  return text.split('\n').some((line) => line.startsWith(label) && line.endsWith(` ${value}`));
}

describeEachDatabase('reports on paper', (target) => {
  it('prints the Z report on the receipt printer over TCP: the figures of GET /shifts/{id}/report', async (t) => {
    const night = await closedNight(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await addReceiptPrinter(night.admin, printer.port, 42);

    const queued = await night.cashier('POST', `/shifts/${night.shiftId}/report/print`);
    assert.equal(queued.statusCode, 202, queued.body);
    assert.equal(queued.json().message, 'Z report queued for printing');
    const job = await night.db.selectFrom('print_jobs').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([job.id, job.kind, job.ticket_id], [queued.json().id, 'receipt', null]);
    assert.deepEqual(printer.jobs, [], 'the request does not wait for the printer');
    await night.app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 1);
    const text = paperText(printer.jobs[0] ?? Buffer.alloc(0));

    const report = (await night.cashier('GET', `/shifts/${night.shiftId}/report`)).json();
    assert.deepEqual(
      [
        report.net_sales,
        report.bills,
        report.covers,
        report.average_bill,
        report.average_per_cover,
        report.tips_total,
        report.difference,
      ],
      [60, 2, 4, 30, 15, 2, -1],
    );
    const lines = text.split('\n');
    assert.ok(
      lines.every((line) => line.length <= 42),
      text,
    );
    assert.deepEqual(lines.slice(0, 4), [
      '                Casa Pepe',
      '                 CORTE Z',
      '-'.repeat(42),
      `Turno ${night.shiftId.slice(0, 6).toUpperCase()}`,
    ]);
    assert.ok(lines.includes(`Cajero ${night.cashierName}`), text);
    assert.ok(lines.includes('Abierto 22/11/2026 12:00'), text);
    assert.ok(lines.includes('Impreso 22/11/2026 12:00'), text);
    for (const [label, value] of [
      ['Ventas netas', '$60.00'],
      ['Cuentas', '2'],
      ['Comensales', '4'],
      ['Cuenta promedio', '$30.00'],
      ['Promedio por comensal', '$15.00'],
      ['Propinas', '$2.00'],
      ['Efectivo (1)', '$20.00'],
      ['Tarjeta (1)', '$40.00'],
      ['Efectivo esperado', '$122.00'],
      ['Efectivo contado', '$121.00'],
      ['Diferencia', '-$1.00'],
    ]) {
      assert.ok(hasLine(text, label as string, value as string), `${label} ${value}\n${text}`);
    }
    assert.ok(lines.includes(`Auditoría #${report.audit_head.seq}`), text);
  });

  it('prints the day report: key figures with covers and averages, payments, voids and comps, each shift', async (t) => {
    const night = await closedNight(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await addReceiptPrinter(night.admin, printer.port, 32);

    const day = (await night.manager('GET', `/reports/day/${DAY}`)).json();
    assert.deepEqual(
      [day.net_sales, day.bills, day.covers, day.average_bill, day.average_per_cover],
      [60, 2, 4, 30, 15],
    );
    const queued = await night.manager('POST', `/reports/day/${DAY}/print`);
    assert.equal(queued.statusCode, 202, queued.body);
    assert.equal(queued.json().message, 'Day report queued for printing');
    await night.app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 1);
    const text = paperText(printer.jobs[0] ?? Buffer.alloc(0));
    const lines = text.split('\n');
    assert.ok(
      lines.every((line) => line.length <= 32),
      text,
    );
    assert.deepEqual(lines.slice(0, 3), [
      '           Casa Pepe',
      '        REPORTE DEL DÍA',
      '           22/11/2026',
    ]);
    for (const [label, value] of [
      ['Ventas netas', '$60.00'],
      ['Cuentas', '2'],
      ['Comensales', '4'],
      ['Cuenta promedio', '$30.00'],
      ['Promedio por comensal', '$15.00'],
      ['Propinas', '$2.00'],
      ['Efectivo (1)', '$20.00'],
      ['Tarjeta (1)', '$40.00'],
      ['Anulaciones (0)', '$0.00'],
      ['Cortesías (0)', '$0.00'],
      [night.cashierName, '$60.00'],
      ['  Diferencia', '-$1.00'],
    ]) {
      assert.ok(hasLine(text, label as string, value as string), `${label} ${value}\n${text}`);
    }
  });

  it('prints in English for an English set-up', async (t) => {
    const night = await closedNight(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await addReceiptPrinter(night.admin, printer.port, 32);
    const english = await night.admin('PUT', '/settings', { locale: 'en-US' });
    assert.equal(english.statusCode, 200, english.body);
    assert.equal((await night.cashier('POST', `/shifts/${night.shiftId}/report/print`)).statusCode, 202);
    assert.equal((await night.manager('POST', `/reports/day/${DAY}/print`)).statusCode, 202);
    await night.app.jobs.run(PRINT_JOBS);
    // Queued at the same instant, the two jobs print in either order.
    const papers = printer.jobs.map((job) => paperText(job));
    const z = papers.find((paper) => paper.includes('Z REPORT'));
    const day = papers.find((paper) => paper.includes('DAY REPORT'));
    assert.ok(z && hasLine(z, 'Net sales', 'MX$60.00'), papers.join('\n'));
    assert.ok(day && hasLine(day, 'Covers', '4'), papers.join('\n'));
  });

  it('refuses without a receipt printer, queueing nothing; 404 for an unknown shift, 400 for a bad date', async (t) => {
    const night = await closedNight(t, target);
    const before = await databaseDigest(night.db);
    const noPrinter = { message: 'No receipt printer is set up' };
    const z = await night.cashier('POST', `/shifts/${night.shiftId}/report/print`);
    assert.deepEqual([z.statusCode, z.json()], [400, noPrinter]);
    const day = await night.manager('POST', `/reports/day/${DAY}/print`);
    assert.deepEqual([day.statusCode, day.json()], [400, noPrinter]);
    assert.equal(await printJobCount(night.db), 0);
    assert.deepEqual(await databaseDigest(night.db), before);

    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await addReceiptPrinter(night.admin, printer.port, 32);
    assert.equal((await night.admin('POST', `/shifts/${UNKNOWN_ID}/report/print`)).statusCode, 404);
    for (const date of ['2026-02-30', '22-11-2026']) {
      assert.equal((await night.manager('POST', `/reports/day/${date}/print`)).statusCode, 400, date);
    }
    assert.equal(await printJobCount(night.db), 0);
  });

  it("answers 403 to whoever may not read the report: another cashier's shift, the kitchen, a cashier's day report", async (t) => {
    const night = await closedNight(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await addReceiptPrinter(night.admin, printer.port, 32);
    const other = callerFor(night.app, (await loggedInUser(night.app, night.db, 'cashier')).cookies);
    const kitchen = callerFor(night.app, (await loggedInUser(night.app, night.db, 'kitchen')).cookies);
    assert.equal((await other('POST', `/shifts/${night.shiftId}/report/print`)).statusCode, 403);
    assert.equal((await kitchen('POST', `/shifts/${night.shiftId}/report/print`)).statusCode, 403);
    assert.equal((await night.cashier('POST', `/reports/day/${DAY}/print`)).statusCode, 403);
    assert.equal((await kitchen('POST', `/reports/day/${DAY}/print`)).statusCode, 403);
    assert.equal(await printJobCount(night.db), 0);
    // A manager prints anyone's Z report, as she reads it.
    assert.equal((await night.manager('POST', `/shifts/${night.shiftId}/report/print`)).statusCode, 202);
  });
});
