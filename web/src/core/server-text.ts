import { ApiError } from '../api/client';
import { useStore } from '../api/store';
import { type Language, language } from './i18n';

/**
 * Text the server sends that people see, in Mexican Spanish: the seeded roles, their descriptions,
 * the permissions, the seeded payment methods and the refusals a screen can show (the spec's and
 * the contracts' `message` strings). A text not in the table, such as a role "Bartender" or a
 * method "Vales" someone typed, shows as it came.
 */
const SPANISH: Record<string, string> = {
  // Roles
  admin: 'Administrador',
  manager: 'Gerente',
  cashier: 'Cajero',
  waiter: 'Mesero',
  kitchen: 'Cocina',
  staff: 'Personal',
  display: 'Pantalla del cliente',
  // Stations ('kitchen' above is both a role and the default station)
  bar: 'Barra',
  'Everything, including users, roles and settings': 'Todo, incluidos usuarios, roles y ajustes',
  'Runs the floor and the money: everything but users, roles, the wallet and webhooks':
    'Lleva el salón y el dinero: todo menos usuarios, roles, la billetera y los webhooks',
  'Takes orders and payments and splits bills': 'Toma órdenes y pagos y divide cuentas',
  'Takes orders, splits bills and takes payments at the table; no discounts or refunds':
    'Toma órdenes, divide cuentas y cobra en la mesa; sin descuentos ni reembolsos',
  'Moves dishes through the kitchen statuses': 'Avanza los platillos por los estados de cocina',
  "The customer display at the counter: shows the paired till's bill and its QR":
    'La pantalla del cliente en el mostrador: muestra la cuenta de la caja vinculada y su QR',
  'What every signed-in user could do before roles existed':
    'Lo que podía hacer todo usuario con sesión antes de que existieran los roles',
  // Permissions (GET /permissions)
  'Create, edit and delete categories, dishes, ingredients and products':
    'Crear, editar y eliminar categorías, platillos, ingredientes y productos',
  'Mark dishes available or sold out (the kitchen\'s "86")':
    'Marcar platillos como disponibles o agotados (el "86" de la cocina)',
  'Create, edit and delete spaces and tables': 'Crear, editar y eliminar espacios y mesas',
  'Open orders, edit them and add or change their dishes':
    'Abrir órdenes, editarlas y agregar o cambiar sus platillos',
  'Cancel or delete orders': 'Cancelar o eliminar órdenes',
  "Charge a dish at a price other than the menu's": 'Cobrar un platillo a un precio distinto al del menú',
  'Move a party between tables, merge tables and move plates between orders':
    'Cambiar comensales de mesa, juntar mesas y pasar platillos entre órdenes',
  'Give an order to another waiter, with its sale and tips':
    'Pasar una orden a otro mesero, con su venta y sus propinas',
  'Remove dishes from an order': 'Quitar platillos de una orden',
  'Move dishes through the kitchen statuses': 'Avanzar los platillos por los estados de cocina',
  'Split orders into bills': 'Dividir órdenes en cuentas',
  'Give a discount on a bill': 'Aplicar un descuento a una cuenta',
  'Cancel a bill': 'Cancelar una cuenta',
  'Record payments and request Lightning payments': 'Registrar pagos y solicitar pagos Lightning',
  'Refund payments': 'Reembolsar pagos',
  'Create and edit payment methods': 'Crear y editar formas de pago',
  'List, create, edit and delete users': 'Ver, crear, editar y eliminar usuarios',
  'Create, edit and delete roles': 'Crear, editar y eliminar roles',
  'Change the business settings': 'Cambiar los ajustes del negocio',
  'Open and close their own shift and record cash movements':
    'Abrir y cerrar su propio turno y registrar movimientos de efectivo',
  'See and close the shifts of every user': 'Ver y cerrar los turnos de todos los usuarios',
  'Read sales reports': 'Ver los reportes de ventas',
  'See stock, its movements, low stock and the inventory report':
    'Ver las existencias, sus movimientos, lo que está bajo y el reporte de inventario',
  'Receive deliveries, record waste and adjustments, and enter stock counts':
    'Recibir entregas, registrar mermas y ajustes, y capturar conteos de inventario',
  'Read and verify the audit log': 'Ver y verificar la bitácora de auditoría',
  'Acknowledge a break found in the audit log, so verifying passes again':
    'Dar por revisada una ruptura hallada en la bitácora de auditoría, para que la verificación vuelva a pasar',
  "Use the restaurant's Lightning wallet": 'Usar la billetera Lightning del restaurante',
  'Create, edit and delete webhooks': 'Crear, editar y eliminar webhooks',
  'Create, edit and delete printers': 'Crear, editar y eliminar impresoras',
  'Print receipts and kitchen chits': 'Imprimir tickets y comandas de cocina',
  'See the delivery apps: their orders, state and last error':
    'Ver las plataformas de entrega: sus pedidos, su estado y su último error',
  'Pause the delivery apps, publish the menu to them and change their settings':
    'Pausar las plataformas de entrega, publicarles el menú y cambiar sus ajustes',
  // Delivery orders (contract-channels.md)
  'Map or deny the items the menu lacks first':
    'Primero asigna o rechaza los platillos que no están en el menú.',
  'Too late: the platform has cancelled it': 'Demasiado tarde: la plataforma ya lo canceló.',
  'Only a delivery order is accepted or denied': 'Solo se aceptan o rechazan pedidos a domicilio.',
  'Only a held order is mapped': 'Solo se asignan platillos a un pedido retenido.',
  'Be a customer display: pair to a till and show the bill it is taking payment for':
    'Ser pantalla del cliente: vincularse a una caja y mostrar la cuenta que está cobrando',
  // Seeded payment methods
  Cash: 'Efectivo',
  Card: 'Tarjeta',
  Lightning: 'Lightning',
  // Refusals
  'Unauthorized API access': 'No tienes permiso para hacer esto.',
  Unauthorized: 'No autorizado.',
  'Not authenticated': 'Tu sesión terminó. Vuelve a entrar.',
  'Invalid credentials': 'PIN o usuario incorrecto.',
  'Resource not found': 'No se encontró.',
  'Missing or invalid parameters': 'Faltan datos o no son válidos.',
  'Table is not free': 'La mesa no está libre.',
  'Cannot merge an order that has bills': 'No se puede juntar una orden que tiene cuentas.',
  'Cannot merge an order with itself': 'No se puede juntar una orden consigo misma.',
  'The order is already at this table': 'La orden ya está en esta mesa.',
  'Modifier group is in use': 'El grupo de opciones está en uso.',
  'A modifier group with this name already exists': 'Ya existe un grupo de opciones con ese nombre.',
  'min_select cannot be more than max_select': 'El mínimo no puede ser mayor que el máximo.',
  'Option names must be unique in the group': 'Los nombres de las opciones no se pueden repetir en el grupo.',
  'Open a shift first': 'Primero abre un turno.',
  'Open a shift for your till': 'Abre un turno para tu caja.',
  'Cash payments and refunds need an open shift':
    'Los pagos y reembolsos en efectivo necesitan un turno abierto.',
  'A shift is already open': 'Ya hay un turno abierto.',
  'The shift is closed': 'El turno está cerrado.',
  'A cash refund comes out of a drawer: open your shift, or name the shift whose drawer pays it':
    'Un reembolso en efectivo sale de una caja: abre tu turno o indica el turno de la caja que lo paga.',
  'No shift has that id': 'No hay ningún turno con ese id.',
  'This Lightning invoice is no longer pending': 'Esta solicitud de pago Lightning ya no está pendiente.',
  'Only a Lightning invoice or a card-terminal charge can be canceled':
    'Solo se puede cancelar una solicitud de pago Lightning o un cobro en la terminal.',
  'Only cash refunds come out of a drawer': 'Solo los reembolsos en efectivo salen de una caja.',
  // The card terminal (Mercado Pago Point)
  'The card terminal is not configured (POS_MP_ACCESS_TOKEN)':
    'La terminal de tarjetas no está configurada (POS_MP_ACCESS_TOKEN).',
  'No terminal named: send terminal_id, or choose the default terminal (PUT /settings/terminals)':
    'No hay terminal elegida: elige una en la caja, o fija la predeterminada en Gerencia › Terminal de tarjetas.',
  'The terminal is busy with another charge: wait for it, or cancel it':
    'La terminal está ocupada con otro cobro: espera a que termine o cancélalo.',
  'The card_terminal payment method is inactive':
    'La forma de pago Terminal Mercado Pago está desactivada: actívala en Gerencia.',
  'Amount exceeds the balance left by the charges pending on terminals':
    'El monto excede el saldo que dejan los cobros pendientes en las terminales.',
  'This charge is no longer pending': 'Este cobro ya no está pendiente.',
  'The charge is still being sent to the terminal: try again in a moment':
    'El cobro aún se está enviando a la terminal: intenta de nuevo en un momento.',
  'A refund of this payment is still being processed by Mercado Pago: wait for it':
    'Mercado Pago aún está procesando un reembolso de este pago: espera a que termine.',
  'A card-terminal refund goes back to the card: no invoice, no drawer':
    'Un reembolso de la terminal vuelve a la tarjeta: no lleva solicitud de pago ni sale de una caja.',
  'Not a Lightning or card-terminal payment of this bill':
    'No es un pago Lightning ni un cobro en la terminal de esta cuenta.',
  'Cannot close an order with a balance due': 'No se puede cerrar una orden con saldo pendiente.',
  'Cannot bill a cancelled order': 'No se puede hacer la cuenta de una orden cancelada.',
  'Cannot bill an order without dishes': 'No se puede hacer la cuenta de una orden sin platillos.',
  'Cannot change status - the table has an active order':
    'No se puede cambiar el estado: la mesa tiene una orden activa.',
  'Cannot delete category - it may be in use or not found':
    'No se puede eliminar la categoría: puede estar en uso o no existir.',
  'Cannot delete space - it has tables': 'No se puede eliminar el espacio: tiene mesas.',
  'Cannot delete table - it has an active order': 'No se puede eliminar la mesa: tiene una orden activa.',
  'Cannot remove the last admin': 'No se puede quitar al último administrador.',
  'A printer with this name already exists': 'Ya existe una impresora con ese nombre.',
  'A product with this SKU already exists': 'Ya existe un producto con ese SKU.',
  'A role with this name already exists': 'Ya existe un rol con ese nombre.',
  'A user with this name already exists': 'Ya existe un usuario con ese nombre.',
  'A seeded role cannot be deleted': 'Un rol predefinido no se puede eliminar.',
  'A seeded role cannot be renamed': 'Un rol predefinido no se puede renombrar.',
  'The admin role cannot be edited': 'El rol de administrador no se puede editar.',
  'A reason is required to void a dish': 'Se necesita un motivo para anular un platillo.',
  'A new PIN is required to rename a user': 'Se necesita un PIN nuevo para renombrar a un usuario.',
  'The PIN must be 4 to 12 digits': 'El PIN debe tener de 4 a 12 dígitos.',
  'The name must be 1 to 100 characters, not blank':
    'El nombre debe tener de 1 a 100 caracteres y no estar vacío.',
  'A percent discount is at most 100': 'Un descuento en porcentaje es de 100 como máximo.',
  'Amount exceeds the balance': 'El monto excede el saldo.',
  'Amount exceeds the unbilled balance': 'El monto excede el saldo por cobrar.',
  'Amount exceeds what is left of the payment': 'El monto excede lo que queda del pago.',
  'Discount exceeds the subtotal': 'El descuento excede el subtotal.',
  'Dish is on a bill': 'El platillo ya está en una cuenta.',
  'Modifiers cannot change once the plate is sent to the kitchen':
    'Las opciones no pueden cambiar una vez que el platillo se envió a cocina.',
  'Nothing left to pay': 'No queda nada por pagar.',
  'Only cash takes tendered': 'Solo el efectivo lleva monto recibido.',
  'Only Lightning refunds take an invoice': 'Solo los reembolsos Lightning llevan una solicitud de pago.',
  'Order has paid bills: refund and cancel them first':
    'La orden tiene cuentas pagadas: primero reembólsalas y cancélalas.',
  'Send either order_dish_ids or amount, not both': 'Elige platillos o un monto, no ambos.',
  'Tendered must cover amount and tip': 'Lo recibido debe cubrir el monto y la propina.',
  'The order total would fall below its bills: cancel a bill first':
    'El total de la orden quedaría por debajo de sus cuentas: primero cancela una cuenta.',
  'Ticket has payments: refund them first': 'La cuenta tiene pagos: primero reembólsalos.',
  'Ticket is already canceled': 'La cuenta ya está cancelada.',
  'Ticket is already paid': 'La cuenta ya está pagada.',
  'Ticket is canceled': 'La cuenta está cancelada.',
  'Payment already recorded': 'El pago ya está registrado.',
  'No receipt printer is set up': 'No hay impresora de tickets configurada.',
  'Printer closed the connection before taking the job':
    'La impresora cerró la conexión antes de recibir el trabajo.',
  'Lightning node is not configured': 'El nodo Lightning no está configurado.',
  'Lightning node is unavailable': 'El nodo Lightning no responde.',
  'Another Lightning payment of this bill is being created: try again':
    'Se está creando otro pago Lightning de esta cuenta: inténtalo de nuevo.',
  'The Lightning payment of this bill is expiring: try again':
    'El pago Lightning de esta cuenta está por vencer: inténtalo de nuevo.',
  'An underpaid Lightning payment is not counted and cannot be refunded here':
    'Un pago Lightning incompleto no cuenta y no se puede reembolsar aquí.',
  'The base currency cannot change while a bill is pending':
    'La moneda base no puede cambiar mientras haya una cuenta pendiente.',
  'The URL must be an absolute http or https URL': 'La URL debe ser absoluta, http o https.',
  'timezone must be an IANA time zone, such as America/Mexico_City':
    'La zona horaria debe ser una zona IANA, como America/Mexico_City.',
  'from must not be after to': 'La fecha inicial no puede ser posterior a la final.',
  'start_date must not be after end_date': 'La fecha inicial no puede ser posterior a la final.',
  'space_id must name an existing space': 'El espacio no existe.',
  'Wallet authentication required': 'Se necesita la contraseña de la billetera.',
  'The current wallet password is required to change it':
    'Se necesita la contraseña actual de la billetera para cambiarla.',
  'The wallet password was changed meanwhile; try again':
    'La contraseña de la billetera cambió mientras tanto: inténtalo de nuevo.',
  'Your PIN is required to set a first wallet password':
    'Se necesita tu PIN para poner la primera contraseña de la billetera.',
  'Idempotency-Key was already used with a different request': 'Esta operación ya se envió con otros datos.',
  'Initial setup already completed': 'La configuración inicial ya se hizo.',
  // Inventory
  'Item is used by a recipe': 'El artículo se usa en una receta.',
  'Recipe items must be live ingredients or products':
    'Los artículos de una receta deben ser ingredientes o productos vigentes.',
  'A recipe lists each item once': 'Una receta lleva cada artículo una sola vez.',
  'A delivery adds stock: delta must be above 0':
    'Una entrega suma existencias: la cantidad debe ser mayor que 0.',
  'Waste takes stock away: delta must be below 0':
    'La merma resta existencias: la cantidad debe ser menor que 0.',
  'Each item is counted once per sheet': 'Cada artículo se cuenta una sola vez por hoja.',
  // E-invoice (CFDI)
  "Invoice a paid bill to a guest's RFC and issue the global invoice":
    'Facturar una cuenta pagada al RFC del cliente y emitir la factura global',
  'Cancel e-invoices (CFDI) with the SAT’s motive': 'Cancelar facturas (CFDI) con el motivo del SAT',
  'E-invoicing is not enabled': 'La facturación electrónica no está activada.',
  'The e-invoicing provider is unavailable: try again in a moment':
    'El proveedor de facturación (PAC) no responde: inténtalo de nuevo en un momento.',
  'This bill is already invoiced': 'Esta cuenta ya está facturada.',
  'This bill is being invoiced': 'Esta cuenta se está facturando.',
  'Only a paid bill can be invoiced': 'Solo se puede facturar una cuenta pagada.',
  'This bill was canceled or refunded: there is nothing to invoice':
    'Esta cuenta se canceló o se reembolsó: no hay nada que facturar.',
  'The RFC is not valid (its shape or check digit is wrong)':
    'El RFC no es válido (su forma o su dígito verificador no cuadran).',
  "This RFC is not in the SAT's list of registered taxpayers":
    'Este RFC no está en la lista de contribuyentes del SAT.',
  "The name does not match the RFC in the SAT's records: write it exactly as on the Constancia de Situación Fiscal":
    'El nombre no coincide con el RFC en el SAT: escríbelo tal como en la Constancia de Situación Fiscal.',
  "The postal code does not match the RFC's fiscal address in the SAT's records":
    'El código postal no coincide con el domicilio fiscal del RFC en el SAT.',
  "This tax regime is not the RFC's in the SAT's records": 'Ese régimen fiscal no es el del RFC en el SAT.',
  'This tax regime is not in the SAT catalogue': 'Ese régimen fiscal no está en el catálogo del SAT.',
  'This CFDI use is not allowed for the tax regime': 'Ese uso del CFDI no se permite para el régimen fiscal.',
  'A product key of the settings or the menu is not in the SAT catalogue':
    'Una clave de producto de los ajustes o del menú no está en el catálogo del SAT.',
  'The unit key of the settings is not in the SAT catalogue':
    'La clave de unidad de los ajustes no está en el catálogo del SAT.',
  "The PAC account is not ready to stamp: upload the restaurant's CSD in its dashboard":
    'La cuenta del PAC aún no puede timbrar: sube el CSD del restaurante en su panel.',
  'The PAC refused the key: check POS_PAC_KEY': 'El PAC rechazó la llave: revisa POS_PAC_KEY.',
  'No open receipts in this period': 'No hay tickets sin facturar en este periodo.',
  'This period already has its global invoice': 'Este periodo ya tiene su factura global.',
  'The period has not closed yet': 'El periodo todavía no cierra.',
  'The global invoice of this period is being issued': 'La factura global de este periodo se está emitiendo.',
  'This invoice is already canceled': 'Esta factura ya está cancelada.',
  'A cancellation of this invoice is under way': 'Ya hay una cancelación de esta factura en curso.',
  'Motive 03 (the sale did not happen) needs the bill canceled or refunded in full first':
    'El motivo 03 (no se llevó a cabo la operación) necesita la cuenta cancelada o reembolsada por completo.',
  'Motive 04 is only for a global invoice': 'El motivo 04 es solo para la factura global.',
  'Only motive 01 takes a substitution': 'Solo el motivo 01 lleva factura sustituta.',
  'The substitute must be a valid invoice of the same bill: issue it first (Invoice, replacing this one)':
    'La factura sustituta debe ser una factura vigente de la misma cuenta: emítela primero (motivo 01).',
  'Only the staff may replace an invoice': 'Solo el personal puede sustituir una factura.',
  "Only the bill's valid invoice can be replaced": 'Solo se puede sustituir la factura vigente de la cuenta.',
  'The invoice of this bill was canceled as a sale that did not happen (motive 03)':
    'La factura de esta cuenta se canceló porque la operación no se llevó a cabo (motivo 03).',
  'The PAC is still stamping the invoice (the SAT did not answer at once): it will show here within the hour':
    'El PAC sigue timbrando la factura (el SAT no respondió de inmediato): aparecerá aquí en menos de una hora.',
  'The SAT did not stamp the invoice: try again': 'El SAT no timbró la factura: inténtalo de nuevo.',
  'The PAC is still stamping this credit note (the SAT did not answer at once)':
    'El PAC sigue timbrando esta nota de crédito (el SAT no respondió de inmediato).',
  'The SAT did not stamp this credit note: it is asked for again when the fiscal settings are saved':
    'El SAT no timbró esta nota de crédito: se vuelve a pedir al guardar los ajustes de facturación.',
  'The SAT does not cancel a CFDI that a valid one relates to (a credit note): cancel that one first':
    'El SAT no cancela un CFDI al que otro vigente se relaciona (una nota de crédito): cancela primero ese.',
  'Motive 01 needs the UUID of the invoice that replaces it (substitution)':
    'El motivo 01 necesita el UUID de la factura que la sustituye.',
  'E-invoicing needs the rfc, legal_name and postal_code of the restaurant':
    'La facturación necesita el RFC, la razón social y el código postal del restaurante.',
  'E-invoicing needs the PAC key on the server: set POS_PAC_KEY (or POS_PAC_KEY_FILE)':
    'La facturación necesita la llave del PAC en el servidor: configura POS_PAC_KEY (o POS_PAC_KEY_FILE).',
  'E-invoicing needs prices that include IVA: set prices_include_tax and tax_rate (16, or 8 in the border region) in the settings':
    'La facturación necesita precios con IVA incluido: activa "precios con impuesto" y la tasa (16, u 8 en la región fronteriza) en Ajustes.',
  'rfc is not a valid RFC (its shape or check digit is wrong)':
    'El RFC del restaurante no es válido (su forma o su dígito verificador no cuadran).',
  "payment_forms: 99 (Por definir) is refused: a paid bill's payment form is known":
    'Formas de pago: 99 (Por definir) no se admite: la forma de pago de una cuenta pagada se conoce.',
};

