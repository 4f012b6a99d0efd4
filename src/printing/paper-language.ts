import { DateTime } from 'luxon';
import type { PaperLocale, Settings } from '../settings/settings.api';

const WORDS = {
  'es-MX': {
    taxId: 'RFC',
    bill: 'Cuenta',
    date: 'Fecha',
    table: 'Mesa',
    noTable: 'Sin mesa',
    waiter: 'Mesero',
    seat: 'Comensal',
    cancelled: '*** CANCELADA ***',
    guestCheck: '*** PRECUENTA ***',
    reprint: '*** REIMPRESIÓN ***',
    shareOfOrder: 'Parte de la orden',
    discount: 'Descuento',
    tax: 'IVA',
    taxIncluded: 'IVA incluido',
    satAt: 'a',
    refunded: 'Reembolsado',
    tip: 'Propina',
    totalWithTip: 'Total con propina',
    cashReceived: 'Efectivo recibido',
    change: 'Cambio',
    balanceDue: 'Saldo pendiente',
    scanToPay: 'Pague o vea su cuenta desde su teléfono',
    scanToInvoice: 'Escanee para facturar su consumo',
    selfInvoice: 'Facture su consumo en:',
    invoiceUntil: 'Vigencia:',
    kitchen: 'COCINA',
    voided: 'ANULADO: NO PREPARAR',
    voidReason: 'Motivo:',
    order: 'Orden',
    sent: 'Enviado',
    course: 'Tiempo',
    cash: 'Efectivo',
    card: 'Tarjeta',
    lightning: 'Lightning',
    customer: 'Cliente:',
    pickup: 'Recoge:',
    packingSlip: 'LISTA DE EMPAQUE',
    packingCheck: 'Revisa cada platillo antes de cerrar la bolsa',
    zReport: 'CORTE Z',
    zReportSoFar: 'CORTE X (TURNO ABIERTO)',
    dayReport: 'REPORTE DEL DÍA',
    shift: 'Turno',
    cashier: 'Cajero',
    opened: 'Abierto',
    closed: 'Cerrado',
    printedAt: 'Impreso',
    netSales: 'Ventas netas',
    bills: 'Cuentas',
    covers: 'Comensales',
    averageBill: 'Cuenta promedio',
    averagePerCover: 'Promedio por comensal',
    tips: 'Propinas',
    payments: 'Pagos',
    terminal: 'Terminal',
    cardTerminal: 'Terminal por marca',
    unknownBrand: 'Otra',
    expectedCash: 'Efectivo esperado',
    countedCash: 'Efectivo contado',
    difference: 'Diferencia',
    voids: 'Anulaciones',
    comps: 'Cortesías',
    shifts: 'Turnos',
    outsideShift: 'Fuera de turno',
    stillOpen: 'abierto',
    auditHead: 'Auditoría',
  },
  'en-US': {
    taxId: 'Tax ID',
    bill: 'Bill',
    date: 'Date',
    table: 'Table',
    noTable: 'No table',
    waiter: 'Waiter',
    seat: 'Seat',
    cancelled: '*** CANCELLED ***',
    guestCheck: '*** GUEST CHECK ***',
    reprint: '*** REPRINT ***',
    shareOfOrder: 'Share of the order',
    discount: 'Discount',
    tax: 'Tax',
    taxIncluded: 'Tax included',
    satAt: 'at',
    refunded: 'Refunded',
    tip: 'Tip',
    totalWithTip: 'Total with tip',
    cashReceived: 'Cash received',
    change: 'Change',
    balanceDue: 'Balance due',
    scanToPay: 'Pay or see your bill on your phone',
    scanToInvoice: 'Scan to get your tax invoice',
    selfInvoice: 'Get your tax invoice at:',
    invoiceUntil: 'Until:',
    kitchen: 'KITCHEN',
    voided: 'VOID: DO NOT MAKE',
    voidReason: 'Reason:',
    order: 'Order',
    sent: 'Sent',
    course: 'Course',
    cash: 'Cash',
    card: 'Card',
    lightning: 'Lightning',
    customer: 'Customer:',
    pickup: 'Pickup:',
    packingSlip: 'PACKING SLIP',
    packingCheck: 'Check every dish before sealing the bag',
    zReport: 'Z REPORT',
    zReportSoFar: 'X REPORT (SHIFT OPEN)',
    dayReport: 'DAY REPORT',
    shift: 'Shift',
    cashier: 'Cashier',
    opened: 'Opened',
    closed: 'Closed',
    printedAt: 'Printed',
    netSales: 'Net sales',
    bills: 'Bills',
    covers: 'Covers',
    averageBill: 'Average bill',
    averagePerCover: 'Average per cover',
    tips: 'Tips',
    payments: 'Payments',
    terminal: 'Card terminal',
    cardTerminal: 'Card terminal by brand',
    unknownBrand: 'Other',
    expectedCash: 'Expected cash',
    countedCash: 'Counted cash',
    difference: 'Difference',
    voids: 'Voids',
    comps: 'Comps',
    shifts: 'Shifts',
    outsideShift: 'Outside any shift',
    stillOpen: 'open',
    auditHead: 'Audit',
  },
} as const satisfies Record<PaperLocale, Record<string, string>>;

