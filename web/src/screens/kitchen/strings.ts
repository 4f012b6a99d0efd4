import type { Strings } from '../../core/i18n';

export const strings: Strings<
  | 'title'
  | 'station'
  | 'stations'
  | 'kitchen'
  | 'bar'
  | 'empty'
  | 'counter'
  | 'table'
  | 'waiter'
  | 'waiting'
  | 'late'
  | 'sent'
  | 'preparing'
  | 'ready'
  | 'tapToStart'
  | 'tapWhenReady'
  | 'waitingForService'
  | 'order'
  | 'bump'
  | 'unreachable'
  | 'queue'
  | 'voided'
  | 'dismiss'
  | 'course'
  | 'seat'
  | 'eightySix'
  | 'eightySixFor'
  | 'soldOut'
  | 'backOn'
  | 'pickup'
  | 'delivery'
> = {
  en: {
    title: 'Kitchen: {station}',
    voided: 'Voided: {dish}, {where}. Do not make it.',
    dismiss: 'Got it',
    station: 'Station',
    stations: 'Stations',
    kitchen: 'Kitchen',
    bar: 'Bar',
    empty: 'Nothing waiting. New dishes appear here as they are sent.',
    counter: 'Counter',
    table: 'Table {name}',
    waiter: 'Waiter: {name}',
    waiting: 'Waiting {time}',
    late: 'Late',
    sent: 'New',
    preparing: 'Preparing',
    ready: 'Ready',
    tapToStart: 'Tap to start preparing',
    tapWhenReady: 'Tap when ready',
    waitingForService: 'Waiting for the waiter',
    order: 'Order {code}',
    bump: 'Done',
    unreachable: 'The server cannot be reached.',
    queue: 'Dishes waiting',
    course: 'Course {n}',
    seat: 'Seat {n}',
    eightySix: '86',
    eightySixFor: '86 {dish}',
    soldOut: "86'd: sold out",
    backOn: 'Back on',
    pickup: 'Pickup {time}',
    delivery: 'Delivery',
  },
  es: {
    voided: 'Anulado: {dish}, {where}. No lo prepares.',
    dismiss: 'Entendido',
    title: 'Cocina: {station}',
    station: 'Estación',
    stations: 'Estaciones',
    kitchen: 'Cocina',
    bar: 'Barra',
    empty: 'Nada en espera. Los platillos nuevos aparecen aquí al enviarse.',
    counter: 'Mostrador',
    table: 'Mesa {name}',
    waiter: 'Mesero: {name}',
    waiting: 'Esperando {time}',
    late: 'Retrasado',
    sent: 'Nuevo',
    preparing: 'Preparando',
    ready: 'Listo',
    tapToStart: 'Toca para empezar',
    tapWhenReady: 'Toca cuando esté listo',
    waitingForService: 'Esperando al mesero',
    order: 'Orden {code}',
    bump: 'Despachado',
    unreachable: 'No se puede contactar con el servidor.',
    queue: 'Platillos en espera',
    course: 'Tiempo {n}',
    seat: 'Comensal {n}',
    eightySix: 'Agotar',
    eightySixFor: 'Agotar {dish}',
    soldOut: 'Agotados',
    backOn: 'Volver a ofrecer',
    pickup: 'Recoge a las {time}',
    delivery: 'A domicilio',
  },
};
