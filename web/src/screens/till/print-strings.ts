import type { Strings } from '../../core/i18n';

/** Strings of the guest check and the reprint: apart from the checkout's, for a pending bill. */
export const printStrings: Strings<
  | 'guestCheckOf'
  | 'printGuestCheck'
  | 'showGuestCheck'
  | 'guestCheckQueued'
  | 'reprint'
  | 'guestLinkQrAlt'
  | 'guestLinkHint'
> = {
  en: {
    guestCheckOf: 'Guest check of {name}',
    printGuestCheck: 'Print the guest check',
    showGuestCheck: 'Show the guest check',
    guestCheckQueued: 'The guest check is on its way to the printer.',
    reprint: 'Reprint',
    guestLinkQrAlt: "QR code of the bill's guest page",
    guestLinkHint: 'Scan to see and pay the bill from your phone',
  },
  es: {
    guestCheckOf: 'Cuenta de {name}',
    printGuestCheck: 'Imprimir la cuenta',
    showGuestCheck: 'Ver la cuenta',
    guestCheckQueued: 'La cuenta va camino de la impresora.',
    reprint: 'Reimprimir',
    guestLinkQrAlt: 'Código QR de la página de la cuenta',
    guestLinkHint: 'Escanee para ver y pagar la cuenta desde su teléfono',
  },
};