export type PaperWords = (typeof WORDS)[PaperLocale];

/** What a report's paper needs besides the report: the restaurant's name, language, money and clock. */
export type ReportPaperSetup = {
  locale: PaperLocale;
  currency: string;
  businessName: string;
  timeZone: string;
  printedAt: number;
};

export function reportPaperSetup(settings: Settings, printedAt: number): ReportPaperSetup {
  return {
    locale: settings.locale,
    currency: settings.baseCurrency,
    businessName: settings.businessName,
    timeZone: settings.timeZone,
    printedAt,
  };
}

export function paperWords(locale: PaperLocale): PaperWords {
  return WORDS[locale];
}

const BUILT_IN_METHODS = ['cash', 'card', 'lightning'] as const;

/**
 * A payment method as the paper names it: the three every restaurant starts with in the paper's
 * language, as the till's screen names them; a method the restaurant added by the name it gave it.
 */
export function paymentMethodName(words: PaperWords, code: string, storedName: string | null): string {
  const builtIn = BUILT_IN_METHODS.find((method) => method === code);
  return builtIn ? words[builtIn] : (storedName ?? code);
}

/**
 * A method as a report's paper names it. The reports carry methods by code: the card terminal gets
 * its paper word, a method the restaurant added shows by its code.
 */
export function reportMethodName(words: PaperWords, code: string): string {
  return code === 'card_terminal' ? words.terminal : paymentMethodName(words, code, null);
}

/**
 * Amounts as the locale writes them, with the currency's sign (`$1,234.50` in es-MX). Printers know
 * no non-breaking space, so Intl's become plain ones.
 */
export function moneyFormatter(locale: PaperLocale, currency: string): (cents: number) => string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2 });
  return (cents) => format.format(cents / 100).replace(/[\u00a0\u202f]/g, ' ');
}

export function formatCount(locale: PaperLocale, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** A percentage as the locale writes it: `16 %` in Spanish (a space before the sign), `16%` in English. */
export function formatPercent(locale: PaperLocale, percent: number): string {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(percent);
  return locale === 'es-MX' ? `${number} %` : `${number}%`;
}

/** The delivery apps by the names their couriers and customers know (the same in every language). */
const CHANNEL_NAMES: Readonly<Record<string, string>> = { ubereats: 'Uber Eats', rappi: 'Rappi' };

export function channelLabel(channel: string): string {
  return CHANNEL_NAMES[channel] ?? channel;
}

/** An instant's time of day on the restaurant's wall clock: `20:15`. */
export function formatPaperTime(unixMs: number, timeZone: string): string {
  return DateTime.fromMillis(unixMs, { zone: timeZone }).toFormat('HH:mm');
}

/** An instant as the restaurant's wall clock showed it: `22/11/2026 12:00` in Mexico, `2026-11-22 12:00` otherwise. */
export function formatPaperDateTime(locale: PaperLocale, unixMs: number, timeZone: string): string {
  return DateTime.fromMillis(unixMs, { zone: timeZone }).toFormat(
    locale === 'es-MX' ? 'dd/LL/yyyy HH:mm' : 'yyyy-LL-dd HH:mm',
  );
}

/** A day as the restaurant's calendar shows it: `30/11/2026` in Mexico, `2026-11-30` otherwise. */
export function formatPaperDate(locale: PaperLocale, unixMs: number, timeZone: string): string {
  return DateTime.fromMillis(unixMs, { zone: timeZone }).toFormat(
    locale === 'es-MX' ? 'dd/LL/yyyy' : 'yyyy-LL-dd',
  );
}

/** Words a table's name may start with already: "Mesa 7" is not printed "Mesa Mesa 7". */
const TABLE_WORDS = /^(mesa|table)\b/i;

/** The table as the paper names it: the word and the name, or the name alone when it says the word. */
export function tableLabel(word: string, name: string): string {
  return TABLE_WORDS.test(name.trim()) ? name : `${word} ${name}`;
}
