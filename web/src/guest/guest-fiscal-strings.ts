import type { Strings } from '../core/i18n';

/** The guest page's e-invoice (factura): asked for by the guest, spoken to as "usted". */
export const guestFiscalStrings: Strings<
  | 'title'
  | 'preparing'
  | 'request'
  | 'selfInvoiceUntil'
  | 'invoiced'
  | 'alreadyInvoiced'
  | 'download'
  | 'inGlobal'
  | 'canceled'
  | 'unreachable'
> = {
  en: {
    title: 'Invoice (CFDI)',
    preparing: 'Your invoice will be available in a few seconds.',
    request: 'Request your invoice',
    selfInvoiceUntil: 'You can request it until {date}.',
    invoiced: 'Your invoice is ready. Folio fiscal {uuid}.',
    alreadyInvoiced:
      'This bill is already invoiced. Its files can be downloaded only on the phone that requested it.',
    download: 'Download',
    inGlobal:
      "This bill is already in the restaurant's invoice to the general public: it can no longer be invoiced.",
    canceled: 'This bill was canceled or refunded: it has no invoice.',
    unreachable: 'The restaurant cannot be reached. Try again.',
  },
  es: {
    title: 'Factura (CFDI)',
    preparing: 'Su factura estará disponible en unos segundos.',
    request: 'Solicitar factura',
    selfInvoiceUntil: 'Puede solicitarla hasta el {date}.',
    invoiced: 'Su factura está lista. Folio fiscal {uuid}.',
    alreadyInvoiced:
      'Esta cuenta ya está facturada. Sus archivos solo se pueden descargar en el teléfono con el que se solicitó.',
    download: 'Descargar',
    inGlobal:
      'Esta cuenta ya está en la factura al público en general del restaurante: ya no se puede facturar.',
    canceled: 'Esta cuenta se canceló o se reembolsó: no tiene factura.',
    unreachable: 'No se puede contactar al restaurante. Intente de nuevo.',
  },
};
