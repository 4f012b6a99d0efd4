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
