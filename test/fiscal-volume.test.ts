import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { storedEvents } from './helpers/checkout-factories';
import {
  buildFiscalApp,
  type FiscalApp,
  fiscalOf,
  GUEST_CUSTOMER,
  paidBill,
} from './helpers/fiscal-factories';

const INVOICE = { customer: GUEST_CUSTOMER, use: 'G03' };
const DAY = '2026-11-22';
/** 12:00 of 22 November 2026 in Mexico City (UTC−6), when the test's clock starts. */
const AFTERNOON = Date.UTC(2026, 10, 22, 18);

/**
 * Receipts of another till of the same PAC account, spread over the afternoon: the PAC lists them with
 * ours, and a global invoice takes every open receipt of its dates.
 */
async function othersReceipts(fx: FiscalApp, count: number): Promise<void> {
  const post = (index: number) =>
    fetch(`${fx.sim.url}/receipts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.sim.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        payment_form: '01',
        date: new Date(AFTERNOON + 1000 + Math.floor((index * 10 * 60 * 60_000) / count)).toISOString(),
        items: [{ quantity: 1, product: { description: 'Agua', product_key: '90101501', price: 20 } }],
      }),
    }).then((response) => assert.equal(response.status, 200));
  for (let first = 0; first < count; first += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - first) }, (_, step) => post(first + step)));
  }
}

async function refundedAfterInvoicing(fx: FiscalApp) {
  const bill = await paidBill(fx);
  const invoice = await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, INVOICE);
  assert.equal(invoice.statusCode, 201, invoice.body);
  const refund = await fx.admin('POST', `/payments/${bill.paymentId}/refund`, {
    amount: 35.5,
    reason: 'Platillo frío',
  });
  assert.equal(refund.statusCode, 201, refund.body);
  return bill;
}

type Cfdi = { kind: string; status: string; uuid: string | null; error: string | null };
const creditNotes = async (fx: FiscalApp, ticketId: string): Promise<Cfdi[]> =>
  (await fiscalOf(fx, ticketId)).cfdis.filter((cfdi: Cfdi) => cfdi.kind === 'credit_note');

describeEachDatabase('e-invoicing at a real restaurant’s volume', (target) => {
  it('follows a credit note the PAC answers 202 pending until it is stamped', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await refundedAfterInvoicing(fx);
    fx.sim.setStampingOutage(1, 'valid');
    await fx.runJob();
    const [pending] = fx.sim.invoices().filter((invoice) => invoice.type === 'E');
    assert.equal(pending?.status, 'pending');
    assert.deepEqual(
      (await creditNotes(fx, bill.ticketId)).map((note) => [note.status, note.uuid]),
      [['stamping', null]],
    );
    fx.clock.advance(5 * 60_000);
    await fx.runJob();
    fx.clock.advance(5 * 60_000);
    await fx.runJob();
    const [stamped] = await creditNotes(fx, bill.ticketId);
    assert.equal(stamped?.status, 'valid');
    assert.equal(stamped?.uuid, fx.sim.invoices().find((invoice) => invoice.type === 'E')?.uuid);
    assert.equal(fx.sim.invoices().filter((invoice) => invoice.type === 'E').length, 1);
  });

  it('shows the manager a credit note the SAT never stamped', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await refundedAfterInvoicing(fx);
    fx.sim.setStampingOutage(1, 'failed');
    for (let minutes = 0; minutes <= 60; minutes += 10) {
      await fx.runJob();
      fx.clock.advance(10 * 60_000);
    }
    const [failed] = await creditNotes(fx, bill.ticketId);
    assert.deepEqual([failed?.status, failed?.uuid], ['failed', null]);
    assert.equal(
      failed?.error,
      'The SAT did not stamp this credit note: it is asked for again when the fiscal settings are saved',
    );
    assert.equal((await fiscalOf(fx, bill.ticketId)).error, failed?.error);
    const events = (await storedEvents(fx.db)).filter((event) => event.type === 'fiscal.failed');
    assert.deepEqual(
      events.map((event) => event.payload.data ?? event.payload),
      [{ ticket_id: bill.ticketId, kind: 'credit_note', error: failed?.error }],
    );

    assert.equal((await fx.admin('PUT', '/settings/fiscal', { series: '' })).statusCode, 200);
    await fx.runJob();
    const [again] = await creditNotes(fx, bill.ticketId);
    assert.equal(again?.status, 'valid');
    assert.deepEqual(
      fx.sim
        .invoices()
        .filter((invoice) => invoice.type === 'E')
        .map((invoice) => invoice.status)
        .sort(),
      ['failed', 'valid'],
    );
  });

  it('gives the general public its credit note with the use the catalogue allows regime 616', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await paidBill(fx);
    await fx.runJob();
    fx.clock.advance(24 * 60 * 60_000);
    assert.equal((await fx.admin('POST', '/invoices/global', { from: DAY, to: DAY })).statusCode, 201);
    await fx.admin('POST', `/payments/${bill.paymentId}/refund`, { amount: 35.5, reason: 'Platillo frío' });
    await fx.runJob();
    const note = fx.sim.invoices().find((invoice) => invoice.type === 'E');
    assert.deepEqual(
      { use: note?.use, rfc: note?.customer.tax_id, regime: note?.customer.tax_system },
      { use: 'S01', rfc: 'XAXX010101000', regime: '616' },
    );
    assert.equal((await creditNotes(fx, bill.ticketId))[0]?.status, 'valid');
  });

  it('asks the PAC nothing for a period without open receipts', async (t) => {
    const fx = await buildFiscalApp(t, target);
    fx.clock.advance(24 * 60 * 60_000);
    const empty = await fx.admin('POST', '/invoices/global', { from: DAY, to: DAY });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().message, 'No open receipts in this period');
    assert.deepEqual(fx.sim.requests(), []);
  });

  it('splits a period of more than 5,000 receipts into global invoices and reads them past 30 pages', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const noon = await paidBill(fx);
    await othersReceipts(fx, 5200);
    fx.clock.advance(11 * 60 * 60_000);
    const night = await paidBill(fx, { method: 'cash' });
    await fx.runJob();
    fx.clock.advance(24 * 60 * 60_000);
    const issued = await fx.admin('POST', '/invoices/global', { from: DAY, to: DAY });
    assert.equal(issued.statusCode, 201, issued.body);
    const globals = fx.sim.invoices().filter((invoice) => invoice.customer.tax_id === 'XAXX010101000');
    assert.ok(globals.length >= 2, `${globals.length} global invoices`);
    assert.ok(globals.every((invoice) => invoice.items.length <= 5000));
    assert.equal(fx.sim.receipts().filter((receipt) => receipt.status === 'open').length, 0);
    for (const bill of [noon, night]) {
      assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'in_global');
    }
    const [period] = (await fx.admin('GET', '/invoices/global')).json();
    assert.equal(period.state, 'issued');
    assert.deepEqual(
      period.invoices.map((invoice: { uuid: string }) => invoice.uuid).sort(),
      globals.map((invoice) => invoice.uuid).sort(),
    );
  });
});
