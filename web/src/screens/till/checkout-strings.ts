import type { Strings } from '../../core/i18n';

/** Strings of the till's checkout panels: amount and tip, discount, payments and refunds, receipt, Z report. */
type Key =
  | 'amountToPay'
  | 'partialHint'
  | 'amountTooHigh'
  | 'tip'
  | 'noTip'
  | 'tipPercent'
  | 'tipAmount'
  | 'badAmount'
  | 'charging'
  | 'partPaid'
  | 'discount'
  | 'discountPercent'
  | 'discountAmount'
  | 'discountValue'
  | 'discountReason'
  | 'discountHint'
  | 'compBill'
  | 'discountNeedsReason'
  | 'discountEvenlyPercent'
  | 'payments'
  | 'noPayments'
  | 'method'
  | 'amount'
  | 'status'
  | 'paymentStatus_pending'
  | 'paymentStatus_settled'
  | 'paymentStatus_expired'
  | 'paymentStatus_refunded'
  | 'paymentStatus_partially_refunded'
  | 'paymentStatus_action_required'
  | 'paymentStatus_failed'
  | 'paymentStatus_canceled'
  | 'refund'
  | 'refundOf'
  | 'refundAmount'
  | 'refundAmountHint'
  | 'refundReason'
  | 'refundAction'
  | 'refundDone'
  | 'refundSentToProvider'
  | 'guestLightning'
  | 'withdraw'
  | 'withdrawOf'
  | 'withdrawn'
  | 'refundInvoice'
  | 'refundInvoiceHint'
  | 'refundDrawer'
  | 'drawerOf'
  | 'cancel'
  | 'printReceipt'
  | 'showReceipt'
  | 'receiptQueued'
  | 'noPrinter'
  | 'downloadReceipt'
  | 'receiptOf'
  | 'shiftTitle'
  | 'noShift'
  | 'orders'
  | 'bills'
  | 'gross'
  | 'discounts'
  | 'refunds'
  | 'net'
  | 'tips'
  | 'paymentsTotal'
  | 'expectedCash'
  | 'lightningSats';

