import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LIGHTNING_SWEEP } from '../src/app';
import type { Db } from '../src/core/db/database';
import { escposOf } from '../src/printing/escpos';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import type { DatabaseTarget } from './helpers/database';
import { databaseDigest } from './helpers/db-digest';
import { insertDish, insertTable, insertUser } from './helpers/factories';
import { callerFor } from './helpers/orders-factories';
import { buildWalletTestApp } from './helpers/wallet-factories';

const UNKNOWN_ID = '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e';
/** 1 BTC = 2,000,000.00 MXN: 53.50 is 2,675 sat. */
const PRICE = 2_000_000;

type TestContext = Parameters<typeof buildWalletTestApp>[0];

/**
 * Ana's table T4: two tacos and a jamaica water, billed with a 10 % discount, paid 50.00 in cash
 * (60.00 handed over, 5.00 tip) and the rest over Lightning, settled by the sweep. The node takes a
 * liquidity fee of 500 sat from the guest's 2,675: the receipt still says what the guest paid.
 */
async function paidBill(t: TestContext, target: DatabaseTarget) {
  const built = await buildWalletTestApp(t, target, {
    env: { POS_RATE_SOURCE: `fixed:${PRICE}` },
    simulator: { liquidityFeeSat: 500 },
  });
  const { app, db, simulator } = built;
  const ana = await insertUser(db, { name: 'Ana', role: 'staff' });
  const boss = await insertUser(db, { role: 'admin' });
  const call = callerFor(app, await login(app, ana.name, ana.pin));
  const admin = callerFor(app, await login(app, boss.name, boss.pin));
  const settings = await admin('PUT', '/settings', {
    business_name: 'Casa Pepe',
    address: 'Av. Juárez 10, Centro',
    phone: '55 1234 5678',
    tax_id: 'CPE010203AB1',
    receipt_footer: '¡Gracias!',
    tax_rate: 16,
    timezone: 'America/Mexico_City',
  });
  assert.equal(settings.statusCode, 200, settings.body);
  const tacos = await insertDish(db, { name: 'Tacos al pastor', priceCents: 4500 });
  const water = await insertDish(db, { name: 'Agua de jamaica', priceCents: 2500 });
  const table = await insertTable(db, { name: 'T4' });
  const order = await call('POST', '/orders/with-dishes', {
    order: { table_id: table.id },
    dishes: [{ dish_id: tacos.id }, { dish_id: water.id }, { dish_id: tacos.id }],
  });
  assert.equal(order.statusCode, 201, order.body);
  const orderId: string = order.json().id;
  const ticketId = await createBill(admin, orderId, {
    discount: { type: 'percent', value: 10, reason: 'Regulars' },
  });
  const cash = await call('POST', `/tickets/${ticketId}/payments`, {
    method: 'cash',
    amount: 50,
    tip: 5,
    tendered: 60,
  });
  assert.equal(cash.statusCode, 201, cash.body);
  built.clock.advance(1000);
  const lightning = await call('POST', `/tickets/${ticketId}/lightning`, {});
  assert.equal(lightning.statusCode, 201, lightning.body);
  await simulator.receivePayment(lightning.json().lightning.invoice);
  await app.jobs.run(LIGHTNING_SWEEP);
  return { ...built, call, admin, orderId, ticketId };
}

const lines = (...texts: string[]) => texts.map((text) => `${text}\n`).join('');

