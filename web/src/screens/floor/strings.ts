import type { Strings } from '../../core/i18n';

export const strings: Strings<
  | 'title'
  | 'table'
  | 'free'
  | 'occupied'
  | 'reserved'
  | 'loading'
  | 'noTables'
  | 'otherTables'
  | 'opening'
  | 'unreachable'
  | 'forbidden'
  | 'summary'
  | 'waiter'
  | 'seated'
  | 'guests'
  | 'ready'
> = {
  en: {
    title: 'Floor',
    table: 'Table',
    free: 'Free',
    occupied: 'Occupied',
    reserved: 'Reserved',
    loading: 'Loading the floor…',
    noTables: 'No tables yet. A manager adds spaces and tables.',
    otherTables: 'Other tables',
    opening: 'Opening table {table}…',
    unreachable: 'The server cannot be reached.',
    forbidden: 'Your role may not open orders. Ask a manager.',
    summary: '{free} free, {occupied} occupied',
    waiter: 'Waiter: {name}',
    seated: 'Seated {time} ago',
    guests: '{n} guests',
    ready: '{n} ready',
  },
  es: {
    title: 'Sala',
    table: 'Mesa',
    free: 'Libre',
    occupied: 'Ocupada',
    reserved: 'Reservada',
    loading: 'Cargando la sala…',
    noTables: 'Aún no hay mesas. Un gerente agrega espacios y mesas.',
    otherTables: 'Otras mesas',
    opening: 'Abriendo la mesa {table}…',
    unreachable: 'No se puede contactar con el servidor.',
    forbidden: 'Tu rol no permite abrir comandas. Pide ayuda a un gerente.',
    summary: '{free} libres, {occupied} ocupadas',
    waiter: 'Mesero: {name}',
    seated: 'Sentados hace {time}',
    guests: '{n} comensales',
    ready: '{n} listos',
  },
};
