import type { Strings } from '../../core/i18n';

/** Strings of the till's card-terminal charge (Mercado Pago Point). */
type Key =
  | 'method'
  | 'terminal'
  | 'charge'
  | 'created'
  | 'atTerminal'
  | 'actionRequired'
  | 'cancelRequested'
  | 'cancel'
  | 'paidWith'
  | 'failed'
  | 'canceled'
  | 'retry'
  | 'otherMethod';

export const terminalStrings: Strings<Key> = {
  en: {
    method: 'Card terminal',
    terminal: 'Terminal',
    charge: 'Charge on the terminal: {amount}',
    created: 'Sending to the terminal…',
    atTerminal: 'Tap, insert or swipe the card on the terminal',
    actionRequired: 'Check the terminal',
    cancelRequested: 'Canceling: the terminal confirms it…',
    cancel: 'Cancel charge',
    paidWith: 'Paid with {brand} •••• {last4}, authorization {code}',
    failed: 'The charge did not go through',
    canceled: 'Charge canceled',
    retry: 'Try again',
    otherMethod: 'Another method',
  },
  es: {
    method: 'Terminal',
    terminal: 'Terminal',
    charge: 'Cobrar con terminal: {amount}',
    created: 'Enviando a la terminal…',
    atTerminal: 'Acerque, inserte o deslice la tarjeta en la terminal',
    actionRequired: 'Revisa la terminal',
    cancelRequested: 'Cancelando: la terminal lo confirma…',
    cancel: 'Cancelar cobro',
    paidWith: 'Pagado con {brand} •••• {last4}, autorización {code}',
    failed: 'El cobro no se realizó',
    canceled: 'Cobro cancelado',
    retry: 'Reintentar',
    otherMethod: 'Otro método',
  },
};
