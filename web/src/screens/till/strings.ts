import type { Strings } from '../../core/i18n';

type Key =
  | 'unreachable'
  | 'openOrders'
  | 'noOpenOrders'
  | 'table'
  | 'counter'
  | 'waiter'
  | 'total'
  | 'paid'
  | 'due'
  | 'order'
  | 'orderCode'
  | 'counterOrder'
  | 'allOrders'
  | 'fullyPaid'
  | 'backToFloor'
  | 'closeOrder'
  | 'orderClosed'
  | 'dishes'
  | 'dish'
  | 'bill'
  | 'price'
  | 'onBill'
  | 'notBilled'
  | 'shared'
  | 'paidSoFar'
  | 'balance'
  | 'unbilled'
  | 'makeBills'
  | 'billWhole'
  | 'splitEvenly'
  | 'parts'
  | 'splitEvenlyAction'
  | 'splitByDishes'
  | 'billBySeat'
  | 'billOfSeat'
  | 'billBySeatPercent'
  | 'billChosen'
  | 'noBills'
  | 'statusPaid'
  | 'statusCanceled'
  | 'statusPending'
  | 'bills'
  | 'billNumber'
  | 'cancelBill'
  | 'payBill'
  | 'billDetails'
  | 'cash'
  | 'card'
  | 'lightning'
  | 'payTitle'
  | 'billPaid'
  | 'method'
  | 'charge'
  | 'cashTaken'
  | 'tendered'
  | 'change'
  | 'notEnough'
  | 'takeCash'
  | 'needsShift'
  | 'openingCash'
  | 'openShiftAndPay'
  | 'noRate'
  | 'nodeUnavailable'
  | 'tryAgain'
  | 'creatingInvoice'
  | 'invoiceExpired'
  | 'newInvoice'
  | 'qrAlt'
  | 'sats'
  | 'waitingForPayment'
  | 'invoiceText'
  | 'lightningPaid';

