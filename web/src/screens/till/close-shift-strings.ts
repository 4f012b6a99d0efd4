import type { Strings } from '../../core/i18n';

/** Strings of the till's "Close my shift" form (issue 29). */
type Key =
  | 'closeTitle'
  | 'countedCash'
  | 'closeButton'
  | 'closing'
  | 'badAmount'
  | 'blindHint'
  | 'closedTitle'
  | 'expectedCash'
  | 'difference'
  | 'expectedHidden';

export const closeShiftStrings: Strings<Key> = {
  en: {
    closeTitle: 'Close my shift',
    countedCash: 'Cash counted in the drawer',
    closeButton: 'Close my shift',
    closing: 'Closing…',
    badAmount: 'Type an amount such as 250.00.',
    blindHint: 'Count the drawer first: the expected cash shows once you close.',
    closedTitle: 'Shift closed',
    expectedCash: 'Expected cash',
    difference: 'Difference',
    expectedHidden: 'Hidden until you count',
  },
  es: {
    closeTitle: 'Cerrar mi turno',
    countedCash: 'Efectivo contado en la caja',
    closeButton: 'Cerrar mi turno',
    closing: 'Cerrando…',
    badAmount: 'Escribe un importe como 250.00.',
    blindHint: 'Cuenta la caja primero: el efectivo esperado se muestra al cerrar.',
    closedTitle: 'Turno cerrado',
    expectedCash: 'Efectivo esperado',
    difference: 'Diferencia',
    expectedHidden: 'Oculto hasta que cuentes',
  },
};
