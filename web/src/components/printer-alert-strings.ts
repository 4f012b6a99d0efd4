import type { Strings } from '../core/i18n';

/** The banner of a printer that is not printing, on the kitchen and the till (issue 35). */
export const printerAlertStrings: Strings<'unreachable' | 'outOfPaper'> = {
  en: {
    unreachable: 'Printer “{name}” is off: tickets will print when it is back',
    outOfPaper: 'Printer “{name}” is out of paper: tickets will print once paper is in',
  },
  es: {
    unreachable: 'Impresora «{name}» sin conexión: los tickets se imprimirán al volver',
    outOfPaper: 'Impresora «{name}» sin papel: los tickets se imprimirán al poner papel',
  },
};
