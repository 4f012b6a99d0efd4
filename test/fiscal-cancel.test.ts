import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import {
  buildFiscalApp,
  type FiscalApp,
  fiscalOf,
  GUEST_CUSTOMER,
  paidBill,
} from './helpers/fiscal-factories';

const INVOICE = { customer: GUEST_CUSTOMER, use: 'G03' };

async function invoiced(fx: FiscalApp) {
  const bill = await paidBill(fx);
  const answer = await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, INVOICE);
  assert.equal(answer.statusCode, 201, answer.body);
  return { ...bill, invoice: answer.json() as { id: string; uuid: string } };
}

describeEachDatabase('cancelling a CFDI', (target) => {
  it('refuses motive 01 without its substitute here, asking the PAC nothing', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const { invoice } = await invoiced(fx);
    const before = fx.sim.requests().length;
    const refused = await fx.admin('POST', `/invoices/${invoice.id}/cancel`, { motive: '01' });
    assert.equal(refused.statusCode, 400);
    assert.equal(
      refused.json().message,
      'Motive 01 needs the UUID of the invoice that replaces it (substitution)',
    );
    assert.equal(fx.sim.requests().length, before, 'nothing was sent to the PAC');
    assert.equal(fx.sim.invoices()[0]?.status, 'valid');
  });

  it('keeps a bill invoiced when the PAC lists its receipt in a global invoice afterwards', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const alone = await invoiced(fx);
    const open = await paidBill(fx, { method: 'cash' });
    await fx.runJob();
    const receiptId = (await fiscalOf(fx, alone.ticketId)).receipt_id as string;
    fx.sim.reopenReceipt(receiptId);
    fx.clock.advance(24 * 60 * 60_000);
    const global = await fx.admin('POST', '/invoices/global', { from: '2026-11-22', to: '2026-11-22' });
    assert.equal(global.statusCode, 201, global.body);
    assert.equal(
      fx.sim.receipts().find((receipt) => receipt.id === receiptId)?.status,
      'invoiced_globally',
      'the PAC took the receipt into its global invoice',
    );
    const fiscal = await fiscalOf(fx, alone.ticketId);
    assert.equal(fiscal.status, 'invoiced');
    assert.equal(fiscal.invoice.uuid, alone.invoice.uuid);
    assert.equal((await fiscalOf(fx, open.ticketId)).status, 'in_global');
  });
});

