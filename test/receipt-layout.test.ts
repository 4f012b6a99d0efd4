import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taxShareCents } from '../src/core/money';
import { type Receipt, receiptText } from '../src/printing/receipt-layout';
import { centered, formatMoney, pair, wrap } from '../src/printing/text-layout';

const paidBill: Receipt = {
  business: {
    name: 'Casa Pepe Cocina Mexicana',
    address: 'Av. Reforma 222, Col. Juárez, CDMX',
    phone: '55 1234 5678',
    taxId: 'CPE010101AB1',
  },
  billId: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e',
  status: 'paid',
  tableName: 'Terrace 4',
  waiter: 'Ana',
  date: '2026-11-22 12:00',
  currency: 'MXN',
  lines: [
    { name: 'Tacos al pastor', quantity: 2, amountCents: 9000 },
    { name: 'Enchiladas suizas con pollo y crema', quantity: 1, amountCents: 125050 },
    { name: 'Agua de jamaica', quantity: 3, amountCents: 7500 },
  ],
  subtotalCents: 141550,
  discountCents: 14155,
  totalCents: 127395,
  tax: { ratePercent: 16, cents: 17572, isIncluded: true },
  payments: [
    { method: 'Cash', amountCents: 100000, refundedCents: 0, lightning: null },
    {
      method: 'Lightning',
      amountCents: 27395,
      refundedCents: 1000,
      lightning: { amountSat: 16115, rate: 1700000 },
    },
  ],
  tipCents: 5000,
  changeCents: 2605,
  balanceCents: 0,
  footer: '¡Gracias por su visita!\nVuelva pronto',
};

/** Lines joined with newlines, each ended by one, as the text receipt is. */
const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