export const strings: Strings<Key> = {
  en: {
    unreachable: 'The server cannot be reached.',
    openOrders: 'Till: open orders',
    noOpenOrders: 'No open orders.',
    table: 'Table {name}',
    counter: 'Counter',
    waiter: 'Waiter: {name}',
    total: 'Total',
    paid: 'Paid',
    due: 'Due',
    order: 'Order',
    orderCode: 'Order {code}',
    counterOrder: 'Counter order',
    allOrders: 'All open orders',
    fullyPaid: 'This order is fully paid.',
    backToFloor: 'Back to the floor',
    closeOrder: 'Close the order and free the table',
    orderClosed: 'Order closed: the table is free.',
    dishes: 'Dishes',
    dish: 'Dish',
    bill: 'Bill',
    price: 'Price',
    onBill: 'On a bill',
    notBilled: 'Not billed',
    shared: 'Split by amount',
    paidSoFar: 'Paid',
    balance: 'Balance',
    unbilled: 'Not billed yet',
    makeBills: 'Make bills',
    billWhole: 'One bill for everything ({amount})',
    splitEvenly: 'Split evenly',
    parts: 'Number of parts',
    splitEvenlyAction: 'Split evenly',
    splitByDishes: 'Split by dishes',
    billBySeat: 'One bill per seat',
    billBySeatPercent: 'Bills by seat take only a percent discount, on each bill.',
    billChosen: 'Bill the chosen dishes ({count})',
    noBills: 'No bills yet.',
    statusPaid: 'Paid',
    statusCanceled: 'Canceled',
    statusPending: 'Pending',
    bills: 'Bills',
    billNumber: 'Bill {n}',
    billOfSeat: 'Seat {n}',
    cancelBill: 'Cancel {name}',
    payBill: 'Pay {name}',
    billDetails: 'Payments and receipt of {name}',
    cash: 'Cash',
    card: 'Card',
    lightning: 'Lightning',
    payTitle: 'Pay {name}',
    billPaid: '{name} is paid.',
    method: 'Payment method',
    charge: 'Charge {amount} by {method}',
    cashTaken: 'Cash taken. Change to give: {change}',
    tendered: 'Cash received',
    change: 'Change: {amount}',
    notEnough: 'Not enough to cover the bill.',
    takeCash: 'Take cash',
    needsShift: 'Cash needs an open shift. Count the drawer and open one.',
    openingCash: 'Cash in the drawer',
    openShiftAndPay: 'Open shift and take cash',
    noRate: 'Lightning is unavailable: there is no current exchange rate. Take another payment method.',
    nodeUnavailable: 'Lightning is unavailable: take another payment method. ({message})',
    tryAgain: 'Try again',
    creatingInvoice: 'Creating the invoice…',
    invoiceExpired: 'The invoice expired before it was paid.',
    newInvoice: 'New invoice',
    qrAlt: 'QR code of the Lightning invoice',
    sats: '{sats} sats',
    waitingForPayment: 'Waiting for the payment…',
    invoiceText: 'Invoice (BOLT11)',
    lightningPaid: 'Paid with Lightning',
  },
  es: {
    unreachable: 'No se puede contactar con el servidor.',
    openOrders: 'Caja: pedidos abiertos',
    noOpenOrders: 'No hay pedidos abiertos.',
    table: 'Mesa {name}',
    counter: 'Mostrador',
    waiter: 'Mesero: {name}',
    total: 'Total',
    paid: 'Pagado',
    due: 'Pendiente',
    order: 'Pedido',
    orderCode: 'Orden {code}',
    counterOrder: 'Pedido de mostrador',
    allOrders: 'Todos los pedidos abiertos',
    fullyPaid: 'Este pedido está pagado por completo.',
    backToFloor: 'Volver a la sala',
    closeOrder: 'Cerrar el pedido y liberar la mesa',
    orderClosed: 'Pedido cerrado: la mesa está libre.',
    dishes: 'Platillos',
    dish: 'Platillo',
    bill: 'Cuenta',
    price: 'Precio',
    onBill: 'En una cuenta',
    notBilled: 'Por cobrar',
    shared: 'Dividido por monto',
    paidSoFar: 'Pagado',
    balance: 'Saldo',
    unbilled: 'Aún por cobrar',
    makeBills: 'Hacer cuentas',
    billWhole: 'Una cuenta por todo ({amount})',
    splitEvenly: 'Dividir a partes iguales',
    parts: 'Número de partes',
    splitEvenlyAction: 'Dividir',
    splitByDishes: 'Dividir por platillos',
    billBySeat: 'Una cuenta por comensal',
    billBySeatPercent: 'Las cuentas por comensal solo admiten un descuento en porcentaje, en cada cuenta.',
    billChosen: 'Cuenta con los platillos elegidos ({count})',
    noBills: 'Aún no hay cuentas.',
    statusPaid: 'Pagada',
    statusCanceled: 'Anulada',
    statusPending: 'Pendiente',
    bills: 'Cuentas',
    billNumber: 'Cuenta {n}',
    billOfSeat: 'Comensal {n}',
    cancelBill: 'Anular {name}',
    payBill: 'Cobrar {name}',
    billDetails: 'Pagos y ticket de {name}',
    cash: 'Efectivo',
    card: 'Tarjeta',
    lightning: 'Lightning',
    payTitle: 'Cobrar {name}',
    billPaid: '{name} está pagada.',
    method: 'Forma de pago',
    charge: 'Cobrar {amount} con {method}',
    cashTaken: 'Efectivo cobrado. Cambio a devolver: {change}',
    tendered: 'Efectivo recibido',
    change: 'Cambio: {amount}',
    notEnough: 'No alcanza para la cuenta.',
    takeCash: 'Cobrar en efectivo',
    needsShift: 'El efectivo necesita un turno abierto. Cuenta la caja y abre uno.',
    openingCash: 'Efectivo en la caja',
    openShiftAndPay: 'Abrir turno y cobrar',
    noRate: 'Lightning no está disponible: no hay tipo de cambio actual. Usa otra forma de pago.',
    nodeUnavailable: 'Lightning no está disponible: cobra con otra forma de pago. ({message})',
    tryAgain: 'Reintentar',
    creatingInvoice: 'Creando la solicitud de pago…',
    invoiceExpired: 'La solicitud de pago venció sin pagarse.',
    newInvoice: 'Nueva solicitud de pago',
    qrAlt: 'Código QR de la solicitud de pago Lightning',
    sats: '{sats} sats',
    waitingForPayment: 'Esperando el pago…',
    invoiceText: 'Solicitud de pago (BOLT11)',
    lightningPaid: 'Pagado con Lightning',
  },
};
