import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { taxShareCents } from '../src/core/money';
import { escposOf } from '../src/printing/escpos';
import { moneyFormatter } from '../src/printing/paper-language';
import { centered, pair, wrap } from '../src/printing/text-layout';
import { type Receipt, receiptLines, receiptPaper, receiptText } from '../src/receipts/receipt-layout';

/** A Mexico City restaurant's bill, printed in its language. */
const paidBill: Receipt = {
  locale: 'es-MX',
  reprint: false,
  business: {
    name: 'Casa Pepe Cocina Mexicana',
    address: 'Av. Reforma 222, Col. Juárez, CDMX',
    phone: '55 1234 5678',
    taxId: 'CPE010101AB1',
  },
  billId: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e',
  orderId: '675ccaf8-1d2e-4f3a-8b4c-5d6e7f8a9b0c',
  status: 'paid',
  tableName: 'Terrace 4',
  seat: null,
  waiter: 'Ana',
  date: '22/11/2026 12:00',
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
  cashReceivedCents: 107605,
  changeCents: 2605,
  balanceCents: 0,
  footer: '¡Gracias por su visita!\nVuelva pronto',
  guestUrl: null,
  selfInvoice: null,
};

/** The same bill where the restaurant prints in English and bills in dollars. */
const englishBill: Receipt = { ...paidBill, locale: 'en-US', currency: 'USD', date: '2026-11-22 12:00' };

/** Lines joined with newlines, each ended by one, as the text receipt is. */
const text = (...lines: string[]) => lines.map((line) => `${line}\n`).join('');

