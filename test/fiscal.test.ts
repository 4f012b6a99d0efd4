import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../src/app';
import { FISCAL_JOB } from '../src/fiscal/fiscal-job';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { storedEvents } from './helpers/checkout-factories';
import {
  buildFiscalApp,
  type FiscalApp,
  fiscalOf,
  GUEST_CUSTOMER,
  paidBill,
  RESTAURANT_FISCAL,
} from './helpers/fiscal-factories';
import { callerFor } from './helpers/orders-factories';

const INVOICE = { customer: GUEST_CUSTOMER, use: 'G03' };

/** The receipt's items, as the PAC computes its total: quantity × price − discount, to the cent. */
function itemsCents(receipt: {
  items: { quantity: number; discount?: number; product: { price: number } }[];
}) {
  return receipt.items.reduce(
    (sum, item) =>
      sum + Math.round(item.quantity * item.product.price * 100) - Math.round((item.discount ?? 0) * 100),
    0,
  );
}

async function invoiceAtTill(fx: FiscalApp, ticketId: string, body: unknown = INVOICE) {
  return fx.admin('POST', `/tickets/${ticketId}/invoice`, body);
}

describeEachDatabase('e-invoice (CFDI) through the PAC', (target) => {
  it('checks the settings: RFC check digit, payment form 99, the PAC key', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const badRfc = await fx.admin('PUT', '/settings/fiscal', { rfc: 'EKU9003173C8' });
    assert.equal(badRfc.statusCode, 400);
    assert.match(badRfc.json().message, /check digit/);
    const undefinedForm = await fx.admin('PUT', '/settings/fiscal', { payment_forms: { cash: '99' } });
    assert.equal(undefinedForm.statusCode, 400);
    assert.match(undefinedForm.json().message, /99/);
    const settings = await fx.admin('GET', '/settings/fiscal');
    assert.deepEqual(
      {
        enabled: settings.json().enabled,
        cash: settings.json().payment_forms.cash,
        key: settings.json().pac_configured,
      },
      { enabled: true, cash: '01', key: true },
    );
  });

  it('refuses to enable e-invoicing without a PAC key', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const admin = callerFor(app, (await loggedInUser(app, db, 'admin')).cookies);
    const refused = await admin('PUT', '/settings/fiscal', { ...RESTAURANT_FISCAL });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().message, /POS_PAC_KEY/);
    assert.equal((await admin('GET', '/settings/fiscal')).json().enabled, false);
  });

  it('makes one receipt per paid bill: tip left off, discount spread, items adding up to what was paid', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await paidBill(fx, { discount: { type: 'percent', value: 10 }, tip: 55.5 });
    await fx.runJob();
    const [receipt, ...others] = fx.sim.receipts();
    assert.ok(receipt);
    assert.equal(others.length, 0);
    assert.equal(itemsCents(receipt), Math.round(bill.total * 100));
    assert.equal(receipt.total, bill.total);
    assert.equal(receipt.payment_form, '04');
    assert.equal(receipt.external_id, bill.ticketId);
    const fiscal = await fiscalOf(fx, bill.ticketId);
    assert.equal(fiscal.status, 'receipt');
    assert.equal(fiscal.receipt_id, receipt.id);
    assert.ok(fiscal.self_invoice_url);
    const types = (await storedEvents(fx.db)).map((event) => event.type);
    assert.ok(types.includes('fiscal.receipt_created'));
    await fx.runJob();
    assert.equal(fx.sim.receipts().length, 1);
  });

  it('makes exactly one receipt when the answer is lost, after two 5xx, and across a restart mid-call', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const lost = await paidBill(fx);
    fx.sim.setFaults({ loseAnswer: 1, only: { loseAnswer: 'POST /v2/receipts$' } });
    await fx.runJob();
    assert.equal(fx.sim.receipts().length, 1, 'the PAC did the work');
    assert.equal((await fiscalOf(fx, lost.ticketId)).status, 'pending');
    // The next attempt, from another instance on the same database (this one "restarted").
    const restarted = await buildApp(fx.config, { database: fx.database, clock: fx.clock, startJobs: false });
    t.after(() => restarted.close());
    fx.clock.advance(60_000);
    await restarted.jobs.run(FISCAL_JOB);
    assert.equal(fx.sim.receipts().length, 1);
    assert.equal((await fiscalOf(fx, lost.ticketId)).status, 'receipt');

    const flaky = await paidBill(fx);
    fx.sim.setFaults({ fail5xx: 2 });
    await fx.runJob();
    fx.clock.advance(60_000);
    await fx.runJob();
    fx.clock.advance(60_000);
    await fx.runJob();
    assert.equal((await fiscalOf(fx, flaky.ticketId)).status, 'receipt');
    assert.equal(fx.sim.receipts().filter((receipt) => receipt.external_id === flaky.ticketId).length, 1);
  });

  it('invoices a bill at the till once; a refused RFC answers 400 and changes nothing', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await paidBill(fx);
    fx.sim.addUnregistered('XIA190128J61');
    const refused = await invoiceAtTill(fx, bill.ticketId, {
      ...INVOICE,
      customer: { ...GUEST_CUSTOMER, rfc: 'XIA190128J61', legal_name: 'XENON INDUSTRIAL ARTICLES' },
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().message, /not in the SAT's list|PAC refused/);
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'receipt');
    assert.equal(fx.sim.invoices().length, 0);

    const badUse = await invoiceAtTill(fx, bill.ticketId, { ...INVOICE, use: 'D01' });
    assert.equal(badUse.statusCode, 400);
    assert.match(badUse.json().message, /not allowed for tax regime 601/);

    const invoiced = await invoiceAtTill(fx, bill.ticketId);
    assert.equal(invoiced.statusCode, 201, invoiced.body);
    const [stamped] = fx.sim.invoices();
    assert.equal(invoiced.json().uuid, stamped?.uuid);
    assert.equal(invoiced.json().total, bill.total);
    const again = await invoiceAtTill(fx, bill.ticketId);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().message, 'This bill is already invoiced');
    assert.equal(fx.sim.invoices().length, 1);

    const fiscal = await fiscalOf(fx, bill.ticketId);
    assert.equal(fiscal.status, 'invoiced');
    const pdf = await fx.admin('GET', `/invoices/${fiscal.invoice.id}/pdf`);
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.ok(pdf.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')));
    const xml = await fx.admin('GET', `/invoices/${fiscal.invoice.id}/xml`);
    assert.match(xml.body, new RegExp(`UUID="${invoiced.json().uuid}"`, 'i'));
  });

  it('adopts the invoice a lost answer made instead of invoicing twice', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await paidBill(fx);
    await fx.runJob();
    fx.sim.setFaults({ loseAnswer: 1, only: { loseAnswer: '/invoice$' } });
    const invoiced = await invoiceAtTill(fx, bill.ticketId);
    assert.equal(invoiced.statusCode, 201, invoiced.body);
    assert.equal(fx.sim.invoices().length, 1);
    assert.equal(invoiced.json().uuid, fx.sim.invoices()[0]?.uuid);
  });

  it('takes each open receipt into the global invoice once; a bill in it can no longer be invoiced alone', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const alone = await paidBill(fx);
    const open = await paidBill(fx, { method: 'cash' });
    await fx.runJob();
    assert.equal((await invoiceAtTill(fx, alone.ticketId)).statusCode, 201);
    fx.clock.advance(24 * 60 * 60_000);
    const day = '2026-11-22';
    const global = await fx.admin('POST', '/invoices/global', { from: day, to: day });
    assert.equal(global.statusCode, 201, global.body);
    assert.equal(global.json().total, open.total);
    assert.equal(global.json().customer_rfc, 'XAXX010101000');
    assert.equal((await fiscalOf(fx, open.ticketId)).status, 'in_global');
    const late = await invoiceAtTill(fx, open.ticketId);
    assert.equal(late.statusCode, 400);
    assert.equal(late.json().message, `This bill is in the global invoice of ${day}`);
    const twice = await fx.admin('POST', '/invoices/global', { from: day, to: day });
    assert.equal(twice.statusCode, 409);
    const nothing = await fx.admin('POST', '/invoices/global', { from: '2026-11-21', to: '2026-11-21' });
    assert.equal(nothing.statusCode, 400);
    assert.equal(nothing.json().message, 'No open receipts in this period');
    const periods = await fx.admin('GET', '/invoices/global');
    assert.equal(
      periods.json().find((period: { period_start: string }) => period.period_start === day)?.state,
      'issued',
    );
  });

  it("reads the period back before asking again when the global invoice's answer was lost", async (t) => {
    const fx = await buildFiscalApp(t, target);
    await fx.admin('PUT', '/settings/fiscal', { global_periodicity: 'day' });
    const bill = await paidBill(fx);
    await fx.runJob();
    fx.clock.advance(24 * 60 * 60_000);
    fx.sim.setFaults({ loseAnswer: 1, only: { loseAnswer: 'global-invoice' } });
    await fx.runJob();
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'receipt', 'the answer never came');
    fx.clock.advance(10 * 60_000);
    await fx.runJob();
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'in_global');
    assert.equal(fx.sim.invoices().length, 1, 'one global invoice at the PAC');
    const [period] = (await fx.admin('GET', '/invoices/global')).json();
    assert.equal(period.invoice.uuid, fx.sim.invoices()[0]?.uuid);
  });

  it('issues the global invoice by itself when the period closes, and refuses one past 72 hours', async (t) => {
    const fx = await buildFiscalApp(t, target);
    await fx.admin('PUT', '/settings/fiscal', { global_periodicity: 'day' });
    const bill = await paidBill(fx);
    await fx.runJob();
    fx.clock.advance(24 * 60 * 60_000);
    await fx.runJob();
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'in_global');
    assert.equal(fx.sim.invoices().length, 1);
    fx.clock.advance(5 * 24 * 60 * 60_000);
    const tooLate = await fx.admin('POST', '/invoices/global', { from: '2026-11-23', to: '2026-11-23' });
    assert.equal(tooLate.statusCode, 400);
    assert.match(tooLate.json().message, /72 hours/);
  });

  it('cancels an invoice: pending until the receiver accepts, 409 meanwhile; motive 01 needs its substitute', async (t) => {
    const fx = await buildFiscalApp(t, target);
    // Over 1,000 pesos and past the next business day: the SAT has the receiver accept it.
    const bill = await paidBill(fx, { pricesCents: [150000] });
    const invoice = (await invoiceAtTill(fx, bill.ticketId)).json();
    fx.clock.advance(3 * 24 * 60 * 60_000);
    const noSubstitute = await fx.admin('POST', `/invoices/${invoice.id}/cancel`, { motive: '01' });
    assert.equal(noSubstitute.statusCode, 400);
    const pending = await fx.admin('POST', `/invoices/${invoice.id}/cancel`, { motive: '02' });
    assert.equal(pending.statusCode, 202, pending.body);
    assert.equal(pending.json().status, 'cancel_pending');
    assert.equal(
      (await fx.admin('POST', `/invoices/${invoice.id}/cancel`, { motive: '02' })).statusCode,
      409,
    );
    const pacId = fx.sim.invoices()[0]?.id as string;
    fx.sim.resolveCancellation(pacId, true);
    await fx.runJob();
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'canceled');
    assert.equal(
      (await fx.admin('POST', `/invoices/${invoice.id}/cancel`, { motive: '02' })).statusCode,
      409,
    );
  });

  it('gives a credit note for a refund after invoicing, and cancels the receipt of a bill refunded in full', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const invoicedBill = await paidBill(fx);
    const invoice = (await invoiceAtTill(fx, invoicedBill.ticketId)).json();
    const refund = await fx.admin('POST', `/payments/${invoicedBill.paymentId}/refund`, {
      amount: 35.5,
      reason: 'Platillo frío',
    });
    assert.equal(refund.statusCode, 201, refund.body);
    await fx.runJob();
    const note = fx.sim.invoices().find((cfdi) => cfdi.type === 'E');
    assert.ok(note, 'a credit note');
    assert.equal(note.total, 35.5);
    assert.deepEqual(note.related_documents, [{ relationship: '01', documents: [invoice.uuid] }]);
    await fx.runJob();
    assert.equal(fx.sim.invoices().filter((cfdi) => cfdi.type === 'E').length, 1);

    const voided = await paidBill(fx);
    await fx.runJob();
    await fx.admin('POST', `/payments/${voided.paymentId}/refund`, { reason: 'Cobro duplicado' });
    await fx.runJob();
    assert.equal((await fiscalOf(fx, voided.ticketId)).status, 'canceled');
    const receipt = fx.sim.receipts().find((found) => found.external_id === voided.ticketId);
    assert.equal(receipt?.status, 'canceled');
  });

  it('reports per day: IVA backed out, tips apart, and where each bill stands', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const invoiced = await paidBill(fx, { tip: 40 });
    const open = await paidBill(fx, { pricesCents: [11600] });
    await fx.runJob();
    await invoiceAtTill(fx, invoiced.ticketId);
    const report = await fx.admin('GET', '/reports/fiscal?from=2026-11-22&to=2026-11-22');
    assert.equal(report.statusCode, 200, report.body);
    const [day] = report.json();
    assert.equal(day.total, invoiced.total + open.total);
    assert.equal(Math.round((day.base + day.iva) * 100), Math.round(day.total * 100));
    assert.equal(day.tips, 40);
    assert.equal(day.invoiced, invoiced.total);
    assert.equal(day.pending, open.total);
    const csv = await fx.admin('GET', '/reports/fiscal?from=2026-11-22&to=2026-11-22', undefined, {
      accept: 'text/csv',
    });
    assert.match(csv.body, /^day,bills,total,base,iva,tips,invoiced,in_global,pending,failed,untracked/);
  });

  it("lets the guest invoice the bill from the link, with the PAC's self-invoice page or our own form", async (t) => {
    const fx = await buildFiscalApp(t, target, {
      selfInvoiceDomain: null,
      env: { POS_PUBLIC_URL: 'https://mesa.example.mx' },
    });
    const bill = await paidBill(fx);
    const link = (await fx.admin('POST', `/tickets/${bill.ticketId}/guest-link`)).json();
    const guest = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      fx.app.inject({ method, url, payload: payload as object });
    assert.equal((await guest('GET', `/guest/${link.token}`)).json().invoice.status, 'pending');
    await fx.runJob();
    const offered = (await guest('GET', `/guest/${link.token}`)).json().invoice;
    assert.deepEqual(
      { status: offered.status, url: offered.self_invoice_url },
      { status: 'available', url: null },
    );
    const catalogs = await guest('GET', '/fiscal/catalogs');
    assert.equal(catalogs.statusCode, 200, 'public SAT codes for the form');
    const forms = (catalogs.json().payment_forms as { code: string }[]).map((form) => form.code);
    assert.deepEqual(forms.slice(0, 3), ['01', '02', '03'], 'by code: 01 · Efectivo first');
    assert.deepEqual(forms, [...forms].sort());
    const refused = await guest('POST', `/guest/${link.token}/invoice`, { ...INVOICE, use: 'D01' });
    assert.equal(refused.statusCode, 400);
    const invoiced = await guest('POST', `/guest/${link.token}/invoice`, INVOICE);
    assert.equal(invoiced.statusCode, 201, invoiced.body);
    const { download_key: key } = invoiced.json();
    const pdf = await guest('GET', `/guest/${link.token}/invoice.pdf?key=${key}`);
    assert.equal(pdf.statusCode, 200);
    assert.ok(pdf.rawPayload.subarray(0, 5).equals(Buffer.from('%PDF-')));
    const xml = await guest('GET', `/guest/${link.token}/invoice.xml?key=${key}`);
    assert.match(xml.body, /TimbreFiscalDigital/);

    // Whoever else holds the paper's QR learns that the bill is invoiced, and nothing of the customer.
    const page = await guest('GET', `/guest/${link.token}`);
    assert.equal(page.json().invoice.status, 'invoiced');
    assert.doesNotMatch(page.body, new RegExp(`${GUEST_CUSTOMER.rfc}|${GUEST_CUSTOMER.legal_name}`));
    for (const url of [
      `/guest/${link.token}/invoice.pdf`,
      `/guest/${link.token}/invoice.xml`,
      `/guest/${link.token}/invoice.xml?key=${'A'.repeat(key.length)}`,
    ]) {
      assert.equal((await guest('GET', url)).statusCode, 404, url);
    }
    const again = await guest('POST', `/guest/${link.token}/invoice`, INVOICE);
    assert.equal(again.statusCode, 409);
    assert.doesNotMatch(again.body, new RegExp(GUEST_CUSTOMER.rfc));

    fx.sim.setSelfInvoiceDomain('la-esquina');
    const other = await paidBill(fx);
    // Printed right after the payment, before the job's next run: the receipt is made for the paper.
    const receipt = await fx.admin('GET', `/tickets/${other.ticketId}/receipt`);
    assert.match(receipt.body, /Facture su consumo en:/);
    assert.match(receipt.body, /factura\.space\/la-esquina\//);
  });

  it('blocks receipts of a payment method without a SAT form until the manager chooses one', async (t) => {
    const fx = await buildFiscalApp(t, target);
    await fx.admin('PUT', '/settings/fiscal', { payment_forms: { cash: '01', transfer: '03' } });
    const bill = await paidBill(fx);
    await fx.runJob();
    const blocked = await fiscalOf(fx, bill.ticketId);
    assert.equal(blocked.status, 'failed');
    assert.match(blocked.error, /card has no SAT payment form/);
    await fx.admin('PUT', '/settings/fiscal', { payment_forms: { cash: '01', card: '04' } });
    await fx.runJob();
    assert.equal((await fiscalOf(fx, bill.ticketId)).status, 'receipt');
  });
});
