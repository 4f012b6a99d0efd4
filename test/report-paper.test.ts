import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ReportPaperSetup } from '../src/printing/printing.api';
import { dayReportLines } from '../src/reports/day-report-paper';
import type { DayReport } from '../src/reports/reports.schemas';
import { shiftReportLines } from '../src/shifts/shift-report-paper';
import type { ShiftReport } from '../src/shifts/shifts.schemas';

const SHIFT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HASH = 'ab'.repeat(32);
/** 22/11/2026 22:05 in Mexico City. */
const PRINTED_AT = Date.parse('2026-11-23T04:05:00.000Z');

const spanish: ReportPaperSetup = {
  locale: 'es-MX',
  currency: 'MXN',
  businessName: 'Casa Pepe',
  timeZone: 'America/Mexico_City',
  printedAt: PRINTED_AT,
};
const english: ReportPaperSetup = { ...spanish, locale: 'en-US' };

const noAdjustments = { count: 0, amount: 0, by_reason: [], by_person: [] };

/** Ana's closed shift: three bills, cash, card and the terminal (Visa and an unknown brand), 2.00 short. */
const zReport: ShiftReport = {
  shift: {
    id: SHIFT_ID,
    user_id: SHIFT_ID,
    user_name: 'Ana',
    status: 'closed',
    opening_cash: 500,
    opened_at: '2026-11-22T20:00:00.000Z',
    closed_at: '2026-11-23T04:00:00.000Z',
    closed_by: SHIFT_ID,
    cash_movements: [],
    expected_cash: 1200.5,
    counted_cash: 1198.5,
    difference: -2,
    notes: null,
  },
  orders: 3,
  bills: 3,
  gross_sales: 1600,
  discounts: 100,
  refunds: 0,
  net_sales: 1500,
  tax: 206.9,
  covers: 7,
  average_bill: 500,
  average_per_cover: 214.29,
  payments_by_method: [
    { method: 'card', payments: 1, amount: 300, tips: 30 },
    { method: 'card_terminal', payments: 2, amount: 499.5, tips: 20 },
    { method: 'cash', payments: 1, amount: 700.5, tips: 0 },
  ],
  payments_total: 1500,
  tips_total: 50,
  tips_by_waiter: [],
  lightning_sats: 0,
  lightning_fees_msat: 0,
  lightning_fees: 0,
  card_terminal_by_brand: [
    { brand: 'visa', payments: 1, amount: 400, tips: 20, fees: 14 },
    { brand: '', payments: 1, amount: 99.5, tips: 0, fees: 3.5 },
  ],
  card_terminal_fees: 17.5,
  forced_pay_outs: [],
  expected_cash: 1200.5,
  counted_cash: 1198.5,
  difference: -2,
  audit_head: { seq: 42, hash: HASH },
};

const dayReport: DayReport = {
  date: '2026-11-22',
  from: '2026-11-22T06:00:00.000Z',
  to: '2026-11-23T06:00:00.000Z',
  orders: 4,
  bills: 4,
  items: 12,
  gross_sales: 2100,
  discounts: 100,
  refunds: 0,
  net_sales: 2000,
  tax: 275.86,
  tips_total: 60,
  covers: 9,
  average_bill: 500,
  average_per_cover: 222.22,
  payments_by_method: [
    { method: 'card', payments: 2, amount: 800, tips: 40 },
    { method: 'cash', payments: 2, amount: 1200, tips: 20 },
  ],
  payments_total: 2000,
  refunds_recorded: 0,
  lightning_sats: 0,
  lightning_fees_msat: 0,
  lightning_fees: 0,
  shifts: [
    {
      shift_id: SHIFT_ID,
      user_id: SHIFT_ID,
      user_name: 'Ana',
      status: 'closed',
      payments: 3,
      payments_total: 1500,
      tips: 50,
      refunds: 0,
      expected_cash: 1200.5,
      counted_cash: 1198.5,
      difference: -2,
    },
    {
      shift_id: 'b3d9c1a2-1f0e-4c7b-9a8d-6e5f4c3b2a10',
      user_id: SHIFT_ID,
      user_name: 'Luis',
      status: 'open',
      payments: 1,
      payments_total: 400,
      tips: 10,
      refunds: 0,
      expected_cash: null,
      counted_cash: null,
      difference: null,
    },
    {
      shift_id: null,
      user_id: null,
      user_name: null,
      status: null,
      payments: 1,
      payments_total: 100,
      tips: 0,
      refunds: 0,
      expected_cash: null,
      counted_cash: null,
      difference: null,
    },
  ],
  by_channel: [],
  voids: { ...noAdjustments, count: 2, amount: 150 },
  comps: { ...noAdjustments, count: 1, amount: 80 },
  other_discounts: noAdjustments,
  fiscal: null,
};