/** Texts that carry a value (a date, a code): the pattern, and its Spanish with the values put back. */
const SPANISH_PATTERNS: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  [
    /^The order is (held|awaiting|accepted|ready|picked_up|denied|cancelled|not waiting)$/,
    (_match, state: string) => `El pedido ya está ${CHANNEL_STATES[state] ?? state}.`,
  ],
  [/^This bill is in the global invoice of (.+)$/, 'Esta cuenta está en la factura global del $1.'],
  [/^CFDI use (\w+) is not allowed for tax regime (\d+)$/, 'El uso $1 no se permite para el régimen $2.'],
  [/^CFDI use (\w+) is not in the SAT catalogue$/, 'El uso $1 no está en el catálogo del SAT.'],
  [/^Tax regime (\d+) is not in the SAT catalogue$/, 'El régimen $1 no está en el catálogo del SAT.'],
  [
    /^Tax regime (\d+) is for companies, and this RFC is a person's$/,
    'El régimen $1 es de personas morales y este RFC es de una persona física.',
  ],
  [
    /^Tax regime (\d+) is for persons, and this RFC is a company's$/,
    'El régimen $1 es de personas físicas y este RFC es de una persona moral.',
  ],
  [
    /^The payment method (.+) has no SAT payment form: choose one in the fiscal settings \(payment_forms\)$/,
    'La forma de pago $1 no tiene forma de pago SAT: elíjala en Gerencia › Facturación.',
  ],
  [
    /^The SAT allows a global invoice until 72 hours after its period closes; this period closed on (.+)$/,
    'El SAT permite la factura global hasta 72 horas después del cierre del periodo; este periodo cerró el $1.',
  ],
  [/^The PAC refused it: (.+)$/, 'El PAC la rechazó: $1'],
  [
    /^The terminal is busy with another charge: wait for it, or cancel it \((.+)\)$/,
    'La terminal está ocupada con otro cobro: espera a que termine o cancélalo ($1).',
  ],
  [
    /^Mercado Pago has no terminal (\S+) in this account$/,
    'Mercado Pago no tiene la terminal $1 en esta cuenta.',
  ],
  [
    /^Terminal (\S+) is in (\S+) mode: switch it to PDV \(integrated\) mode first$/,
    'La terminal $1 está en modo $2: primero cámbiala a modo integrado (PDV) en la app de Mercado Pago.',
  ],
  [
    /^A (\w+) payment cannot be refunded$/,
    (_match, status: string) => `No se puede reembolsar un pago ${PAYMENT_STATES[status] ?? status}.`,
  ],
  [/^Mercado Pago answered (\d+) to (.+): (.+)$/, 'Mercado Pago respondió $1 a $2: $3'],
  [/^Mercado Pago timed out \((.+)\)$/, 'Mercado Pago no respondió a tiempo ($1). Intenta de nuevo.'],
  [/^Mercado Pago gave no answer \((.+)\)$/, 'Mercado Pago no respondió ($1). Intenta de nuevo.'],
  [
    /^A guest's Lightning invoice is pending on this bill: payment (\S+) for ([\d.]+); ([\d.]+) is left to ask for$/,
    'Un comensal tiene una solicitud de pago Lightning pendiente en esta cuenta (pago $1, por $2); quedan $3 por cobrar. Espera a que la pague o cancélala.',
  ],
  [
    /^Credit note refused: (.+)$/,
    (_match, reason: string) =>
      `El PAC rechazó la nota de crédito: ${translateServerText(reason, 'es').replace(/\.$/, '')}.`,
  ],
];

