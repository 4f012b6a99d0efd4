import type { Strings } from '../core/i18n';

/**
 * The guest's page speaks to a customer ("usted"), as the paper check does; es-MX or English by the
 * phone's language. A Lightning invoice is a "solicitud de pago", as at the till: in Mexico a
 * "factura" is the tax invoice (CFDI).
 */
export const guestStrings: Strings<
  | 'pageTitle'
  | 'offline'
  | 'loading'
  | 'unreachable'
  | 'linkInvalid'
  | 'tooManyRequests'
  | 'tryAgain'
  | 'table'
  | 'servedBy'
  | 'seat'
  | 'plates'
  | 'subtotal'
  | 'discounts'
  | 'taxIncluded'
  | 'total'
  | 'paid'
  | 'balance'
  | 'alreadyPaid'
  | 'canceled'
  | 'inProgress'
  | 'tip'
  | 'noTip'
  | 'tipPercent'
  | 'otherTip'
  | 'tipAmount'
  | 'tipTooHigh'
  | 'badAmount'
  | 'payAll'
  | 'payMyPart'
  | 'myPart'
  | 'howToSplit'
  | 'splitEvenly'
  | 'bySeat'
  | 'otherAmount'
  | 'splitOf'
  | 'people'
  | 'fewerPeople'
  | 'morePeople'
  | 'eachPays'
  | 'lastPays'
  | 'chooseSeat'
  | 'seatHint'
  | 'yourTip'
  | 'partTooHigh'
  | 'payAmount'
  | 'toPay'
  | 'creatingInvoice'
  | 'qrAlt'
  | 'sats'
  | 'openWallet'
  | 'copy'
  | 'copied'
  | 'invoiceText'
  | 'waiting'
  | 'invoiceExpired'
  | 'newInvoice'
  | 'back'
  | 'paidThanks'
  | 'seeReceipt'
  | 'receipt'
  | 'noLightning'
  | 'amountExceeds'
