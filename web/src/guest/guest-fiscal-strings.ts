import type { Strings } from '../core/i18n';

/** The guest page's e-invoice (factura): asked for by the guest, spoken to as "usted". */
export const guestFiscalStrings: Strings<
  | 'title'
  | 'preparing'
  | 'request'
  | 'selfInvoiceUntil'
  | 'invoiced'
  | 'download'
  | 'inGlobal'
  | 'unreachable'
> = {
  en: {
    title: 'Invoice (CFDI)',
    preparing: 'Your invoice will be available in a few seconds.',
    request: 'Request your invoice',
    selfInvoiceUntil: 'You can request it until {date}.',
    invoiced: 'Your invoice is ready. Folio fiscal {uuid}.',
    download: 'Download',
    inGlobal:
      "This bill is already in the restaurant's invoice to the general public: it can no longer be invoiced.",
    unreachable: 'The restaurant cannot be reached. Try again.',
  },
  es: {
    title: 'Factura (CFDI)',
    preparing: 'Su factura estará disponible en unos segundos.',
    request: 'Solicitar factura',
    selfInvoiceUntil: 'Puede solicitarla hasta el {date}.',
    invoiced: 'Su factura está lista. Folio fiscal {uuid}.',
    download: 'Descargar',
    inGlobal:
      'Esta cuenta ya está en la factura al público en general del restaurante: ya no se puede facturar.',
    unreachable: 'No se puede contactar al restaurante. Intente de nuevo.',
  },
};
