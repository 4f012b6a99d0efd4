import type { Strings } from '../../core/i18n';

export const strings: Strings<
  | 'title'
  | 'table'
  | 'free'
  | 'occupied'
  | 'paid'
  | 'reserved'
  | 'loading'
  | 'noTables'
  | 'otherTables'
  | 'opening'
  | 'unreachable'
  | 'forbidden'
  | 'summary'
  | 'waiter'
  | 'orderCode'
  | 'seated'
  | 'guests'
  | 'ready'
  | 'openTitle'
  | 'guestsLabel'
  | 'openTable'
  | 'cancel'
  | 'move'
  | 'merge'
  | 'moveTitle'
  | 'mergeTitle'
  | 'noFreeTables'
  | 'noOtherTables'
  | 'moved'
  | 'merged'
  | 'chooseTable'
> = {
  en: {
    title: 'Floor',
    table: 'Table',
    free: 'Free',
    occupied: 'Occupied',
    paid: 'Paid',
    reserved: 'Reserved',
    loading: 'Loading the floor…',
    noTables: 'No tables yet. A manager adds spaces and tables.',
    otherTables: 'Other tables',
    opening: 'Opening table {table}…',
    unreachable: 'The server cannot be reached.',
    forbidden: 'Your role may not open orders. Ask a manager.',
    summary: '{free} free, {occupied} occupied',
    waiter: 'Waiter: {name}',
    orderCode: 'Order {code}',
    seated: 'Seated {time} ago',
    guests: '{n} guests',
    ready: '{n} ready',
    openTitle: 'Open table {table}',
    guestsLabel: 'Guests (optional)',
    openTable: 'Open table',
    cancel: 'Cancel',
    move: 'Move',
    merge: 'Merge',
    moveTitle: 'Move table {table} to a free table',
    mergeTitle: 'Merge another table into table {table}',
    noFreeTables: 'No table is free.',
    noOtherTables: 'No other table is occupied.',
    moved: 'Table {from} moved to table {to}.',
    merged: 'Table {from} merged into table {to}.',
    chooseTable: 'Table {table}',
  },
  es: {
    title: 'Sala',
    table: 'Mesa',
    free: 'Libre',
    occupied: 'Ocupada',
    paid: 'Pagada',
    reserved: 'Reservada',
    loading: 'Cargando la sala…',
    noTables: 'Aún no hay mesas. Un gerente agrega espacios y mesas.',
    otherTables: 'Otras mesas',
    opening: 'Abriendo la mesa {table}…',
    unreachable: 'No se puede contactar con el servidor.',
    forbidden: 'Tu rol no permite abrir comandas. Pide ayuda a un gerente.',
    summary: '{free} libres, {occupied} ocupadas',
    waiter: 'Mesero: {name}',
    orderCode: 'Orden {code}',
    seated: 'Sentados hace {time}',
    guests: '{n} comensales',
    ready: '{n} listos',
    openTitle: 'Abrir la mesa {table}',
    guestsLabel: 'Comensales (opcional)',
    openTable: 'Abrir mesa',
    cancel: 'Cancelar',
    move: 'Cambiar',
    merge: 'Juntar',
    moveTitle: 'Cambiar la mesa {table} a una mesa libre',
    mergeTitle: 'Juntar otra mesa con la mesa {table}',
    noFreeTables: 'No hay mesas libres.',
    noOtherTables: 'No hay otra mesa ocupada.',
    moved: 'La mesa {from} pasó a la mesa {to}.',
    merged: 'La mesa {from} se juntó con la mesa {to}.',
    chooseTable: 'Mesa {table}',
  },
};