describeEachDatabase('a canceled CFDI and its sale', (target) => {
  it('after motive 02 the guest may ask again, the till issues the corrected invoice directly, and the report follows each CFDI', async (t) => {
    const fx = await buildFiscalApp(t, target, {
      selfInvoiceDomain: null,
      env: { POS_PUBLIC_URL: 'https://mesa.example.mx' },
    });
    const bill = await invoiced(fx);
    const link = (await fx.admin('POST', `/tickets/${bill.ticketId}/guest-link`)).json();
    const report = async () =>
      (await fx.admin('GET', '/reports/fiscal?from=2026-11-22&to=2026-11-22')).json()[0];
    assert.equal((await report()).invoiced, bill.total);

    const canceled = await fx.admin('POST', `/invoices/${bill.invoice.id}/cancel`, { motive: '02' });
    assert.equal(canceled.statusCode, 200, canceled.body);
    const fiscal = await fiscalOf(fx, bill.ticketId);
    assert.equal(fiscal.status, 'canceled');
    assert.deepEqual(
      fiscal.cfdis.map((cfdi: { kind: string; status: string; cancel_motive: string }) => [
        cfdi.kind,
        cfdi.status,
        cfdi.cancel_motive,
      ]),
      [['customer', 'canceled', '02']],
    );
    assert.deepEqual(
      { invoiced: (await report()).invoiced, canceled: (await report()).canceled },
      { invoiced: 0, canceled: bill.total },
    );
    const offer = (await fx.app.inject({ method: 'GET', url: `/guest/${link.token}` })).json().invoice;
    assert.deepEqual(
      { status: offer.status, url: offer.self_invoice_url },
      { status: 'available', url: null },
    );
    const receiptId = fiscal.receipt_id as string;
    assert.equal(
      fx.sim.receipts().find((receipt) => receipt.id === receiptId)?.status,
      'invoiced_to_customer',
      'the PAC keeps the receipt invoiced: it cannot be invoiced again',
    );

    fx.clock.advance(60_000);
    const corrected = await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, INVOICE);
    assert.equal(corrected.statusCode, 201, corrected.body);
    assert.notEqual(corrected.json().uuid, bill.invoice.uuid);
    assert.equal(corrected.json().total, bill.total);
    const direct = fx.sim
      .requests()
      .filter((request) => request.method === 'POST' && request.path === '/v2/invoices');
    assert.equal(direct.length, 1, 'issued with POST /invoices, not from the spent receipt');
    const after = await fiscalOf(fx, bill.ticketId);
    assert.equal(after.status, 'invoiced');
    assert.equal(after.invoice.uuid, corrected.json().uuid);
    assert.deepEqual(
      after.cfdis.map((cfdi: { status: string; uuid: string }) => [cfdi.status, cfdi.uuid]),
      [
        ['canceled', bill.invoice.uuid],
        ['valid', corrected.json().uuid],
      ],
    );
    assert.ok(after.cfdis.every((cfdi: { folio: string | null }) => cfdi.folio !== null));
    assert.deepEqual(
      { invoiced: (await report()).invoiced, canceled: (await report()).canceled },
      { invoiced: bill.total, canceled: 0 },
    );
    assert.equal((await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, INVOICE)).statusCode, 409);
  });

  it('checks the motive here: 03 needs the bill refunded, 04 is for a global invoice, 01 names a substitute of the bill', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const bill = await invoiced(fx);
    const other = await invoiced(fx);
    const before = fx.sim.requests().length;
    const cancel = (motive: string, substitution?: string) =>
      fx.admin('POST', `/invoices/${bill.invoice.id}/cancel`, {
        motive,
        ...(substitution && { substitution }),
      });
    const notRefunded = await cancel('03');
    assert.equal(notRefunded.statusCode, 400);
    assert.equal(
      notRefunded.json().message,
      'Motive 03 (the sale did not happen) needs the bill canceled or refunded in full first',
    );
    const notGlobal = await cancel('04');
    assert.equal(notGlobal.statusCode, 400);
    assert.equal(notGlobal.json().message, 'Motive 04 is only for a global invoice');
    const foreign = await cancel('01', other.invoice.uuid);
    assert.equal(foreign.statusCode, 400);
    assert.match(foreign.json().message, /^The substitute must be a valid invoice of the same bill/);
    assert.equal(fx.sim.requests().length, before, 'nothing was sent to the PAC');

    fx.clock.advance(60_000);
    const substituted = await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, {
      ...INVOICE,
      replaces: bill.invoice.id,
    });
    assert.equal(substituted.statusCode, 201, substituted.body);
    const substitute = fx.sim.invoices().find((invoice) => invoice.uuid === substituted.json().uuid);
    assert.deepEqual(substitute?.related_documents, [{ relationship: '04', documents: [bill.invoice.uuid] }]);
    const old = fx.sim.invoices().find((invoice) => invoice.uuid === bill.invoice.uuid);
    assert.equal(old?.status, 'canceled', 'the old one canceled with 01, naming its substitute');
    const fiscal = await fiscalOf(fx, bill.ticketId);
    assert.equal(fiscal.status, 'invoiced');
    assert.deepEqual(
      fiscal.cfdis.map((cfdi: { status: string; cancel_motive: string | null }) => [
        cfdi.status,
        cfdi.cancel_motive,
      ]),
      [
        ['canceled', '01'],
        ['valid', null],
      ],
    );
  });
});
