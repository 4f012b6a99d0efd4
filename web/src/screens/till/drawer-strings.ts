import type { Strings } from '../../core/i18n';

/** Strings of the cash drawer in the till's shift panel: opening float, cash in and cash out (issue 35). */
type Key =
  | 'openingCash'
  | 'openShift'
  | 'opening'
  | 'badAmount'
  | 'movementsTitle'
  | 'amount'
  | 'reason'
  | 'reasonNeeded'
  | 'cashIn'
  | 'cashOut'
  | 'recording'
  | 'movements';

export const drawerStrings: Strings<Key> = {
  en: {
    openingCash: 'Opening float in the drawer',
    openShift: 'Open shift',
    opening: 'Opening…',
    badAmount: 'Type an amount such as 250.00.',
    movementsTitle: 'Cash in and out of the drawer',
    amount: 'Amount',
    reason: 'Reason',
    reasonNeeded: 'Say why the cash goes in or out.',
    cashIn: 'Cash in',
    cashOut: 'Cash out',
    recording: 'Recording…',
    movements: 'Cash movements of this shift',
  },
  es: {
    openingCash: 'Fondo de caja inicial',
    openShift: 'Abrir turno',
    opening: 'Abriendo…',
    badAmount: 'Escribe un importe como 250.00.',
    movementsTitle: 'Entradas y salidas de efectivo',
    amount: 'Importe',
    reason: 'Motivo',
    reasonNeeded: 'Indica por qué entra o sale el efectivo.',
    cashIn: 'Entrada de efectivo',
    cashOut: 'Salida de efectivo',
    recording: 'Registrando…',
    movements: 'Movimientos de efectivo del turno',
  },
};