describe('receipt layout', () => {
  it('lays out a paid bill at 32 columns', () => {
    assert.equal(
      receiptText(paidBill, 32),
      text(
        '   Casa Pepe Cocina Mexicana',
        ' Av. Reforma 222, Col. Juárez,',
        '              CDMX',
        '       Tel. 55 1234 5678',
        '      Tax ID CPE010101AB1',
        '--------------------------------',
        'Bill 3f1c2a7e',
        'Date 2026-11-22 12:00',
        'Table Terrace 4',
        'Waiter Ana',
        '--------------------------------',
        '2 x Tacos al pastor        90.00',
        '1 x Enchiladas suizas',
        'con pollo y crema       1,250.50',
        '3 x Agua de jamaica        75.00',
        '--------------------------------',
        'Subtotal                1,415.50',
        'Discount                 -141.55',
        'TOTAL MXN               1,273.95',
        'Tax included 16%          175.72',
        '--------------------------------',
        'Cash                    1,000.00',
        'Lightning                 273.95',
        '  16,115 sat at 1,700,000.00/BTC',
        '  Refunded                -10.00',
        'Tip                        50.00',
        'Change                     26.05',
        '--------------------------------',
        '    ¡Gracias por su visita!',
        '         Vuelva pronto',
      ),
    );
  });

  it('lays out a paid bill at 42 columns', () => {
    assert.equal(
      receiptText(paidBill, 42),
      text(
        '        Casa Pepe Cocina Mexicana',
        '    Av. Reforma 222, Col. Juárez, CDMX',
        '            Tel. 55 1234 5678',
        '           Tax ID CPE010101AB1',
        '------------------------------------------',
        'Bill 3f1c2a7e',
        'Date 2026-11-22 12:00',
        'Table Terrace 4',
        'Waiter Ana',
        '------------------------------------------',
        '2 x Tacos al pastor                  90.00',
        '1 x Enchiladas suizas con pollo y',
        'crema                             1,250.50',
        '3 x Agua de jamaica                  75.00',
        '------------------------------------------',
        'Subtotal                          1,415.50',
        'Discount                           -141.55',
        'TOTAL MXN                         1,273.95',
        'Tax included 16%                    175.72',
        '------------------------------------------',
        'Cash                              1,000.00',
        'Lightning                           273.95',
        '  16,115 sat at 1,700,000.00/BTC',
        '  Refunded                          -10.00',
        'Tip                                  50.00',
        'Change                               26.05',
        '------------------------------------------',
        '         ¡Gracias por su visita!',
        '              Vuelva pronto',
      ),
    );
  });

  it('lays out a paid bill at 48 columns', () => {
    assert.equal(
      receiptText(paidBill, 48),
      text(
        '           Casa Pepe Cocina Mexicana',
        '       Av. Reforma 222, Col. Juárez, CDMX',
        '               Tel. 55 1234 5678',
        '              Tax ID CPE010101AB1',
        '------------------------------------------------',
        'Bill 3f1c2a7e',
        'Date 2026-11-22 12:00',
        'Table Terrace 4',
        'Waiter Ana',
        '------------------------------------------------',
        '2 x Tacos al pastor                        90.00',
        '1 x Enchiladas suizas con pollo y crema 1,250.50',
        '3 x Agua de jamaica                        75.00',
        '------------------------------------------------',
        'Subtotal                                1,415.50',
        'Discount                                 -141.55',
        'TOTAL MXN                               1,273.95',
        'Tax included 16%                          175.72',
        '------------------------------------------------',
        'Cash                                    1,000.00',
        'Lightning                                 273.95',
        '  16,115 sat at 1,700,000.00/BTC',
        '  Refunded                                -10.00',
        'Tip                                        50.00',
        'Change                                     26.05',
        '------------------------------------------------',
        '            ¡Gracias por su visita!',
        '                 Vuelva pronto',
      ),
    );
  });

  it('shows what is still owed on an unpaid bill and leaves out what it lacks', () => {
    const unpaid: Receipt = {
      ...paidBill,
      business: { name: 'Casa Pepe', address: '', phone: '', taxId: '' },
      status: 'pending',
      tableName: null,
      lines: [{ name: 'Share of the order', quantity: 1, amountCents: 5000 }],
      subtotalCents: 5000,
      discountCents: 0,
      totalCents: 5000,
      tax: null,
      payments: [],
      tipCents: 0,
      changeCents: 0,
      balanceCents: 5000,
      footer: '',
    };
    assert.equal(
      receiptText(unpaid, 32),
      text(
        '           Casa Pepe',
        '--------------------------------',
        'Bill 3f1c2a7e',
        'Date 2026-11-22 12:00',
        'Waiter Ana',
        '      *** GUEST CHECK ***',
        '--------------------------------',
        '1 x Share of the order     50.00',
        '--------------------------------',
        'Subtotal                   50.00',
        'TOTAL MXN                  50.00',
        '--------------------------------',
        'Balance due                50.00',
      ),
    );
    assert.match(receiptText({ ...unpaid, status: 'canceled' }, 32), /^ {7}\*\*\* CANCELLED \*\*\*$/m);
  });

  it('never lets a line run past the width', () => {
    const long = 'Supercalifragilisticexpialidocious-and-then-some-more-letters';
    for (const width of [32, 42, 48]) {
      const lines = receiptText(
        { ...paidBill, waiter: long, lines: [{ name: long, quantity: 12, amountCents: 9_999_999_999 }] },
        width,
      ).split('\n');
      assert.deepEqual(
        lines.filter((line) => line.length > width),
        [],
      );
    }
    assert.deepEqual(wrap('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.deepEqual(centered('ab', 7), ['  ab']);
    assert.deepEqual(pair('Total', '1.00', 12), ['Total   1.00']);
    assert.equal(formatMoney(-123456789), '-1,234,567.89');
  });

  it('works out the tax inside prices that include it, and on top of those that do not', () => {
    assert.equal(taxShareCents(11600, 1600, true), 1600);
    assert.equal(taxShareCents(10000, 1600, false), 1600);
    assert.equal(taxShareCents(12739, 1600, true), 1757);
    assert.equal(taxShareCents(10825, 825, true), 825);
    assert.equal(taxShareCents(0, 1600, true), 0);
  });
});