function storedTicket(db: Db, id: string) {
  return db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describeEachDatabase('receipts', (target) => {
  it("prints a paid bill as text in the restaurant's Spanish: header, dishes grouped (first entered first), totals, payments with sats and rate, local date, amounts the Mexican way", async (t) => {
    const { db, call, orderId, ticketId } = await paidBill(t, target);
    const stored = await storedTicket(db, ticketId);
    assert.deepEqual([stored.status, Number(stored.total_cents)], [2, 10350]);
    const response = await call('GET', `/tickets/${ticketId}/receipt?width=32`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(
      response.body,
      lines(
        '           Casa Pepe',
        '     Av. Juárez 10, Centro',
        '       Tel. 55 1234 5678',
        '        RFC CPE010203AB1',
        '--------------------------------',
        // The codes the till and the kitchen screen show for this bill and its order.
        `Cuenta ${ticketId.slice(0, 6).toUpperCase()}`,
        `Orden ${orderId.slice(0, 6).toUpperCase()}`,
        'Fecha 22/11/2026 12:00',
        'Mesa T4',
        'Mesero Ana',
        '--------------------------------',
        '2 x Tacos al pastor       $90.00',
        '1 x Agua de jamaica       $25.00',
        '--------------------------------',
        'Subtotal                 $115.00',
        'Descuento                -$11.50',
        'TOTAL MXN                $103.50',
        'IVA incluido 16 %         $14.28',
        '--------------------------------',
        'Efectivo                  $50.00',
        'Lightning                 $53.50',
        '  2,675 sat a $2,000,000.00/BTC',
        'Propina                    $5.00',
        'Total con propina        $108.50',
        'Efectivo recibido         $60.00',
        'Cambio                     $5.00',
        '--------------------------------',
        '           ¡Gracias!',
      ),
    );
  });

  it('prints in English for an English set-up, and refuses a language it has no words for', async (t) => {
    const { db, call, admin, ticketId } = await paidBill(t, target);
    const before = await databaseDigest(db);
    const refused = await admin('PUT', '/settings', { locale: 'fr-FR' });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(await databaseDigest(db), before);
    const english = await admin('PUT', '/settings', { locale: 'en-US' });
    assert.deepEqual([english.statusCode, english.json().locale], [200, 'en-US']);
    const printed = (await call('GET', `/tickets/${ticketId}/receipt?width=32`)).body.split('\n');
    for (const line of [
      '      Tax ID CPE010203AB1',
      'Date 2026-11-22 12:00',
      'Waiter Ana',
      'TOTAL MXN              MX$103.50',
      'Tax included 16%        MX$14.28',
      '  2,675 sat at',
      '  MX$2,000,000.00/BTC',
      'Tip                      MX$5.00',
      'Total with tip         MX$108.50',
      'Cash received           MX$60.00',
      'Change                   MX$5.00',
    ]) {
      assert.ok(printed.includes(line), line);
    }
  });

  it('answers the same receipt as ESC/POS bytes', async (t) => {
    const { call, ticketId } = await paidBill(t, target);
    const text = await call('GET', `/tickets/${ticketId}/receipt?width=42`);
    const response = await call('GET', `/tickets/${ticketId}/receipt?width=42&format=escpos`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/octet-stream');
    const bytes = response.rawPayload;
    assert.deepEqual(bytes, Buffer.from(escposOf(text.body.trimEnd().split('\n'), 42)));
    assert.deepEqual([...bytes.subarray(0, 2)], [0x1b, 0x40], 'starts by resetting the printer');
    assert.deepEqual([...bytes.subarray(-4, -1)], [0x1d, 0x56, 0x00], 'ends with a cut');
    assert.ok(bytes.includes(Buffer.from('TOTAL MXN                          $103.50\n')));
    assert.ok(bytes.includes(Buffer.from([0xad])), 'the ¡ of the footer in the printer’s code page');
  });

  it('lays out each paper width and refuses others, and unknown bills', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    for (const width of [32, 42, 48]) {
      const response = await call('GET', `/tickets/${ticketId}/receipt?width=${width}`);
      assert.equal(response.statusCode, 200);
      const printed = response.body.trimEnd().split('\n');
      assert.ok(printed.includes('-'.repeat(width)));
      assert.deepEqual(
        printed.filter((line) => line.length > width),
        [],
      );
      assert.ok(
        printed.includes(`Saldo pendiente${' '.repeat(width - 21)}$60.00`),
        'an unpaid bill says what is owed',
      );
      assert.equal(
        printed.filter((line) => line.trim() === '*** PRECUENTA ***').length,
        1,
        'and is marked as the guest check, not a receipt',
      );
    }
    const byDefault = (await call('GET', `/tickets/${ticketId}/receipt`)).body.split('\n');
    assert.equal(
      byDefault[0],
      '-'.repeat(48),
      '48 columns by default, and no empty header without a business name',
    );
    const before = await databaseDigest(db);
    for (const query of ['width=40', 'width=0', 'format=pdf', 'width=abc']) {
      const refused = await call('GET', `/tickets/${ticketId}/receipt?${query}`);
      assert.equal(refused.statusCode, 400, query);
    }
    const unknown = await call('GET', `/tickets/${UNKNOWN_ID}/receipt`);
    assert.deepEqual([unknown.statusCode, unknown.body], [404, 'Resource not found']);
    assert.equal((await app.inject({ method: 'GET', url: `/tickets/${ticketId}/receipt` })).statusCode, 401);
    assert.deepEqual(await databaseDigest(db), before);
  });
});
