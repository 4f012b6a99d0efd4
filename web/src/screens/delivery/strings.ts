import type { Strings } from '../../core/i18n';

export const strings: Strings<
  | 'title'
  | 'platforms'
  | 'noPlatforms'
  | 'online'
  | 'offline'
  | 'pausedUntil'
  | 'failing'
  | 'pause'
  | 'resume'
  | 'orders'
  | 'empty'
  | 'held'
  | 'awaiting'
  | 'accepted'
  | 'ready'
  | 'picked_up'
  | 'delivered'
  | 'denied'
  | 'cancelled'
  | 'pickupAt'
  | 'noPickup'
  | 'timeLeft'
  | 'tooLate'
  | 'accept'
  | 'deny'
  | 'markReady'
  | 'orderOf'
  | 'plates'
  | 'noPlates'
  | 'unmappedTitle'
  | 'unknown_dish'
  | 'unknown_option'
  | 'unavailable'
  | 'dishFor'
  | 'chooseDish'
  | 'map'
  | 'chooseOne'
  | 'denyTitle'
  | 'reason'
  | 'reasonSoldOut'
  | 'reasonFull'
  | 'reasonClosing'
  | 'confirmDeny'
  | 'back'
  | 'askCashier'
  | 'unreachable'
> = {
  en: {
    title: 'Delivery orders',
    platforms: 'Delivery apps',
    noPlatforms: 'No delivery app is set up.',
    online: 'Online',
    offline: 'Offline',
    pausedUntil: 'Paused until {time}',
    failing: 'Error: {message}',
    pause: 'Pause 20 min',
    resume: 'Resume',
    orders: "Today's delivery orders",
    empty: 'No delivery orders today yet. They appear here as they arrive.',
    held: 'Items to match',
    awaiting: 'Waiting for an answer',
    accepted: 'Accepted',
    ready: 'Ready for pickup',
    picked_up: 'Picked up',
    delivered: 'Delivered',
    denied: 'Denied',
    cancelled: 'Cancelled',
    pickupAt: 'Pickup {time}',
    noPickup: 'No pickup time',
    timeLeft: '{time} left to answer',
    tooLate: 'Time to answer is up',
    accept: 'Accept',
    deny: 'Deny',
    markReady: 'Mark ready',
    orderOf: '{platform} {code}',
    plates: 'Plates',
    noPlates: 'No plates yet',
    unmappedTitle: 'Not on the menu: choose the dish each one is',
    unknown_dish: 'not on the menu',
    unknown_option: 'an option is not on the menu',
    unavailable: 'sold out',
    dishFor: 'Dish for {item}',
    chooseDish: 'Choose a dish…',
    map: 'Match dishes',
    chooseOne: 'Choose a dish for at least one item.',
    denyTitle: 'Deny order {code}',
    reason: 'Reason (the platform tells the customer)',
    reasonSoldOut: 'A dish is sold out',
    reasonFull: 'The kitchen is full',
    reasonClosing: 'We are about to close',
    confirmDeny: 'Deny order',
    back: 'Back',
    askCashier: 'Someone who takes orders accepts or denies it.',
    unreachable: 'The server cannot be reached.',
  },
  es: {
    title: 'Pedidos a domicilio',
    platforms: 'Plataformas de entrega',
    noPlatforms: 'No hay plataformas de entrega configuradas.',
    online: 'En línea',
    offline: 'Fuera de línea',
    pausedUntil: 'En pausa hasta las {time}',
    failing: 'Error: {message}',
    pause: 'Pausar 20 min',
    resume: 'Reanudar',
    orders: 'Pedidos a domicilio de hoy',
    empty: 'Aún no hay pedidos a domicilio hoy. Aparecen aquí al llegar.',
    held: 'Platillos por identificar',
    awaiting: 'Espera respuesta',
    accepted: 'Aceptado',
    ready: 'Listo para recoger',
    picked_up: 'Recogido',
    delivered: 'Entregado',
    denied: 'Rechazado',
    cancelled: 'Cancelado',
    pickupAt: 'Recoge a las {time}',
    noPickup: 'Sin hora de recogida',
    timeLeft: 'Quedan {time} para responder',
    tooLate: 'Se acabó el tiempo para responder',
    accept: 'Aceptar',
    deny: 'Rechazar',
    markReady: 'Marcar listo',
    orderOf: '{platform} {code}',
    plates: 'Platillos',
    noPlates: 'Aún sin platillos',
    unmappedTitle: 'No están en el menú: elige qué platillo es cada uno',
    unknown_dish: 'no está en el menú',
    unknown_option: 'una opción no está en el menú',
    unavailable: 'agotado',
    dishFor: 'Platillo para {item}',
    chooseDish: 'Elige un platillo…',
    map: 'Asignar platillos',
    chooseOne: 'Elige un platillo para al menos uno.',
    denyTitle: 'Rechazar pedido {code}',
    reason: 'Motivo (la plataforma se lo dice al cliente)',
    reasonSoldOut: 'Se acabó un platillo',
    reasonFull: 'La cocina está llena',
    reasonClosing: 'Estamos por cerrar',
    confirmDeny: 'Rechazar pedido',
    back: 'Volver',
    askCashier: 'Quien toma órdenes lo acepta o lo rechaza.',
    unreachable: 'No se puede contactar con el servidor.',
  },
};
