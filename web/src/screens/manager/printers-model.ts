import type { Ok } from '../../api/client';
import type { Strings } from '../../core/i18n';

export type Printer = NonNullable<Ok<'/printers', 'get'>>[number];
export type PaymentMethod = NonNullable<Ok<'/payment-methods', 'get'>>[number];

/** The printer form: the fields a manager types, as typed (the port stays text until sent). */
export type PrinterForm = {
  name: string;
  host: string;
  port: string;
  role: 'receipt' | 'kitchen';
  station: string;
  width: Printer['width'];
};
export const EMPTY_PRINTER: PrinterForm = {
  name: '',
  host: '',
  port: '9100',
  role: 'receipt',
  station: '',
  width: 48,
};
export const WIDTHS: Printer['width'][] = [48, 42, 32];

/**
 * The body of POST and PUT /printers: PUT replaces every field, so the width goes too; a station only
 * for a kitchen printer.
 */
export function printerBody(form: PrinterForm) {
  return {
    name: form.name.trim(),
    host: form.host.trim(),
    port: Number(form.port),
    role: form.role,
    station: form.role === 'kitchen' && form.station.trim() ? form.station.trim() : null,
    width: form.width,
  };
}

export const printerStrings: Strings<
  | 'printers'
  | 'noPrinters'
  | 'name'
  | 'host'
  | 'port'
  | 'role'
  | 'station'
  | 'everyStation'
  | 'width'
  | 'role_receipt'
  | 'role_kitchen'
  | 'addPrinter'
  | 'editPrinter'
  | 'jobs'
  | 'jobsOf'
  | 'noJobs'
  | 'refresh'
  | 'kind'
  | 'state'
  | 'attempts'
  | 'lastError'
  | 'state_pending'
  | 'state_sending'
  | 'state_printed'
  | 'state_failed'
  | 'methods'
  | 'noMethods'
  | 'code'
  | 'codeColumn'
  | 'active'
  | 'addMethod'
  | 'activate'
  | 'deactivate'
> = {
  en: {
    printers: 'Printers',
    noPrinters: 'No printers yet. Add the receipt printer at the till and the kitchen printers.',
    name: 'Name',
    host: 'Host or IP address',
    port: 'Port',
    role: 'Prints',
    station: 'Kitchen station (kitchen printers only)',
    everyStation: 'Every station',
    width: 'Characters per line (32: 58 mm paper; 42 or 48: 80 mm)',
    role_receipt: 'Receipts',
    role_kitchen: 'Kitchen chits',
    addPrinter: 'Add printer',
    editPrinter: 'Save printer',
    jobs: 'Jobs',
    jobsOf: 'Print jobs of {name}',
    noJobs: 'Nothing printed yet.',
    refresh: 'Refresh',
    kind: 'What',
    state: 'State',
    attempts: 'Attempts',
    lastError: 'Last error',
    state_pending: 'Waiting',
    state_sending: 'Sending',
    state_printed: 'Printed',
    state_failed: 'Failed',
    methods: 'Payment methods',
    noMethods: 'No payment methods yet.',
    code: 'Code (lowercase letters, digits, - and _)',
    codeColumn: 'Code',
    active: 'Active',
    addMethod: 'Add payment method',
    activate: 'Activate',
    deactivate: 'Deactivate',
  },
  es: {
    printers: 'Impresoras',
    noPrinters: 'Aún no hay impresoras. Agrega la impresora de tickets de la caja y las de cocina.',
    name: 'Nombre',
    host: 'Nombre de equipo o dirección IP',
    port: 'Puerto',
    role: 'Imprime',
    station: 'Estación (solo impresoras de cocina)',
    everyStation: 'Todas las estaciones',
    width: 'Caracteres por línea (32: papel de 58 mm; 42 o 48: 80 mm)',
    role_receipt: 'Tickets',
    role_kitchen: 'Comandas de cocina',
    addPrinter: 'Agregar impresora',
    editPrinter: 'Guardar impresora',
    jobs: 'Trabajos',
    jobsOf: 'Trabajos de impresión de {name}',
    noJobs: 'Aún no se ha impreso nada.',
    refresh: 'Actualizar',
    kind: 'Qué',
    state: 'Estado',
    attempts: 'Intentos',
    lastError: 'Último error',
    state_pending: 'En espera',
    state_sending: 'Enviando',
    state_printed: 'Impreso',
    state_failed: 'Fallido',
    methods: 'Formas de pago',
    noMethods: 'Aún no hay formas de pago.',
    code: 'Código (minúsculas, dígitos, - y _)',
    codeColumn: 'Código',
    active: 'Activa',
    addMethod: 'Agregar forma de pago',
    activate: 'Activar',
    deactivate: 'Desactivar',
  },
};
