import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { createBill } from './helpers/checkout-factories';
import { insertCategory } from './helpers/factories';
import { callerFor } from './helpers/orders-factories';

describeEachDatabase('CSV exports', (target) => {
  it('make text cells a spreadsheet would run as a formula inert with a leading quote; numbers stay numbers', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { cookies } = await loggedInUser(app, db, 'admin');
    const call = callerFor(app, cookies);
    const category = await insertCategory(db, { type: 'dish' });
    const names = ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', 'Soup - of the day'];
    const dishes = [];
    for (const name of names) {
      const created = await call('POST', '/dishes', { name, price: 10, category_id: category.id });
      assert.equal(created.statusCode, 201, created.body);
      dishes.push({ dish_id: created.json().id, price_at_order: 10 });
    }
    const order = await call('POST', '/orders/with-dishes', { order: {}, dishes });
    assert.equal(order.statusCode, 201, order.body);
    const ticketId = await createBill(call, order.json().id, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 50 });
    assert.equal(paid.statusCode, 201, paid.body);

    const csv = await call('GET', '/reports/sales?from=2026-11-22&to=2026-11-22&group_by=dish', undefined, {
      accept: 'text/csv',
    });
    assert.equal(csv.statusCode, 200, csv.body);
    const lines = csv.body.trimEnd().split('\n');
    assert.equal(lines[0], 'key,orders,items,gross,discounts,refunds,net,tips');
    assert.deepEqual(
      lines.slice(1).sort(),
      [
        '"\'=HYPERLINK(""http://x"",""y"")",1,1,10,0,0,10,0',
        "'+1+2,1,1,10,0,0,10,0",
        "'-2+3,1,1,10,0,0,10,0",
        "'@SUM(A1),1,1,10,0,0,10,0",
        'Soup - of the day,1,1,10,0,0,10,0',
      ].sort(),
    );
  });
});