> = {
  en: {
    pageTitle: 'Your bill',
    offline: 'No connection. This page updates itself as soon as it is back.',
    loading: 'Loading your bill…',
    unreachable: 'The restaurant cannot be reached. Check your connection and try again.',
    linkInvalid: 'This link is no longer valid',
    tooManyRequests: 'Too many requests: wait a moment and try again.',
    tryAgain: 'Try again',
    table: 'Table {name}',
    servedBy: 'Served by {name}',
    seat: 'Seat {seat}',
    plates: 'Your plates',
    subtotal: 'Subtotal',
    discounts: 'Discounts',
    taxIncluded: 'VAT included',
    total: 'Total',
    paid: 'Paid',
    balance: 'Balance',
    alreadyPaid: 'This bill is already paid',
    canceled: 'This bill was canceled',
    inProgress: 'Someone at your table is paying {amount} right now.',
    tip: 'Tip',
    noTip: 'No tip',
    tipPercent: '{percent} %',
    otherTip: 'Other',
    tipAmount: 'Tip amount',
    tipTooHigh: 'The tip can be at most {percent} % of what you pay ({amount}).',
    badAmount: 'Type an amount such as 12.50.',
    payAll: 'Pay all with Lightning',
    payMyPart: 'Pay my part',
    myPart: 'How much are you paying?',
    howToSplit: 'How to split the bill',
    splitEvenly: 'Split evenly',
    bySeat: "One seat's plates",
    otherAmount: 'Another amount',
    splitOf: 'What is left to pay, {amount}, split among:',
    people: '{n} people',
    fewerPeople: 'One person fewer',
    morePeople: 'One person more',
    eachPays: 'Each pays {amount}',
    lastPays: 'The last one to pay pays the rest, {amount}, with "Pay all".',
    chooseSeat: 'Whose plates are you paying?',
    seatHint: "The seat's plates with their share of the discount and tax, as the bill adds them up.",
    yourTip: 'Your tip',
    partTooHigh: 'At most {amount}, what is left to pay.',
    payAmount: 'Pay {amount} with Lightning',
    toPay: 'To pay: {amount} + tip {tip} = {total}',
    creatingInvoice: 'Creating the Lightning invoice…',
    qrAlt: 'QR code of the Lightning invoice',
    sats: '{sats} sats',
    openWallet: 'Open in my wallet',
    copy: 'Copy the invoice',
    copied: 'Copied',
    invoiceText: 'Lightning invoice',
    waiting: 'Waiting for your payment…',
    invoiceExpired: 'The invoice expired before it was paid.',
    newInvoice: 'New invoice',
    back: 'Back',
    paidThanks: 'Paid, thank you!',
    seeReceipt: 'See the receipt',
    receipt: 'Receipt',
    noLightning: 'Lightning payments are not available right now. Please ask your waiter.',
    amountExceeds: 'That is more than is left to pay: someone else may have just paid.',
  },
  es: {
    pageTitle: 'Su cuenta',
    offline: 'Sin conexión. Esta página se actualiza sola en cuanto vuelva.',
    loading: 'Cargando su cuenta…',
    unreachable: 'No se puede contactar al restaurante. Revise su conexión e intente de nuevo.',
    linkInvalid: 'Este enlace ya no es válido',
    tooManyRequests: 'Demasiadas solicitudes: espere un momento e intente de nuevo.',
    tryAgain: 'Intentar de nuevo',
    table: 'Mesa {name}',
    servedBy: 'Le atendió {name}',
    seat: 'Comensal {seat}',
    plates: 'Sus platillos',
    subtotal: 'Subtotal',
    discounts: 'Descuentos',
    taxIncluded: 'IVA incluido',
    total: 'Total',
    paid: 'Pagado',
    balance: 'Saldo',
    alreadyPaid: 'Esta cuenta ya está pagada',
    canceled: 'Esta cuenta fue cancelada',
    inProgress: 'Alguien de su mesa está pagando {amount} en este momento.',
    tip: 'Propina',
    noTip: 'Sin propina',
    tipPercent: '{percent} %',
    otherTip: 'Otra',
    tipAmount: 'Monto de la propina',
    tipTooHigh: 'La propina puede ser de hasta {percent} % de lo que paga ({amount}).',
    badAmount: 'Escriba un monto como 12.50.',
    payAll: 'Pagar todo con Lightning',
    payMyPart: 'Pagar mi parte',
    myPart: '¿Cuánto va a pagar?',
    howToSplit: 'Cómo dividir la cuenta',
    splitEvenly: 'Partes iguales',
    bySeat: 'Lo de un comensal',
    otherAmount: 'Otro monto',
    splitOf: 'Lo que falta por pagar, {amount}, dividido entre:',
    people: '{n} personas',
    fewerPeople: 'Una persona menos',
    morePeople: 'Una persona más',
    eachPays: 'Cada quien paga {amount}',
    lastPays: 'Quien pague al final paga el resto, {amount}, con «Pagar todo».',
    chooseSeat: '¿De qué comensal paga los platillos?',
    seatHint: 'Los platillos del comensal con su parte del descuento y del IVA, como suma la cuenta.',
    yourTip: 'Su propina',
    partTooHigh: 'Hasta {amount}, lo que falta por pagar.',
    payAmount: 'Pagar {amount} con Lightning',
    toPay: 'A pagar: {amount} + propina {tip} = {total}',
    creatingInvoice: 'Creando la solicitud de pago…',
    qrAlt: 'Código QR de la solicitud de pago Lightning',
    sats: '{sats} sats',
    openWallet: 'Abrir en mi billetera',
    copy: 'Copiar la solicitud de pago',
    copied: 'Copiado',
    invoiceText: 'Solicitud de pago Lightning',
    waiting: 'Esperando su pago…',
    invoiceExpired: 'La solicitud de pago venció sin pagarse.',
    newInvoice: 'Nueva solicitud de pago',
    back: 'Volver',
    paidThanks: 'Pagado, ¡gracias!',
    seeReceipt: 'Ver el ticket',
    receipt: 'Ticket',
    noLightning: 'Los pagos con Lightning no están disponibles por ahora. Pregunte a su mesero.',
    amountExceeds: 'Es más de lo que falta por pagar: quizá alguien acaba de pagar.',
  },
};
