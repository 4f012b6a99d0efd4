import type { Ok } from '../../api/client';
import type { Strings } from '../../core/i18n';

/** The order screen's types and strings, shared by the screen and its panels. */
type Complete = Ok<'/orders/{id}/complete', 'get'>;

export type { Complete };
export type Order = Complete['order'];
export type OrderDish = Complete['dishes'][number];
export type DishStatus = OrderDish['status'];
export type MenuCategory = Ok<'/menu', 'get'>['categories'][number];
export type MenuDish = MenuCategory['dishes'][number];
export type ModifierGroup = MenuDish['modifier_groups'][number];

/** What the options panel answers: plates of one dish to add, alike, or a pending plate's new choice. */
export type PlateChoice = {
  modifiers: string[];
  quantity: number;
  seat: number | null;
  course: number;
  notes: string;
};

export const cents = (amount: number) => Math.round(amount * 100);

type Keys =
  | 'order'
  | 'orderCode'
  | 'table'
  | 'counter'
  | 'total'
  | 'menu'
  | 'ordered'
  | 'noDishes'
  | 'emptyMenu'
  | 'note'
  | 'noteHelp'
  | 'addPrefix'
  | 'adding'
  | 'added'
  | 'send'
  | 'sentCount'
  | 'sending'
  | 'nothingToSend'
  | 'remove'
  | 'serve'
  | 'bill'
  | 'loading'
  | 'unreachable'
  | 'forbidden'
  | 'deleted'
  | 'closed'
  | 'status'
  | 'options'
  | 'optionsFor'
  | 'required'
  | 'optional'
  | 'chooseOne'
  | 'chooseUpTo'
  | 'chooseBetween'
  | 'none'
  | 'quantity'
  | 'fewer'
  | 'more'
  | 'seat'
  | 'noSeat'
  | 'seatN'
  | 'course'
  | 'courseN'
  | 'plateNote'
  | 'linePrice'
  | 'addPlates'
  | 'cancel'
  | 'answer'
  | 'soldOut'
  | 'outOfStock'
  | 'sendAll'
  | 'sendCourse'
  | 'fireCourse'
  | 'edit'
  | 'save'
  | 'saving'
  | 'saved'
  | 'voidPlate'
  | 'compPlate'
  | 'voidedBy'
  | 'approvedBy'
  | DishStatus;

