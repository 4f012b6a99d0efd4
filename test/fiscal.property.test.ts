import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { describeEachDatabase } from './helpers/app';
import { insertDish } from './helpers/factories';
import { buildFiscalApp, GUEST_CUSTOMER } from './helpers/fiscal-factories';

const DAY = 24 * 60 * 60_000;

const billArb = fc.record({
  pricesCents: fc.array(fc.integer({ min: 100, max: 60_000 }), { minLength: 1, maxLength: 3 }),
  discountPercent: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  tipCents: fc.integer({ min: 0, max: 5_000 }),
  method: fc.constantFrom('cash', 'card'),
  /** Before or after the receipt, and after invoicing: a share of what was paid, or all of it. */
  refund: fc.option(
    fc.record({ share: fc.constantFrom(0.1, 0.5, 1), when: fc.constantFrom('before', 'after') }),
    { nil: undefined },
  ),
  invoice: fc.boolean(),
});

describeEachDatabase('e-invoice totals (property)', (target) => {
  it('for any bills, discounts, tips, refunds and invoices, the fiscal report adds up to what was kept, and each CFDI chain to its bill', async (t) => {
    const fx = await buildFiscalApp(t, target);
    const dish = await insertDish(fx.db);
    await fc.assert(
      fc.asyncProperty(fc.array(billArb, { minLength: 1, maxLength: 4 }), async (bills) => {
        // Each run on a day of its own, so its report is the run's and nothing else.
        fx.clock.set((Math.floor(fx.clock.now() / DAY) + 1) * DAY + 15 * 60 * 60_000);
        const day = new Date(fx.clock.now() - 6 * 60 * 60_000).toISOString().slice(0, 10);
        let keptCents = 0;
        let tipsCents = 0;
        const made: { ticketId: string; keptCents: number }[] = [];
        for (const bill of bills) {
          const order = await fx.admin('POST', '/orders/with-dishes', {
            order: {},
            dishes: bill.pricesCents.map((cents) => ({ dish_id: dish.id, price_at_order: cents / 100 })),
          });
          assert.equal(order.statusCode, 201, order.body);
          const created = await fx.admin('POST', `/orders/${order.json().id}/tickets`, {
            ...(bill.discountPercent && {
              discount: { type: 'percent', value: bill.discountPercent, reason: 'Prueba' },
            }),
          });
          assert.equal(created.statusCode, 201, created.body);
          const ticketId = created.json().id as string;
          const total = (await fx.admin('GET', `/tickets/${ticketId}`)).json().total as number;
          const paid = await fx.admin('POST', `/tickets/${ticketId}/payments`, {
            method: bill.method,
            amount: total,
            tip: bill.tipCents / 100,
          });
          assert.equal(paid.statusCode, 201, paid.body);
          const totalCents = Math.round(total * 100);
          const refundCents = bill.refund ? Math.max(1, Math.round(totalCents * bill.refund.share)) : 0;
          const refund = async () => {
            const answer = await fx.admin('POST', `/payments/${paid.json().id}/refund`, {
              amount: refundCents / 100,
              reason: 'Prueba',
            });
            assert.equal(answer.statusCode, 201, answer.body);
          };
          if (bill.refund?.when === 'before') await refund();
          await fx.runJob();
          if (bill.invoice)
            await fx.admin('POST', `/tickets/${ticketId}/invoice`, { customer: GUEST_CUSTOMER, use: 'G03' });
          if (bill.refund?.when === 'after') await refund();
          keptCents += totalCents - refundCents;
          tipsCents += bill.tipCents;
          made.push({ ticketId, keptCents: totalCents - refundCents });
        }
        await fx.runJob();
        fx.clock.advance(DAY);
        const global = await fx.admin('POST', '/invoices/global', { from: day, to: day });
        assert.ok([201, 400].includes(global.statusCode), global.body);
        await fx.runJob();

        const report = await fx.admin('GET', `/reports/fiscal?from=${day}&to=${day}`);
        const [row] = report.json();
        const cents = (amount: number) => Math.round(amount * 100);
        assert.equal(cents(row.total), keptCents, 'payments less refunds, tips apart');
        assert.equal(cents(row.tips), tipsCents);
        assert.equal(cents(row.base) + cents(row.iva), cents(row.total));
        assert.equal(
          cents(row.invoiced) +
            cents(row.in_global) +
            cents(row.pending) +
            cents(row.failed) +
            cents(row.untracked),
          cents(row.total),
        );
        assert.equal(
          cents(row.pending) + cents(row.failed) + cents(row.untracked),
          0,
          'every bill is in a CFDI',
        );

        // What the PAC holds of each bill: its receipt, less its credit notes, is what the bill kept.
        const receipts = fx.sim.receipts();
        const notes = fx.sim.invoices().filter((cfdi) => cfdi.type === 'E');
        for (const bill of made) {
          const receipt = receipts.find(
            (found) => found.external_id === bill.ticketId && found.status !== 'canceled',
          );
          // Refunded in full before it was invoiced: its receipt was canceled.
          if (!receipt) {
            assert.equal(bill.keptCents, 0, 'a bill with money kept has its live receipt');
            continue;
          }
          const doc = await fx.db
            .selectFrom('fiscal_credit_notes')
            .innerJoin('fiscal_invoices', 'fiscal_invoices.id', 'fiscal_credit_notes.invoice_id')
            .select('fiscal_invoices.pac_id')
            .where('fiscal_credit_notes.ticket_id', '=', bill.ticketId)
            .execute();
          const credited = notes
            .filter((note) => doc.some((row) => row.pac_id === note.id))
            .reduce((sum, note) => sum + cents(note.total), 0);
          assert.equal(cents(receipt.total) - credited, bill.keptCents);
        }
      }),
      { numRuns: 8 },
    );
  });
});
