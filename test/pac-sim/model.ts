import { randomBytes, randomUUID } from 'node:crypto';
import type { SimItem } from './items';
import type { Periodicity } from './periods';

export type ReceiptStatus = 'open' | 'canceled' | 'invoiced_to_customer' | 'invoiced_globally';

/** A receipt as Facturapi answers it (the `Receipt` schema). */
export type SimReceipt = {
  id: string;
  created_at: string;
  livemode: false;
  date: string;
  expires_at: string;
  status: ReceiptStatus;
  self_invoice_url?: string;
  total: number;
  invoice: string | null;
  customer: string | null;
  key: string;
  items: SimItem[];
  external_id: string | null;
  idempotency_key: string | null;
  payment_form: string;
  folio_number: number;
  currency: string;
  exchange: number;
  branch: string | null;
};

export type CancellationStatus = 'none' | 'pending' | 'accepted' | 'rejected' | 'expired' | 'verifying';

export type SimCustomer = {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  email?: string;
  address: { zip: string; country: string };
};

/** An invoice as Facturapi answers it (the `Invoice` schema, the fields a POS reads). */
export type SimInvoice = {
  id: string;
  created_at: string;
  livemode: false;
  /** `pending` (no UUID yet) and `failed` only after an intermittent stamping outage (a 202). */
  status: 'valid' | 'canceled' | 'pending' | 'failed';
  cancellation_status: CancellationStatus;
  canceled_at?: string;
  verification_url: string;
  date: string;
  type: 'I' | 'E';
  customer: SimCustomer & { id: string };
  use: string;
  total: number;
  /** Null while the invoice is `pending` or once it `failed`. */
  uuid: string | null;
  folio_number: number;
  series: string;
  external_id: string | null;
  idempotency_key: string | null;
  payment_form: string;
  payment_method: 'PUE';
  currency: 'MXN';
  exchange: 1;
  items: SimItem[];
  related_documents: { relationship: string; documents: string[] }[];
  global?: { periodicity: Periodicity; months: string; year: number };
  stamp: { date: string; sat_signature: string; sat_cert_number: string; signature: string };
};

/** One CFDI Concepto with its amounts, as the XML and PDF print it. */
export type Concept = {
  productKey: string;
  sku?: string;
  quantity: number;
  unitKey: string;
  unitName: string;
  description: string;
  unitValue: number;
  importeCents: number;
  discountCents: number;
  /** Per IVA rate; empty when the line is not subject to tax (ObjetoImp 01). */
  transfers: { rate: number; baseCents: number; taxCents: number }[];
};

/** What the simulator keeps of an invoice beyond what it answers. */
export type InvoiceRecord = {
  invoice: SimInvoice;
  concepts: Concept[];
  receiptIds: string[];
  cancellation?: { motive: string; substitution?: string; requestedAt: string };
  /** A stamping the SAT's side interrupted: the UUID it will get, when and how it ends. */
  recovery?: { uuid: string; settlesAt: number; outcome: 'valid' | 'failed' };
};

export type Receiver = { rfc: string; legalName: string; zip: string; regimes: string[] };

/** The issuing organization: the SAT's own test taxpayer, so documents look like sandbox CFDIs. */
export const ISSUER = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  taxSystem: '601',
  zip: '42501',
  /** NoCertificado of the issuer's CSD as the XML states it. */
  certificateNumber: '30001000000500003416',
} as const;

/** The SAT's certificate that stamps (NoCertificadoSAT) in the test environment. */
export const SAT_CERTIFICATE_NUMBER = '30001000000500003456';

/** Facturapi's ids are MongoDB ObjectIds: 24 hex digits, the first 8 the creation second. */
export function objectId(now: Date): string {
  const seconds = Math.floor(now.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}

const KEY_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** The receipt's short key for the self-invoice portal (`r9YqYarL` in the docs). */
export function receiptKey(): string {
  return [...randomBytes(8)].map((byte) => KEY_ALPHABET[byte % KEY_ALPHABET.length]).join('');
}

export const newUuid = () => randomUUID();

/** A stand-in for a 2048-bit RSA signature in base64 (344 characters), as SelloCFD and SelloSAT are. */
export const fakeSignature = () => randomBytes(256).toString('base64');

export const fromCents = (value: number) => value / 100;
