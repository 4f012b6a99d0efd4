import type { Strings } from '../../core/i18n';

export const strings: Strings<
  | 'title'
  | 'pairTitle'
  | 'pairHelp'
  | 'code'
  | 'connect'
  | 'welcome'
  | 'tillOf'
  | 'total'
  | 'paid'
  | 'balance'
  | 'scanToPay'
  | 'lightningAmount'
  | 'qrLabel'
  | 'thanks'
  | 'payOnTerminal'
  | 'checkTerminal'
  | 'terminalApproved'
  | 'terminalFailed'
  | 'unreachable'
  | 'logOut'
> = {
  en: {
    title: 'Customer display',
    pairTitle: 'Connect this display to a till',
    pairHelp: 'At the till, tap "Connect the customer display" and type the code it shows.',
    code: 'Code',
    connect: 'Connect',
    welcome: 'Welcome',
    tillOf: "{name}'s till",
    total: 'Total',
    paid: 'Paid',
    balance: 'Due',
    scanToPay: 'Scan to pay with Lightning',
    lightningAmount: '{amount} ({sats} sat)',
    qrLabel: 'Lightning invoice QR code',
    thanks: 'Thank you!',
    payOnTerminal: 'Please pay on the terminal',
    checkTerminal: 'Please check the terminal',
    terminalApproved: 'Payment approved. Thank you!',
    terminalFailed: 'The payment did not go through',
    unreachable: 'The server cannot be reached. Trying again…',
    logOut: 'Log out',
  },
  es: {
    title: 'Pantalla del cliente',
    pairTitle: 'Conectar esta pantalla a una caja',
    pairHelp: 'En la caja, toca "Conectar la pantalla del cliente" y escribe el código que muestra.',
    code: 'Código',
    connect: 'Conectar',
    welcome: 'Bienvenido',
    tillOf: 'Caja de {name}',
    total: 'Total',
    paid: 'Pagado',
    balance: 'Saldo',
    scanToPay: 'Escanee para pagar con Lightning',
    lightningAmount: '{amount} ({sats} sat)',
    qrLabel: 'Código QR de la factura Lightning',
    thanks: '¡Gracias!',
    payOnTerminal: 'Pague en la terminal',
    checkTerminal: 'Revise la terminal',
    terminalApproved: 'Pago aprobado. ¡Gracias!',
    terminalFailed: 'El pago no se realizó',
    unreachable: 'No se puede contactar con el servidor. Reintentando…',
    logOut: 'Salir',
  },
};