describe('report paper', () => {
  it("lays out a closed shift's Z report at 42 columns in Spanish: header, key figures, payments, terminal brands, cash, audit head", () => {
    assert.deepEqual(shiftReportLines(zReport, spanish, 42), [
      '                Casa Pepe',
      '                 CORTE Z',
      '------------------------------------------',
      'Turno 7C9E66',
      'Cajero Ana',
      'Abierto 22/11/2026 14:00',
      'Cerrado 22/11/2026 22:00',
      'Impreso 22/11/2026 22:05',
      '------------------------------------------',
      'Ventas netas                     $1,500.00',
      'Cuentas                                  3',
      'Comensales                               7',
      'Cuenta promedio                    $500.00',
      'Promedio por comensal              $214.29',
      'Propinas                            $50.00',
      '------------------------------------------',
      'Pagos',
      'Tarjeta (1)                        $300.00',
      'Terminal (2)                       $499.50',
      'Efectivo (1)                       $700.50',
      'Terminal por marca',
      '  visa (1)                         $400.00',
      '  Otra (1)                          $99.50',
      '------------------------------------------',
      'Efectivo esperado                $1,200.50',
      'Efectivo contado                 $1,198.50',
      'Diferencia                          -$2.00',
      '------------------------------------------',
      'Auditoría #42',
      'ababababababababababababababababababababab',
      'ababababababababababab',
    ]);
  });

  it('lays out the same Z report at 32 columns', () => {
    assert.deepEqual(shiftReportLines(zReport, spanish, 32), [
      '           Casa Pepe',
      '            CORTE Z',
      '--------------------------------',
      'Turno 7C9E66',
      'Cajero Ana',
      'Abierto 22/11/2026 14:00',
      'Cerrado 22/11/2026 22:00',
      'Impreso 22/11/2026 22:05',
      '--------------------------------',
      'Ventas netas           $1,500.00',
      'Cuentas                        3',
      'Comensales                     7',
      'Cuenta promedio          $500.00',
      'Promedio por comensal    $214.29',
      'Propinas                  $50.00',
      '--------------------------------',
      'Pagos',
      'Tarjeta (1)              $300.00',
      'Terminal (2)             $499.50',
      'Efectivo (1)             $700.50',
      'Terminal por marca',
      '  visa (1)               $400.00',
      '  Otra (1)                $99.50',
      '--------------------------------',
      'Efectivo esperado      $1,200.50',
      'Efectivo contado       $1,198.50',
      'Diferencia                -$2.00',
      '--------------------------------',
      'Auditoría #42',
      'abababababababababababababababab',
      'abababababababababababababababab',
    ]);
  });

  it('lays out the Z report in English', () => {
    assert.deepEqual(shiftReportLines(zReport, english, 32), [
      '           Casa Pepe',
      '            Z REPORT',
      '--------------------------------',
      'Shift 7C9E66',
      'Cashier Ana',
      'Opened 2026-11-22 14:00',
      'Closed 2026-11-22 22:00',
      'Printed 2026-11-22 22:05',
      '--------------------------------',
      'Net sales            MX$1,500.00',
      'Bills                          3',
      'Covers                         7',
      'Average bill           MX$500.00',
      'Average per cover      MX$214.29',
      'Tips                    MX$50.00',
      '--------------------------------',
      'Payments',
      'Card (1)               MX$300.00',
      'Card terminal (2)      MX$499.50',
      'Cash (1)               MX$700.50',
      'Card terminal by brand',
      '  visa (1)             MX$400.00',
      '  Other (1)             MX$99.50',
      '--------------------------------',
      'Expected cash        MX$1,200.50',
      'Counted cash         MX$1,198.50',
      'Difference              -MX$2.00',
      '--------------------------------',
      'Audit #42',
      'abababababababababababababababab',
      'abababababababababababababababab',
    ]);
  });

  it("heads an open shift's report as a corte X and prints no cash a blind cashier may not see", () => {
    const open: ShiftReport = {
      ...zReport,
      shift: { ...zReport.shift, status: 'open', closed_at: null },
      bills: 0,
      covers: 0,
      average_bill: null,
      average_per_cover: null,
      payments_by_method: [],
      card_terminal_by_brand: [],
      expected_cash: null,
      counted_cash: null,
      difference: null,
      audit_head: null,
    };
    const lines = shiftReportLines(open, spanish, 32);
    assert.equal(lines[1], '    CORTE X (TURNO ABIERTO)');
    assert.ok(
      !lines.some((line) => /Cerrado|[Pp]romedio|Pagos|Efectivo|Auditoría/.test(line)),
      lines.join('\n'),
    );
    assert.ok(lines.every((line) => line.length <= 32));
  });

  it('lays out the day report at 42 columns in Spanish: key figures, covers and averages, payments, voids and comps, each shift', () => {
    assert.deepEqual(dayReportLines(dayReport, spanish, 42), [
      '                Casa Pepe',
      '             REPORTE DEL DÍA',
      '                22/11/2026',
      '------------------------------------------',
      'Impreso 22/11/2026 22:05',
      '------------------------------------------',
      'Ventas netas                     $2,000.00',
      'Cuentas                                  4',
      'Comensales                               9',
      'Cuenta promedio                    $500.00',
      'Promedio por comensal              $222.22',
      'Propinas                            $60.00',
      '------------------------------------------',
      'Pagos',
      'Tarjeta (2)                        $800.00',
      'Efectivo (2)                     $1,200.00',
      '------------------------------------------',
      'Anulaciones (2)                    $150.00',
      'Cortesías (1)                       $80.00',
      '------------------------------------------',
      'Turnos',
      'Ana                              $1,500.00',
      '  Diferencia                        -$2.00',
      'Luis (abierto)                     $400.00',
      'Fuera de turno                     $100.00',
    ]);
  });

  it('lays out the same day report at 32 columns', () => {
    assert.deepEqual(dayReportLines(dayReport, spanish, 32), [
      '           Casa Pepe',
      '        REPORTE DEL DÍA',
      '           22/11/2026',
      '--------------------------------',
      'Impreso 22/11/2026 22:05',
      '--------------------------------',
      'Ventas netas           $2,000.00',
      'Cuentas                        4',
      'Comensales                     9',
      'Cuenta promedio          $500.00',
      'Promedio por comensal    $222.22',
      'Propinas                  $60.00',
      '--------------------------------',
      'Pagos',
      'Tarjeta (2)              $800.00',
      'Efectivo (2)           $1,200.00',
      '--------------------------------',
      'Anulaciones (2)          $150.00',
      'Cortesías (1)             $80.00',
      '--------------------------------',
      'Turnos',
      'Ana                    $1,500.00',
      '  Diferencia              -$2.00',
      'Luis (abierto)           $400.00',
      'Fuera de turno           $100.00',
    ]);
  });

  it('lays out the day report in English', () => {
    assert.deepEqual(dayReportLines(dayReport, english, 32), [
      '           Casa Pepe',
      '           DAY REPORT',
      '           2026-11-22',
      '--------------------------------',
      'Printed 2026-11-22 22:05',
      '--------------------------------',
      'Net sales            MX$2,000.00',
      'Bills                          4',
      'Covers                         9',
      'Average bill           MX$500.00',
      'Average per cover      MX$222.22',
      'Tips                    MX$60.00',
      '--------------------------------',
      'Payments',
      'Card (2)               MX$800.00',
      'Cash (2)             MX$1,200.00',
      '--------------------------------',
      'Voids (2)              MX$150.00',
      'Comps (1)               MX$80.00',
      '--------------------------------',
      'Shifts',
      'Ana                  MX$1,500.00',
      '  Difference            -MX$2.00',
      'Luis (open)            MX$400.00',
      'Outside any shift      MX$100.00',
    ]);
  });

  it('keeps every line within the paper when names are long', () => {
    const long = 'María Guadalupe Hernández de la Fuente';
    const lines = [
      ...shiftReportLines({ ...zReport, shift: { ...zReport.shift, user_name: long } }, spanish, 32),
      ...dayReportLines(
        { ...dayReport, shifts: dayReport.shifts.map((line) => ({ ...line, user_name: long })) },
        { ...spanish, businessName: `Restaurante ${long}` },
        32,
      ),
    ];
    assert.ok(
      lines.every((line) => line.length <= 32),
      lines.join('\n'),
    );
  });
});
