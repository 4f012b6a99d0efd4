import { DateTime } from 'luxon';
import { conceptTotalCents } from './invoices';
import { type InvoiceRecord, ISSUER } from './model';
import { ZONE } from './periods';

/** PDF string literals: WinAnsi text with the three special characters escaped. */
function pdfText(value: string): string {
  const latin1 = [...value].map((char) => (char.charCodeAt(0) <= 0xff ? char : '?')).join('');
  return `(${latin1.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)')})`;
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The printed representation of the CFDI: one page, Helvetica, the data a customer checks. */
export function invoicePdf(record: InvoiceRecord): Buffer {
  const { invoice, concepts } = record;
  const lines: string[] = [
    `${invoice.type === 'E' ? 'NOTA DE CREDITO' : 'FACTURA'} ${invoice.series}${invoice.folio_number}`,
    `Emisor: ${ISSUER.legalName} (${ISSUER.rfc}) Regimen ${ISSUER.taxSystem}`,
    `Receptor: ${invoice.customer.legal_name} (${invoice.customer.tax_id}) Regimen ${invoice.customer.tax_system} CP ${invoice.customer.address.zip}`,
    `Uso CFDI: ${invoice.use}   Forma de pago: ${invoice.payment_form}   Metodo: ${invoice.payment_method}`,
    `Fecha: ${DateTime.fromISO(invoice.date, { zone: ZONE }).toFormat('yyyy-MM-dd HH:mm:ss')}`,
    `Folio fiscal (UUID): ${(invoice.uuid ?? '').toUpperCase()}`,
    ...invoice.related_documents.flatMap((group) =>
      group.documents.map((uuid) => `CFDI relacionado (${group.relationship}): ${uuid.toUpperCase()}`),
    ),
    '',
    ...concepts.map(
      (item) =>
        `${item.quantity} x ${item.description} [${item.productKey}] ${money(conceptTotalCents(item))}`,
    ),
    '',
    `Total: ${money(Math.round(invoice.total * 100))} MXN`,
    `Estado: ${invoice.status}`,
    'Este documento es una representacion impresa de un CFDI (simulado).',
  ];
  const content = [
    'BT',
    '/F1 10 Tf',
    '14 TL',
    '50 790 Td',
    ...lines.map((line) => `${pdfText(line)} '`),
    'ET',
  ].join('\n');
  return writePdf(content);
}

/** A minimal PDF 1.4: catalog, one A4 page, its content stream and a standard font, with its xref. */
function writePdf(content: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
