import { cancelInvoice } from './cancellation';
import { cfdiXml } from './cfdi-xml';
import { PacError } from './errors';
import { createGlobalInvoice } from './global-invoice';
import { createInvoice, getInvoiceRecord, invoiceReceipt, listInvoices } from './invoices';
import { invoicePdf } from './pdf';
import { cancelReceipt, createReceipt, getReceipt, listReceipts } from './receipts';
import type { PacState } from './state';
import { storedZip } from './zip';

export type Answer =
  | { json: unknown; status?: 202 }
  | { file: Buffer; contentType: string; fileName: string };

type Request = { params: string[]; query: URLSearchParams; body: unknown };

export type Route = {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: RegExp;
  handle: (state: PacState, request: Request) => Answer;
};

const param = (request: Request, index = 0) => decodeURIComponent(request.params[index] ?? '');

/** The subset of Facturapi's v2 API the POS uses; the order matters where paths overlap. */
export const ROUTES: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v2\/receipts$/,
    handle: (state, request) => ({ json: createReceipt(state, request.body) }),
  },
  {
    method: 'GET',
    pattern: /^\/v2\/receipts$/,
    handle: (state, request) => ({ json: listReceipts(state, request.query) }),
  },
  {
    method: 'POST',
    pattern: /^\/v2\/receipts\/global-invoice$/,
    handle: (state, request) => ({ json: createGlobalInvoice(state, request.body) }),
  },
  {
    method: 'POST',
    pattern: /^\/v2\/receipts\/([^/]+)\/invoice$/,
    handle: (state, request) => ({ json: invoiceReceipt(state, param(request), request.body) }),
  },
  {
    method: 'GET',
    pattern: /^\/v2\/receipts\/([^/]+)$/,
    handle: (state, request) => ({ json: getReceipt(state, param(request)) }),
  },
  {
    method: 'DELETE',
    pattern: /^\/v2\/receipts\/([^/]+)$/,
    handle: (state, request) => ({ json: cancelReceipt(state, param(request)) }),
  },
  {
    method: 'POST',
    pattern: /^\/v2\/invoices$/,
    handle: (state, request) => {
      const invoice = createInvoice(state, request.body);
      return { json: invoice, ...(invoice.status === 'pending' && { status: 202 as const }) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/v2\/invoices$/,
    handle: (state, request) => ({ json: listInvoices(state, request.query) }),
  },
  {
    method: 'GET',
    pattern: /^\/v2\/invoices\/([^/]+)\/(pdf|xml|zip)$/,
    handle: (state, request) => download(state, param(request), param(request, 1)),
  },
  {
    method: 'GET',
    pattern: /^\/v2\/invoices\/([^/]+)$/,
    handle: (state, request) => ({ json: getInvoiceRecord(state, param(request)).invoice }),
  },
  {
    method: 'DELETE',
    pattern: /^\/v2\/invoices\/([^/]+)$/,
    handle: (state, request) => ({ json: cancelInvoice(state, param(request), request.query) }),
  },
];

function download(state: PacState, id: string, format: string): Answer {
  const record = getInvoiceRecord(state, id);
  if (record.invoice.uuid === null)
    throw new PacError(400, 'invoice_not_stamped', `La factura ${id} aún no está timbrada.`);
  const name = record.invoice.uuid.toUpperCase();
  const xml = Buffer.from(cfdiXml(record), 'utf8');
  if (format === 'xml') return { file: xml, contentType: 'application/xml', fileName: `${name}.xml` };
  const pdf = invoicePdf(record);
  if (format === 'pdf') return { file: pdf, contentType: 'application/pdf', fileName: `${name}.pdf` };
  const zip = storedZip(
    [
      { name: `${name}.pdf`, data: pdf },
      { name: `${name}.xml`, data: xml },
    ],
    new Date(record.invoice.stamp.date),
  );
  return { file: zip, contentType: 'application/zip', fileName: `${name}.zip` };
}