/** A payment's `status` in a refusal ("A failed payment cannot be refunded"). */
const PAYMENT_STATES: Record<string, string> = {
  pending: 'pendiente',
  action_required: 'que espera en la terminal',
  expired: 'vencido',
  failed: 'fallido',
  canceled: 'cancelado',
  refunded: 'reembolsado',
};

/** A delivery order's `channel_state` in a refusal ("The order is accepted"). */
const CHANNEL_STATES: Record<string, string> = {
  held: 'retenido',
  awaiting: 'esperando respuesta',
  accepted: 'aceptado',
  ready: 'listo',
  picked_up: 'recogido',
  denied: 'rechazado',
  cancelled: 'cancelado',
  'not waiting': 'atendido',
};

/** The server's words are English already, but for the two usual stations (and a role) named by code. */
const ENGLISH: Record<string, string> = { kitchen: 'Kitchen', bar: 'Bar' };

const TABLES: Record<Language, Record<string, string>> = { en: ENGLISH, es: SPANISH };

/**
 * The refusals a guest's phone shows too, said to the guest as "usted": the table above speaks to
 * the staff as "tú".
 */
const GUEST_SPANISH: Record<string, string> = {
  'The e-invoicing provider is unavailable: try again in a moment':
    'El proveedor de facturación (PAC) no responde: intente de nuevo en un momento.',
  "The name does not match the RFC in the SAT's records: write it exactly as on the Constancia de Situación Fiscal":
    'El nombre no coincide con el RFC en el SAT: escríbalo tal como en la Constancia de Situación Fiscal.',
  'The SAT did not stamp the invoice: try again': 'El SAT no timbró la factura: intente de nuevo.',
};