export const strings: Strings<Keys> = {
  en: {
    options: 'Options',
    optionsFor: 'Quantity, seat and course for {dish}',
    required: 'Required',
    optional: 'Optional',
    chooseOne: 'Choose 1',
    chooseUpTo: 'Choose up to {n}',
    chooseBetween: 'Choose {min} to {max}',
    none: 'None',
    quantity: 'Quantity',
    fewer: 'One fewer',
    more: 'One more',
    seat: 'Seat',
    noSeat: 'No seat',
    seatN: 'Seat {n}',
    course: 'Course',
    courseN: 'Course {n}',
    plateNote: 'Note (optional)',
    linePrice: 'Price of each plate',
    addPlates: 'Add {n} × {dish}',
    cancel: 'Cancel',
    answer: 'Still to choose: {groups}',
    soldOut: '86',
    outOfStock: 'Out of stock',
    sendAll: 'Send all',
    sendCourse: 'Send course {n}',
    fireCourse: 'Fire course {n}',
    edit: 'Edit',
    save: 'Save',
    saving: 'Saving {dish}…',
    saved: '{dish} changed',
    voidPlate: 'Void',
    compPlate: 'Comp',
    voidedBy: 'Voided by {name}',
    approvedBy: 'approved by {name}',
    order: 'Order',
    orderCode: 'Order {code}',
    table: 'Table {table}',
    counter: 'Counter order',
    total: 'Total',
    menu: 'Menu',
    ordered: 'Dishes ordered',
    noDishes: 'No dishes yet. Tap a dish of the menu to add it.',
    emptyMenu: 'The menu has no dishes yet.',
    note: 'Note for the next dish (optional)',
    noteHelp: 'For example: no onions, well done.',
    addPrefix: 'Add',
    adding: 'Adding {dish}…',
    added: '{dish} added',
    send: 'Send to kitchen',
    sentCount: 'Sent to the kitchen: {n}',
    sending: 'Sending to the kitchen… (kept and sent again while the server is away)',
    nothingToSend: 'Every dish is already in the kitchen.',
    remove: 'Remove',
    serve: 'Mark served',
    bill: 'Bill',
    loading: 'Loading the order…',
    unreachable: 'The server cannot be reached.',
    forbidden: 'Your role may not do this. Ask a manager.',
    deleted: 'This order was deleted.',
    closed: 'This order is closed: its dishes cannot change.',
    status: 'Status',
    pending: 'Pending',
    sent: 'Sent',
    preparing: 'Preparing',
    ready: 'Ready',
    served: 'Served',
    voided: 'Voided',
  },
  es: {
    options: 'Opciones',
    optionsFor: 'Cantidad, comensal y tiempo de {dish}',
    required: 'Obligatorio',
    optional: 'Opcional',
    chooseOne: 'Elige 1',
    chooseUpTo: 'Elige hasta {n}',
    chooseBetween: 'Elige de {min} a {max}',
    none: 'Ninguno',
    quantity: 'Cantidad',
    fewer: 'Uno menos',
    more: 'Uno más',
    seat: 'Comensal',
    noSeat: 'Sin comensal',
    seatN: 'Comensal {n}',
    course: 'Tiempo',
    courseN: 'Tiempo {n}',
    plateNote: 'Nota (opcional)',
    linePrice: 'Precio de cada platillo',
    addPlates: 'Agregar {n} × {dish}',
    cancel: 'Cancelar',
    answer: 'Falta elegir: {groups}',
    soldOut: 'Agotado',
    outOfStock: 'Sin existencias',
    sendAll: 'Enviar todo',
    sendCourse: 'Enviar tiempo {n}',
    fireCourse: 'Marchar tiempo {n}',
    edit: 'Editar',
    save: 'Guardar',
    saving: 'Guardando {dish}…',
    saved: 'Se cambió {dish}',
    voidPlate: 'Anular',
    compPlate: 'Cortesía',
    voidedBy: 'Anuló {name}',
    approvedBy: 'autorizó {name}',
    order: 'Comanda',
    orderCode: 'Orden {code}',
    table: 'Mesa {table}',
    counter: 'Comanda de barra',
    total: 'Total',
    menu: 'Menú',
    ordered: 'Platillos pedidos',
    noDishes: 'Aún no hay platillos. Toca un platillo del menú para agregarlo.',
    emptyMenu: 'El menú aún no tiene platillos.',
    note: 'Nota para el siguiente platillo (opcional)',
    noteHelp: 'Por ejemplo: sin cebolla, bien cocido.',
    addPrefix: 'Agregar',
    adding: 'Agregando {dish}…',
    added: 'Se agregó {dish}',
    send: 'Enviar a cocina',
    sentCount: 'Enviados a cocina: {n}',
    sending: 'Enviando a cocina… (se guarda y se reenvía mientras el servidor no responde)',
    nothingToSend: 'Todos los platillos ya están en cocina.',
    remove: 'Quitar',
    serve: 'Marcar servido',
    bill: 'Cuenta',
    loading: 'Cargando la comanda…',
    unreachable: 'No se puede contactar con el servidor.',
    forbidden: 'Tu rol no permite hacer esto. Pide ayuda a un gerente.',
    deleted: 'Esta comanda se eliminó.',
    closed: 'Esta comanda está cerrada: sus platillos no pueden cambiar.',
    status: 'Estado',
    pending: 'Pendiente',
    sent: 'Enviado',
    preparing: 'En preparación',
    ready: 'Listo',
    served: 'Servido',
    voided: 'Anulado',
  },
};
