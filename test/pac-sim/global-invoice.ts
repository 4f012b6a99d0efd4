import { invalidField, PacError } from './errors';
import { Fields } from './fields';
import { checkIssueDate, stamp } from './invoices';
import { documentAmounts } from './items';
import { type Concept, fromCents, ISSUER, type SimInvoice, type SimReceipt } from './model';
import {
  HOUR_MS,
  localMonthAndYear,
  PERIODICITIES,
  type Periodicity,
  periodOf,
  previousPeriod,
} from './periods';
import { GENERAL_PUBLIC, globalInvoiceMonths, PAYMENT_FORMS } from './sat-catalogs';
import type { PacState } from './state';

/**
 * `POST /receipts/global-invoice`: every open receipt dated in [from, to] goes into one CFDI to the
 * public at large, one Concepto per receipt (ClaveProdServ 01010101, "Venta", its folio as
 * NoIdentificacion) as the SAT's guide for global invoices asks; the receipts become
 * `invoiced_globally`. With no receipt to include there is nothing to stamp and the answer is `null`.
 */
export function createGlobalInvoice(state: PacState, body: unknown): SimInvoice | null {
  const fields = new Fields(body);
  const { periodicity, from, to, date } = readPeriod(state, fields);
  const paymentForm = fields.optionalString('payment_form');
  if (paymentForm !== undefined && PAYMENT_FORMS[paymentForm] === undefined)
    throw invalidField(
      'payment_form',
      'invalid_value',
      `La forma de pago "${paymentForm}" no existe en el catálogo del SAT.`,
    );
  const chosen = readReceiptIds(fields);

  const receipts = [...state.receipts.values()].filter((receipt) => {
    const time = Date.parse(receipt.date);
    return (
      receipt.status === 'open' &&
      time >= from.getTime() &&
      time <= to.getTime() &&
      (paymentForm === undefined || receipt.payment_form === paymentForm) &&
      (chosen === undefined || chosen.has(receipt.id))
    );
  });
  if (receipts.length === 0) return null;
  if (receipts.length > 5000)
    throw new PacError(
      400,
      'global_invoice_too_many_items',
      'La factura global excede el máximo de 5,000 conceptos.',
    );

  const { month, year } = localMonthAndYear(to);
  const months = fields.optionalString('months') ?? globalInvoiceMonths(periodicity, month);
  const record = stamp(state, {
    type: 'I',
    customer: {
      legal_name: GENERAL_PUBLIC.legalName,
      tax_id: GENERAL_PUBLIC.taxId,
      tax_system: GENERAL_PUBLIC.taxSystem,
      // The receiver's zip of a global invoice is the issuer's place of issue.
      address: { zip: ISSUER.zip, country: 'MEX' },
    },
    use: GENERAL_PUBLIC.use,
    paymentForm: paymentForm ?? dominantPaymentForm(receipts),
    items: receipts.map(saleItem),
    concepts: receipts.map(saleConcept),
    date,
    series: fields.optionalString('series'),
    folioNumber: fields.optionalInteger('folio_number'),
    global: { periodicity, months, year: fields.optionalInteger('year') ?? year },
    receiptIds: receipts.map((receipt) => receipt.id),
  });
  for (const receipt of receipts) {
    receipt.status = 'invoiced_globally';
    receipt.invoice = record.invoice.id;
  }
  return record.invoice;
}

/** The period to invoice, checked against the SAT's rules, and the date the CFDI will carry. */
function readPeriod(state: PacState, fields: Fields) {
  const periodicity = (fields.optionalString('periodicity') ??
    state.receiptSettings.periodicity) as Periodicity;
  if (!PERIODICITIES.includes(periodicity))
    throw invalidField('periodicity', 'invalid_value', `La periodicidad "${periodicity}" no es válida.`);
  const now = state.now();
  // Without either bound, the last closed period; with one, the rest of that bound's period.
  const givenFrom = fields.optionalDate('from');
  const givenTo = fields.optionalDate('to');
  const fallback =
    givenFrom !== undefined
      ? periodOf(periodicity, givenFrom)
      : givenTo !== undefined
        ? periodOf(periodicity, givenTo)
        : previousPeriod(periodicity, now);
  const from = givenFrom ?? fallback.start;
  const to = givenTo ?? fallback.end;
  if (from > to)
    throw new PacError(400, 'invalid_date_range', 'La fecha "from" debe ser anterior a la fecha "to".');
  const period = periodOf(periodicity, from);
  if (to > period.end)
    throw new PacError(
      400,
      'invalid_global_invoice_period',
      `El rango de fechas debe estar dentro del mismo periodo de facturación: ${periodicity}.`,
    );
  // The CFDI is dated at the period's close (or now, for a period still running); the SAT takes a
  // date up to 72 hours old, so a period closed longer ago can no longer be invoiced globally.
  const date = fields.optionalDate('date') ?? (to < now ? to : now);
  if (to.getTime() < now.getTime() - 72 * HOUR_MS)
    throw new PacError(
      400,
      'invalid_date',
      'La factura global de un periodo debe emitirse a más tardar 72 horas después de su cierre.',
      [
        {
          message:
            'La factura global de un periodo debe emitirse a más tardar 72 horas después de su cierre.',
          code: 'invalid_value',
          source: 'facturapi',
          location: 'body',
          path: 'to',
        },
      ],
    );
  checkIssueDate(state, date, 'date');
  return { periodicity, from, to, date };
}

function readReceiptIds(fields: Fields): Set<string> | undefined {
  const value = fields.values.receipts;
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string'))
    throw invalidField(
      'receipts',
      'invalid_type',
      'El campo "receipts" debe ser una lista de ids de recibos.',
    );
  return new Set(value as string[]);
}

/** A CFDI has one FormaPago: the SAT's guide takes the one that paid the largest amount. */
function dominantPaymentForm(receipts: SimReceipt[]): string {
  const totals = new Map<string, number>();
  for (const receipt of receipts)
    totals.set(receipt.payment_form, (totals.get(receipt.payment_form) ?? 0) + receipt.total);
  return [...totals.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '01';
}

function saleConcept(receipt: SimReceipt): Concept {
  const amounts = documentAmounts(receipt.items);
  return {
    productKey: '01010101',
    sku: String(receipt.folio_number),
    quantity: 1,
    unitKey: 'ACT',
    unitName: 'Actividad',
    description: 'Venta',
    unitValue: fromCents(amounts.subtotalCents),
    importeCents: amounts.subtotalCents,
    discountCents: amounts.discountCents,
    transfers: [...amounts.taxesByRate.entries()].map(([rate, sums]) => ({ rate, ...sums })),
  };
}

function saleItem(receipt: SimReceipt): SimInvoice['items'][number] {
  return {
    quantity: 1,
    discount: 0,
    product: {
      description: 'Venta',
      product_key: '01010101',
      price: receipt.total,
      tax_included: true,
      taxability: '02',
      taxes: [...new Set(receipt.items.flatMap((item) => item.product.taxes.map((tax) => tax.rate)))].map(
        (rate) => ({ type: 'IVA' as const, rate, factor: 'Tasa' as const, withholding: false as const }),
      ),
      local_taxes: [],
      unit_key: 'ACT',
      unit_name: 'Actividad',
      sku: String(receipt.folio_number),
    },
  };
}
