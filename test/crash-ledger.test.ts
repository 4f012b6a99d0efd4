import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MoneyLedger } from '../bench/crash/money-ledger';
import { verifyMoneyInDatabase } from '../bench/crash/money-verify';
import { describeEachDatabase } from './helpers/app';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { appOnSharedDatabase } from './helpers/cli';

/**
 * The crash test's own check of the database against what the server acknowledged: if it passed
 * whatever the tables held, the crash test's "0 lost" would mean nothing.
 */
describeEachDatabase('the crash test ledger check', (target) => {
  it('finds nothing on a database that keeps its word, and a planted loss or half-write when there is one', async (t) => {
    const { app, db, databaseUrl } = await appOnSharedDatabase(t, target);
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(paid.statusCode, 201, paid.body);
    const paymentId = paid.json().id as string;
    const ledger = new MoneyLedger();
    ledger.payments.set(paymentId, { ticketId, amountCents: 6000, method: 'cash' });
    ledger.ack('cash payment');

    assert.deepEqual(await verifyMoneyInDatabase(databaseUrl, ledger), { lost: [], halfWritten: [] });

    // An acknowledged payment that never reached the database.
    const missing = crypto.randomUUID();
    ledger.payments.set(missing, { ticketId, amountCents: 500, method: 'card' });
    const lostFindings = await verifyMoneyInDatabase(databaseUrl, ledger);
    assert.deepEqual(lostFindings.lost, [`payment ${missing} (card) not in the database`]);
    ledger.payments.delete(missing);

    // A bill whose paid no longer matches its payments: written by half.
    await db.updateTable('tickets').set({ paid_cents: 5000 }).where('id', '=', ticketId).execute();
    const halfFindings = await verifyMoneyInDatabase(databaseUrl, ledger);
    assert.ok(
      halfFindings.halfWritten.some((finding) => finding.startsWith(`bill ${ticketId}: paid 5000`)),
      halfFindings.halfWritten.join('\n'),
    );
  });
});