export const checkoutStrings: Strings<Key> = {
  en: {
    amountToPay: 'Amount to pay',
    partialHint: 'Less than the balance takes part of it; the rest stays on the bill.',
    amountTooHigh: 'More than the balance of the bill.',
    tip: 'Tip',
    noTip: 'No tip',
    tipPercent: '{percent} %',
    tipAmount: 'Tip amount',
    badAmount: 'Type an amount such as 12.50.',
    charging: 'To charge: {amount} + tip {tip} = {total}',
    partPaid: 'Part paid. {balance} still due on {name}.',
    discount: 'Discount on the next bill',
    discountPercent: 'Percent',
    discountAmount: 'Amount',
    discountValue: 'Discount',
    discountReason: 'Reason for the discount',
    discountHint: 'Empty: no discount. It applies to the bill made next.',
    compBill: 'Comp the bill',
    discountNeedsReason: 'A discount needs a reason.',
    discountEvenlyPercent: 'An even split takes only a percent discount, on each part.',
    payments: 'Payments of {name}',
    noPayments: 'No payments yet.',
    method: 'Method',
    amount: 'Amount',
    status: 'Status',
    paymentStatus_pending: 'Pending',
    paymentStatus_settled: 'Settled',
    paymentStatus_expired: 'Expired',
    paymentStatus_refunded: 'Refunded',
    paymentStatus_partially_refunded: 'Partly refunded',
    paymentStatus_action_required: 'Check the terminal',
    paymentStatus_failed: 'Failed',
    paymentStatus_canceled: 'Canceled',
    refund: 'Refund',
    refundOf: 'Refund the {method} payment of {amount}',
    refundAmount: 'Amount to refund',
    refundAmountHint: 'Empty: all that is left of the payment (tips are not refunded).',
    refundReason: 'Reason for the refund',
    refundAction: 'Refund',
    refundDone: 'Refund recorded.',
    refundSentToProvider: 'Refund sent to Mercado Pago: in process.',
    guestLightning: 'Lightning (guest)',
    withdraw: 'Cancel',
    withdrawOf: 'Cancel the Lightning payment request of {amount}',
    withdrawn: 'Payment request canceled: the balance can be charged again.',
    refundInvoice: "Customer's Lightning payment request (BOLT11)",
    refundInvoiceHint: "The customer's wallet makes it for the amount refunded; the node pays it.",
    refundDrawer: 'Drawer the cash comes out of',
    drawerOf: "{name}'s drawer",
    cancel: 'Cancel',
    printReceipt: 'Print the receipt',
    showReceipt: 'Show the receipt',
    receiptQueued: 'The receipt is on its way to the printer.',
    noPrinter: 'No receipt printer is set up: show the receipt or download it.',
    downloadReceipt: 'Download the receipt',
    receiptOf: 'Receipt of {name}',
    shiftTitle: 'Your shift: Z report so far',
    noShift: 'You have no open shift.',
    orders: 'Orders',
    bills: 'Bills',
    gross: 'Gross sales',
    discounts: 'Discounts',
    refunds: 'Refunds',
    net: 'Net sales',
    tips: 'Tips',
    paymentsTotal: 'Payments taken',
    expectedCash: 'Expected cash',
    lightningSats: 'Lightning',
  },
  es: {
    amountToPay: 'Monto a cobrar',
    partialHint: 'Menos que el saldo cobra una parte; el resto queda en la cuenta.',
    amountTooHigh: 'Más que el saldo de la cuenta.',
    tip: 'Propina',
    noTip: 'Sin propina',
    tipPercent: '{percent} %',
    tipAmount: 'Monto de la propina',
    badAmount: 'Escribe un monto como 12.50.',
    charging: 'A cobrar: {amount} + propina {tip} = {total}',
    partPaid: 'Parte cobrada. Quedan {balance} pendientes en {name}.',
    discount: 'Descuento en la próxima cuenta',
    discountPercent: 'Porcentaje',
    discountAmount: 'Monto',
    discountValue: 'Descuento',
    discountReason: 'Motivo del descuento',
    discountHint: 'Vacío: sin descuento. Se aplica a la próxima cuenta que hagas.',
    compBill: 'Cortesía de la cuenta',
    discountNeedsReason: 'Un descuento necesita un motivo.',
    discountEvenlyPercent: 'Dividir a partes iguales solo admite un descuento en porcentaje, en cada parte.',
    payments: 'Pagos de {name}',
    noPayments: 'Aún no hay pagos.',
    method: 'Forma de pago',
    amount: 'Monto',
    status: 'Estado',
    paymentStatus_pending: 'Pendiente',
    paymentStatus_settled: 'Cobrado',
    paymentStatus_expired: 'Vencido',
    paymentStatus_refunded: 'Reembolsado',
    paymentStatus_partially_refunded: 'Reembolsado en parte',
    paymentStatus_action_required: 'Revisar la terminal',
    paymentStatus_failed: 'Fallido',
    paymentStatus_canceled: 'Cancelado',
    refund: 'Reembolsar',
    refundOf: 'Reembolsar el pago con {method} de {amount}',
    refundAmount: 'Monto a reembolsar',
    refundAmountHint: 'Vacío: todo lo que queda del pago (las propinas no se reembolsan).',
    refundReason: 'Motivo del reembolso',
    refundAction: 'Reembolsar',
    refundDone: 'Reembolso registrado.',
    refundSentToProvider: 'Devolución enviada a Mercado Pago: en proceso.',
    guestLightning: 'Lightning (comensal)',
    withdraw: 'Cancelar',
    withdrawOf: 'Cancelar la solicitud de pago Lightning de {amount}',
    withdrawn: 'Solicitud de pago cancelada: el saldo se puede cobrar de nuevo.',
    refundInvoice: 'Solicitud de pago Lightning del cliente (BOLT11)',
    refundInvoiceHint: 'La billetera del cliente la crea por el monto a reembolsar; el nodo la paga.',
    refundDrawer: 'Caja de la que sale el efectivo',
    drawerOf: 'Caja de {name}',
    cancel: 'Cancelar',
    printReceipt: 'Imprimir el ticket',
    showReceipt: 'Ver el ticket',
    receiptQueued: 'El ticket va camino a la impresora.',
    noPrinter: 'No hay impresora de tickets configurada: muestra el ticket o descárgalo.',
    downloadReceipt: 'Descargar el ticket',
    receiptOf: 'Ticket de {name}',
    shiftTitle: 'Tu turno: corte de caja hasta ahora',
    noShift: 'No tienes un turno abierto.',
    orders: 'Pedidos',
    bills: 'Cuentas',
    gross: 'Ventas brutas',
    discounts: 'Descuentos',
    refunds: 'Reembolsos',
    net: 'Ventas netas',
    tips: 'Propinas',
    paymentsTotal: 'Pagos cobrados',
    expectedCash: 'Efectivo esperado',
    lightningSats: 'Lightning',
  },
};
