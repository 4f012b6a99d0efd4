import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { conceptTotalCents } from './invoices';
import { type Concept, type InvoiceRecord, ISSUER } from './model';
import { ZONE } from './periods';
import { GENERAL_PUBLIC, GLOBAL_PERIODICITY } from './sat-catalogs';

const CFDI_NS = 'http://www.sat.gob.mx/cfd/4';
const TFD_NS = 'http://www.sat.gob.mx/TimbreFiscalDigital';
const SCHEMA_LOCATIONS =
  `${CFDI_NS} http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd ` +
  `${TFD_NS} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;
/** The RFC of the PAC in the SAT's own CFDI examples. */
const PAC_RFC = 'SPR190613I52';

/** Stands for the issuer's CSD certificate (DER in base64); nothing verifies it. */
const ISSUER_CERTIFICATE = randomBytes(1200).toString('base64');

const money = (centsValue: number) => (centsValue / 100).toFixed(2);
const rate = (value: number) => value.toFixed(6);
/** CFDI dates are the issuer's local time, without offset. */
const localTime = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ss");

function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function element(name: string, attributes: Record<string, string | undefined>, children?: string[]): string {
  const attributeText = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(value)}"`)
    .join('');
  if (children === undefined || children.length === 0) return `<${name}${attributeText}/>`;
  return `<${name}${attributeText}>${children.join('')}</${name}>`;
}

function transfer(entry: { rate: number; baseCents: number; taxCents: number }): string {
  return element('cfdi:Traslado', {
    Base: money(entry.baseCents),
    Impuesto: '002',
    TipoFactor: 'Tasa',
    TasaOCuota: rate(entry.rate),
    Importe: money(entry.taxCents),
  });
}

function concept(item: Concept): string {
  const taxes =
    item.transfers.length === 0
      ? []
      : [element('cfdi:Impuestos', {}, [element('cfdi:Traslados', {}, item.transfers.map(transfer))])];
  return element(
    'cfdi:Concepto',
    {
      ClaveProdServ: item.productKey,
      NoIdentificacion: item.sku,
      Cantidad: String(item.quantity),
      ClaveUnidad: item.unitKey,
      Unidad: item.unitName,
      Descripcion: item.description,
      ValorUnitario: item.unitValue.toFixed(6),
      Importe: money(item.importeCents),
      Descuento: item.discountCents > 0 ? money(item.discountCents) : undefined,
      ObjetoImp: item.transfers.length === 0 ? '01' : '02',
    },
    taxes,
  );
}

/** The stamped CFDI 4.0 of an invoice: the document, then the TimbreFiscalDigital 1.1 that seals it. */
export function cfdiXml(record: InvoiceRecord): string {
  const { invoice, concepts } = record;
  const byRate = new Map<number, { rate: number; baseCents: number; taxCents: number }>();
  for (const entry of concepts.flatMap((item) => item.transfers)) {
    const sum = byRate.get(entry.rate) ?? { rate: entry.rate, baseCents: 0, taxCents: 0 };
    sum.baseCents += entry.baseCents;
    sum.taxCents += entry.taxCents;
    byRate.set(entry.rate, sum);
  }
  const subtotalCents = concepts.reduce((sum, item) => sum + item.importeCents, 0);
  const discountCents = concepts.reduce((sum, item) => sum + item.discountCents, 0);
  const taxCents = [...byRate.values()].reduce((sum, entry) => sum + entry.taxCents, 0);
  const totalCents = concepts.reduce((sum, item) => sum + conceptTotalCents(item), 0);
  const isGlobal = invoice.global !== undefined;

  const children = [
    invoice.global === undefined
      ? ''
      : element('cfdi:InformacionGlobal', {
          Periodicidad: GLOBAL_PERIODICITY[invoice.global.periodicity],
          Meses: invoice.global.months,
          Año: String(invoice.global.year),
        }),
    ...invoice.related_documents.map((group) =>
      element(
        'cfdi:CfdiRelacionados',
        { TipoRelacion: group.relationship },
        group.documents.map((uuid) => element('cfdi:CfdiRelacionado', { UUID: uuid.toUpperCase() })),
      ),
    ),
    element('cfdi:Emisor', { Rfc: ISSUER.rfc, Nombre: ISSUER.legalName, RegimenFiscal: ISSUER.taxSystem }),
    element('cfdi:Receptor', {
      Rfc: invoice.customer.tax_id,
      Nombre: isGlobal ? GENERAL_PUBLIC.legalName : invoice.customer.legal_name.toUpperCase(),
      DomicilioFiscalReceptor: invoice.customer.address.zip,
      RegimenFiscalReceptor: invoice.customer.tax_system,
      UsoCFDI: invoice.use,
    }),
    element('cfdi:Conceptos', {}, concepts.map(concept)),
    byRate.size === 0
      ? ''
      : element('cfdi:Impuestos', { TotalImpuestosTrasladados: money(taxCents) }, [
          element('cfdi:Traslados', {}, [...byRate.values()].map(transfer)),
        ]),
    element('cfdi:Complemento', {}, [
      element('tfd:TimbreFiscalDigital', {
        'xmlns:tfd': TFD_NS,
        'xsi:schemaLocation': `${TFD_NS} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`,
        Version: '1.1',
        UUID: (invoice.uuid ?? '').toUpperCase(),
        FechaTimbrado: localTime(invoice.stamp.date),
        RfcProvCertif: PAC_RFC,
        SelloCFD: invoice.stamp.signature,
        NoCertificadoSAT: invoice.stamp.sat_cert_number,
        SelloSAT: invoice.stamp.sat_signature,
      }),
    ]),
  ].filter((child) => child !== '');

  const root = element(
    'cfdi:Comprobante',
    {
      'xmlns:cfdi': CFDI_NS,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': SCHEMA_LOCATIONS,
      Version: '4.0',
      Serie: invoice.series === '' ? undefined : invoice.series,
      Folio: String(invoice.folio_number),
      Fecha: localTime(invoice.date),
      Sello: invoice.stamp.signature,
      FormaPago: invoice.payment_form,
      NoCertificado: ISSUER.certificateNumber,
      Certificado: ISSUER_CERTIFICATE,
      SubTotal: money(subtotalCents),
      Descuento: discountCents > 0 ? money(discountCents) : undefined,
      Moneda: 'MXN',
      Total: money(totalCents),
      TipoDeComprobante: invoice.type,
      Exportacion: '01',
      MetodoPago: invoice.payment_method,
      LugarExpedicion: ISSUER.zip,
    },
    children,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}
