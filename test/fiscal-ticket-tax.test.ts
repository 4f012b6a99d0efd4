import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { buildFiscalApp, fiscalOf, GUEST_CUSTOMER, paidBill } from './helpers/fiscal-factories';

describeEachDatabase('the IVA on the ticket and on the CFDI', (target) => {
  it('prints the IVA the invoice states, line by line, where the total alone would differ by a cent', async (t) => {
    const fx = await buildFiscalApp(t, target, { env: { POS_PUBLIC_URL: 'https://mesa.example.mx' } });
    // $41.50 with IVA: 5.72 of the total, 5.73 as the sum of its two lines (2.76 + 2.97).
    const bill = await paidBill(fx, { pricesCents: [2000, 2150] });
    const invoice = await fx.admin('POST', `/tickets/${bill.ticketId}/invoice`, {
      customer: GUEST_CUSTOMER,
      use: 'G03',
    });
    assert.equal(invoice.statusCode, 201, invoice.body);
    const xml = await fx.admin('GET', `/invoices/${(await fiscalOf(fx, bill.ticketId)).invoice.id}/xml`);
    assert.match(xml.body, /<cfdi:Impuestos TotalImpuestosTrasladados="5\.73"/);

    const receipt = await fx.admin('GET', `/tickets/${bill.ticketId}/receipt`);
    assert.equal(receipt.statusCode, 200);
    const ivaLine = receipt.body.split('\n').find((line) => /IVA/.test(line));
    assert.match(ivaLine ?? '', /\$5\.73$/, receipt.body);
    const link = (await fx.admin('POST', `/tickets/${bill.ticketId}/guest-link`)).json();
    const page = await fx.app.inject({ method: 'GET', url: `/guest/${link.token}` });
    assert.equal(page.json().tax_included, 5.73);
  });
});