/** The server's text in the given language, or as it came when the table does not know it. */
export function translateServerText(text: string, lang: Language): string {
  if (Object.hasOwn(TABLES[lang], text) && TABLES[lang][text]) return TABLES[lang][text];
  if (lang !== 'es') return text;
  const pattern = SPANISH_PATTERNS.find(([match]) => match.test(text));
  if (!pattern) return text;
  const [match, spanish] = pattern;
  return typeof spanish === 'string' ? text.replace(match, spanish) : text.replace(match, spanish);
}

/** The server's text as a guest's phone shows it: to the guest as "usted", otherwise as the staff read it. */
export function translateGuestServerText(text: string, lang: Language): string {
  if (lang === 'es' && Object.hasOwn(GUEST_SPANISH, text)) return GUEST_SPANISH[text] ?? text;
  return translateServerText(text, lang);
}

/** `translateServerText` in the chosen language, for names and descriptions a screen lists. */
export function useServerText(): (text: string) => string {
  const lang = useStore(language);
  return (text: string) => translateServerText(text, lang);
}

/**
 * The server's message for a refusal in the chosen language (as the server sent it when the client
 * does not know it); `fallback` when it could not be reached. `ApiError.message` stays the server's
 * text, which code compares against.
 */
export function messageOf(failure: unknown, fallback: string): string {
  return failure instanceof ApiError ? translateServerText(failure.message, language.get()) : fallback;
}