describe('receipt layout', () => {
  it('lays out a paid bill at 32 columns in Mexican Spanish, amounts the Mexican way', () => {
    assert.equal(
      receiptText(paidBill, 32),
      text(
        '   Casa Pepe Cocina Mexicana',
        ' Av. Reforma 222, Col. Juárez,',
        '              CDMX',
        '       Tel. 55 1234 5678',
        '        RFC CPE010101AB1',
        '--------------------------------',
        'Cuenta 3F1C2A',
        'Orden 675CCA',
        'Fecha 22/11/2026 12:00',
        'Mesa Terrace 4',
        'Mesero Ana',
        '--------------------------------',
        '2 x Tacos al pastor       $90.00',
        '1 x Enchiladas suizas',
        'con pollo y crema      $1,250.50',
        '3 x Agua de jamaica       $75.00',
        '--------------------------------',
        'Subtotal               $1,415.50',
        'Descuento               -$141.55',
        'TOTAL MXN              $1,273.95',
        'IVA incluido 16 %        $175.72',
        '--------------------------------',
        'Cash                   $1,000.00',
        'Lightning                $273.95',
        '  16,115 sat a $1,700,000.00/BTC',
        '  Reembolsado            -$10.00',
        'Propina                   $50.00',
        'Total con propina      $1,323.95',
        'Efectivo recibido      $1,076.05',
        'Cambio                    $26.05',
        '--------------------------------',
        '    ¡Gracias por su visita!',
        '         Vuelva pronto',
      ),
    );
  });

  it('lays out a paid bill at 42 columns for an English set-up', () => {
    assert.equal(
      receiptText(englishBill, 42),
      text(
        '        Casa Pepe Cocina Mexicana',
        '    Av. Reforma 222, Col. Juárez, CDMX',
        '            Tel. 55 1234 5678',
        '           Tax ID CPE010101AB1',
        '------------------------------------------',
        'Bill 3F1C2A',
        'Order 675CCA',
        'Date 2026-11-22 12:00',
        'Table Terrace 4',
        'Waiter Ana',
        '------------------------------------------',
        '2 x Tacos al pastor                 $90.00',
        '1 x Enchiladas suizas con pollo',
        'y crema                          $1,250.50',
        '3 x Agua de jamaica                 $75.00',
        '------------------------------------------',
        'Subtotal                         $1,415.50',
        'Discount                          -$141.55',
        'TOTAL USD                        $1,273.95',
        'Tax included 16%                   $175.72',
        '------------------------------------------',
        'Cash                             $1,000.00',
        'Lightning                          $273.95',
        '  16,115 sat at $1,700,000.00/BTC',
        '  Refunded                         -$10.00',
        'Tip                                 $50.00',
        'Total with tip                   $1,323.95',
        'Cash received                    $1,076.05',
        'Change                              $26.05',
        '------------------------------------------',
        '         ¡Gracias por su visita!',
        '              Vuelva pronto',
      ),
    );
  });

  it('lays out a paid bill at 48 columns in Mexican Spanish', () => {
    assert.equal(
      receiptText(paidBill, 48),
      text(
        '           Casa Pepe Cocina Mexicana',
        '       Av. Reforma 222, Col. Juárez, CDMX',
        '               Tel. 55 1234 5678',
        '                RFC CPE010101AB1',
        '------------------------------------------------',
        'Cuenta 3F1C2A',
        'Orden 675CCA',
        'Fecha 22/11/2026 12:00',
        'Mesa Terrace 4',
        'Mesero Ana',
        '------------------------------------------------',
        '2 x Tacos al pastor                       $90.00',
        '1 x Enchiladas suizas con pollo y',
        'crema                                  $1,250.50',
        '3 x Agua de jamaica                       $75.00',
        '------------------------------------------------',
        'Subtotal                               $1,415.50',
        'Descuento                               -$141.55',
        'TOTAL MXN                              $1,273.95',
        'IVA incluido 16 %                        $175.72',
        '------------------------------------------------',
        'Cash                                   $1,000.00',
        'Lightning                                $273.95',
        '  16,115 sat a $1,700,000.00/BTC',
        '  Reembolsado                            -$10.00',
        'Propina                                   $50.00',
        'Total con propina                      $1,323.95',
        'Efectivo recibido                      $1,076.05',
        'Cambio                                    $26.05',
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
      lines: [{ name: 'Parte de la orden', quantity: 1, amountCents: 5000 }],
      subtotalCents: 5000,
      discountCents: 0,
      totalCents: 5000,
      tax: null,
      payments: [],
      tipCents: 0,
      cashReceivedCents: 0,
      changeCents: 0,
      balanceCents: 5000,
      footer: '',
    };
    assert.equal(
      receiptText(unpaid, 32),
      text(
        '           Casa Pepe',
        '--------------------------------',
        'Cuenta 3F1C2A',
        'Orden 675CCA',
        'Fecha 22/11/2026 12:00',
        'Mesero Ana',
        '       *** PRECUENTA ***',
        '--------------------------------',
        '1 x Parte de la orden     $50.00',
        '--------------------------------',
        'Subtotal                  $50.00',
        'TOTAL MXN                 $50.00',
        '--------------------------------',
        'Saldo pendiente           $50.00',
      ),
    );
    assert.match(receiptText({ ...unpaid, status: 'canceled' }, 32), /^ {7}\*\*\* CANCELADA \*\*\*$/m);
    const english = receiptText({ ...unpaid, locale: 'en-US', currency: 'USD' }, 32);
    assert.match(english, /^ {6}\*\*\* GUEST CHECK \*\*\*$/m);
    assert.match(english, /^Balance due {15}\$50\.00$/m);
    assert.match(
      receiptText({ ...unpaid, locale: 'en-US', status: 'canceled' }, 32),
      /^ {7}\*\*\* CANCELLED \*\*\*$/m,
    );
  });

  it('names a table once when its name says the word already: "Mesa 7", not "Mesa Mesa 7"', () => {
    for (const [locale, name, line] of [
      ['es-MX', 'Mesa 7', 'Mesa 7'],
      ['es-MX', 'mesa 7', 'mesa 7'],
      ['es-MX', '7', 'Mesa 7'],
      ['es-MX', 'Mesanine 2', 'Mesa Mesanine 2'],
      ['en-US', 'Table 7', 'Table 7'],
    ] as const) {
      const lines = receiptText({ ...paidBill, locale, tableName: name }, 32).split('\n');
      assert.ok(lines.includes(line), `${name}: ${lines.join(' | ')}`);
    }
  });

  it('names a bill by seat after its seat, "Comensal 2", the word the guest page uses, and the seat of each dish otherwise', () => {
    const seatBill: Receipt = {
      ...paidBill,
      seat: 2,
      lines: [{ name: 'Tacos al pastor', quantity: 2, amountCents: 9000, seat: 2 }],
    };
    const lines = receiptLines(seatBill, 32);
    const table = lines.indexOf('Mesa Terrace 4');
    assert.deepEqual(lines.slice(table, table + 5), [
      'Mesa Terrace 4',
      'Comensal 2',
      'Mesero Ana',
      '--------------------------------',
      '2 x Tacos al pastor       $90.00',
    ]);
    const shared = receiptLines({ ...seatBill, seat: null }, 48);
    assert.ok(
      shared.some((line) => /^2 x Tacos al pastor \(Comensal 2\) +\$90\.00$/.test(line)),
      shared.join('\n'),
    );
    assert.ok(receiptLines({ ...seatBill, locale: 'en-US' }, 32).includes('Seat 2'));
  });

  it("marks a reprint under the business header, in the restaurant's language", () => {
    const reprinted = receiptText({ ...paidBill, reprint: true }, 32).split('\n');
    assert.equal(reprinted[5], '      *** REIMPRESIÓN ***');
    assert.equal(reprinted[6], '-'.repeat(32));
    assert.equal(
      receiptText({ ...englishBill, reprint: true }, 42).split('\n')[4],
      '             *** REPRINT ***',
    );
    assert.doesNotMatch(receiptText(paidBill, 32), /REIMPRESIÓN/);
  });

  it("prints the guest page's QR code above its address, before the footer", () => {
    const url = `https://mesa.laesquina.mx/g/${'x'.repeat(43)}`;
    const paper = receiptPaper({ ...paidBill, guestUrl: url }, 32);
    const plain = receiptLines(paidBill, 32);
    const footerAt = plain.length - 3;
    assert.deepEqual(paper.lines.slice(0, footerAt), plain.slice(0, footerAt));
    assert.equal(paper.qr?.value, url);
    const before = paper.lines.slice((paper.qr?.beforeLine ?? 0) - 2, paper.qr?.beforeLine);
    assert.equal(before.map((line) => line.trim()).join(' '), 'Pague o vea su cuenta desde su teléfono');
    const address = paper.lines.slice(paper.qr?.beforeLine, (paper.qr?.beforeLine ?? 0) + 3);
    assert.equal(address.join(''), url, 'the address whole, cut to the paper');
    assert.deepEqual(paper.lines.slice(-3), plain.slice(-3), 'the footer last');
    const bytes = Buffer.from(escposOf(paper.lines, 32, paper.qr));
    // GS ( k … 1 P 0 <data>: the QR code's data stored, then printed.
    const store = Buffer.concat([Buffer.from([0x31, 0x50, 0x30]), Buffer.from(url)]);
    assert.ok(bytes.indexOf(store) > 0, 'an ESC/POS QR code holding the address');
    assert.equal(
      Buffer.from(escposOf(plain, 32)).indexOf(Buffer.from([0x1d, 0x28, 0x6b])),
      -1,
      'none without one',
    );
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
    assert.equal(moneyFormatter('es-MX', 'MXN')(-123456789), '-$1,234,567.89');
    assert.equal(moneyFormatter('es-MX', 'USD')(123450), 'USD 1,234.50');
    assert.equal(moneyFormatter('en-US', 'MXN')(123450), 'MX$1,234.50');
  });

  it('works out the tax inside prices that include it, and on top of those that do not', () => {
    assert.equal(taxShareCents(11600, 1600, true), 1600);
    assert.equal(taxShareCents(10000, 1600, false), 1600);
    assert.equal(taxShareCents(12739, 1600, true), 1757);
    assert.equal(taxShareCents(10825, 825, true), 825);
    assert.equal(taxShareCents(0, 1600, true), 0);
  });
});
