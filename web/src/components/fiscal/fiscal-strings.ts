import type { Strings } from '../../core/i18n';

/** Strings of e-invoicing (CFDI): the till's invoice form, the manager's settings and global invoice. */
export const fiscalStrings: Strings<
  | 'title'
  | 'status_none'
  | 'status_pending'
  | 'status_receipt'
  | 'status_invoiced'
  | 'status_in_global'
  | 'status_canceled'
  | 'status_failed'
  | 'selfInvoice'
  | 'selfInvoiceUntil'
  | 'invoice'
  | 'invoiceTitle'
  | 'rfc'
  | 'legalName'
  | 'legalNameHelp'
  | 'regime'
  | 'postalCode'
  | 'use'
  | 'email'
  | 'submit'
  | 'invoiced'
  | 'pdf'
  | 'xml'
  | 'uuid'
  | 'settingsTitle'
  | 'enabled'
  | 'pacMissing'
  | 'restaurantRfc'
  | 'series'
  | 'productKey'
  | 'unitKey'
  | 'periodicity'
  | 'periodicityHelp'
  | 'period_day'
  | 'period_week'
  | 'period_fortnight'
  | 'period_month'
  | 'paymentForms'
  | 'paymentFormsHelp'
  | 'noForm'
  | 'save'
  | 'saved'
  | 'globalTitle'
  | 'globalHelp'
  | 'from'
  | 'to'
  | 'issueGlobal'
  | 'globalIssued'
  | 'noPeriods'
  | 'periodState_due'
  | 'periodState_issuing'
  | 'periodState_issued'
  | 'periodState_empty'
  | 'periodState_refused'
  | 'period'
  | 'state'
  | 'total'
  | 'cancel'
  | 'cancelMotive'
  | 'canceled'
  | 'cancelPending'
  | 'cfdisTitle'
  | 'cfdiKind'
  | 'folio'
  | 'files'
  | 'kind_customer'
  | 'kind_global'
  | 'kind_credit_note'
  | 'cfdiStatus_valid'
  | 'cfdiStatus_canceling'
  | 'cfdiStatus_cancel_pending'
  | 'cfdiStatus_canceled'
  | 'cfdiStatus_stamping'
  | 'cfdiStatus_failed'
  | 'cfdiCanceledMotive'
  | 'cancelTitle'
  | 'confirmCancel'
  | 'confirmCancelAction'
  | 'back'
  | 'motive04Global'
  | 'motiveHelp_01'
  | 'motiveHelp_02'
  | 'motiveHelp_03'
  | 'substituted'
  | 'reissue'
  | 'motive_01'
  | 'motive_02'
  | 'motive_03'
  | 'motive_04'
> = {
  en: {
    title: 'E-invoice (CFDI)',
    status_none: 'No receipt yet',
    status_pending: 'Receipt being made',
    status_receipt: 'Receipt issued: ready to invoice',
    status_invoiced: 'Invoiced',
    status_in_global: 'In the global invoice',
    status_canceled: 'Canceled',
    status_failed: 'Receipt failed',
    selfInvoice: 'Self-invoice page',
    selfInvoiceUntil: 'The guest can invoice it there until {date}.',
    invoice: 'Invoice',
    invoiceTitle: "Invoice to the guest's RFC",
    rfc: 'RFC',
    legalName: 'Name or company name',
    legalNameHelp: 'Exactly as on the Constancia de Situación Fiscal, without "S.A. de C.V."',
    regime: 'Tax regime',
    postalCode: 'Fiscal postal code',
    use: 'CFDI use',
    email: 'Email (optional)',
    submit: 'Issue the invoice',
    invoiced: 'Invoice {uuid} issued.',
    pdf: 'PDF',
    xml: 'XML',
    uuid: 'Folio fiscal',
    settingsTitle: 'E-invoicing',
    enabled: 'Issue e-invoices (CFDI) through the PAC',
    pacMissing: 'The server has no PAC key (POS_PAC_KEY): e-invoicing cannot be turned on.',
    restaurantRfc: "The restaurant's RFC",
    series: 'Series',
    productKey: 'SAT product key',
    unitKey: 'SAT unit key',
    periodicity: 'Global invoice every',
    periodicityHelp:
      "Set the same receipt period in the PAC's dashboard (Receipts settings), or receipts will expire before the global invoice takes them.",
    period_day: 'day',
    period_week: 'week',
    period_fortnight: 'fortnight',
    period_month: 'month',
    paymentForms: 'SAT payment form of each method',
    paymentFormsHelp:
      'Lightning has no SAT form of its own: choose the one your accountant uses (e.g. 06 Dinero electrónico or 31 Intermediario pagos). Until then, bills paid by Lightning cannot be invoiced.',
    noForm: 'Not chosen',
    save: 'Save e-invoicing',
    saved: 'E-invoicing saved.',
    globalTitle: 'Global invoice',
    globalHelp:
      'Every receipt not invoiced to a guest goes into one invoice to the general public per period. It is issued by itself when the period closes; the SAT allows it until 72 hours later.',
    from: 'From',
    to: 'To',
    issueGlobal: 'Issue the global invoice now',
    globalIssued: 'Global invoice {uuid} issued for {total}.',
    noPeriods: 'No period has closed yet.',
    periodState_due: 'Due',
    periodState_issuing: 'Being issued',
    periodState_issued: 'Issued',
    periodState_empty: 'No receipts',
    periodState_refused: 'Too late',
    period: 'Period',
    state: 'State',
    total: 'Total',
    cancel: 'Cancel the invoice',
    cancelMotive: 'Motive',
    canceled: 'The invoice is canceled.',
    cancelPending: 'Cancellation requested: the receiver must accept it.',
    cfdisTitle: "The bill's CFDIs",
    cfdiKind: 'Type',
    folio: 'Folio',
    files: 'Files',
    kind_customer: 'Invoice',
    kind_global: 'Global invoice',
    kind_credit_note: 'Credit note',
    cfdiStatus_valid: 'Valid',
    cfdiStatus_canceling: 'Being canceled',
    cfdiStatus_cancel_pending: 'Cancellation awaiting the receiver',
    cfdiStatus_canceled: 'Canceled',
    cfdiStatus_stamping: 'Being stamped',
    cfdiStatus_failed: 'Not stamped',
    cfdiCanceledMotive: 'Canceled (motive {motive})',
    cancelTitle: 'Cancel the invoice with folio {invoice}',
    confirmCancel: 'The invoice with folio {invoice} will be canceled before the SAT. This cannot be undone.',
    confirmCancelAction: 'Yes, cancel the invoice',
    back: 'Back',
    motive04Global: 'only for the global invoice',
    motiveHelp_01:
      "Enter the guest's correct data: the invoice that replaces it is issued first, then this one is canceled naming it.",
    motiveHelp_02: 'After the cancellation you can issue the corrected invoice from this bill.',
    motiveHelp_03: 'Only once the bill has been canceled or refunded in full.',
    substituted: 'Invoice {uuid} issued; the one it replaces is being canceled.',
    reissue: 'Issue the corrected invoice',
    motive_01: 'Issued with errors, replaced',
    motive_02: 'Issued with errors, not replaced',
    motive_03: 'The sale did not happen',
    motive_04: 'Included in a global invoice',
  },
  es: {
    title: 'Factura electrónica (CFDI)',
    status_none: 'Aún no está en el PAC',
    status_pending: 'Registrando el ticket en el PAC',
    status_receipt: 'Ticket registrado: se puede facturar',
    status_invoiced: 'Facturada',
    status_in_global: 'En la factura global',
    status_canceled: 'Cancelada',
    status_failed: 'Falló el registro del ticket',
    selfInvoice: 'Página de autofacturación',
    selfInvoiceUntil: 'El cliente puede facturarlo ahí hasta el {date}.',
    invoice: 'Facturar',
    invoiceTitle: 'Factura al RFC del cliente',
    rfc: 'RFC',
    legalName: 'Nombre o razón social',
    legalNameHelp: 'Tal como en la Constancia de Situación Fiscal, sin "S.A. de C.V."',
    regime: 'Régimen fiscal',
    postalCode: 'Código postal fiscal',
    use: 'Uso del CFDI',
    email: 'Correo (opcional)',
    submit: 'Emitir la factura',
    invoiced: 'Factura {uuid} emitida.',
    pdf: 'PDF',
    xml: 'XML',
    uuid: 'Folio fiscal',
    settingsTitle: 'Facturación electrónica',
    enabled: 'Emitir facturas electrónicas (CFDI) con el PAC',
    pacMissing: 'El servidor no tiene la llave del PAC (POS_PAC_KEY): no se puede activar la facturación.',
    restaurantRfc: 'RFC del restaurante',
    series: 'Serie',
    productKey: 'Clave de producto SAT',
    unitKey: 'Clave de unidad SAT',
    periodicity: 'Factura global cada',
    periodicityHelp:
      'Configura en el panel del PAC el mismo periodo para los tickets, o vencerán antes de que la factura global los tome.',
    period_day: 'día',
    period_week: 'semana',
    period_fortnight: 'quincena',
    period_month: 'mes',
    paymentForms: 'Forma de pago SAT de cada método',
    paymentFormsHelp:
      'Lightning no tiene forma de pago SAT propia: elige la que use tu contador (p. ej. 06 Dinero electrónico o 31 Intermediario pagos). Mientras tanto, las cuentas pagadas con Lightning no se pueden facturar.',
    noForm: 'Sin elegir',
    save: 'Guardar facturación',
    saved: 'Facturación guardada.',
    globalTitle: 'Factura global',
    globalHelp:
      'Cada ticket que no se facturó a un cliente entra en una factura al público en general por periodo. Se emite sola al cerrar el periodo; el SAT la permite hasta 72 horas después.',
    from: 'Desde',
    to: 'Hasta',
    issueGlobal: 'Emitir la factura global ahora',
    globalIssued: 'Factura global {uuid} emitida por {total}.',
    noPeriods: 'Aún no cierra ningún periodo.',
    periodState_due: 'Pendiente',
    periodState_issuing: 'Emitiéndose',
    periodState_issued: 'Emitida',
    periodState_empty: 'Sin tickets',
    periodState_refused: 'Fuera de plazo',
    period: 'Periodo',
    state: 'Estado',
    total: 'Total',
    cancel: 'Cancelar la factura',
    cancelMotive: 'Motivo',
    canceled: 'La factura está cancelada.',
    cancelPending: 'Cancelación solicitada: el receptor debe aceptarla.',
    cfdisTitle: 'CFDI de la cuenta',
    cfdiKind: 'Tipo',
    folio: 'Folio',
    files: 'Archivos',
    kind_customer: 'Factura',
    kind_global: 'Factura global',
    kind_credit_note: 'Nota de crédito',
    cfdiStatus_valid: 'Vigente',
    cfdiStatus_canceling: 'Cancelándose',
    cfdiStatus_cancel_pending: 'Cancelación en espera del receptor',
    cfdiStatus_canceled: 'Cancelada',
    cfdiStatus_stamping: 'Timbrándose',
    cfdiStatus_failed: 'Sin timbrar',
    cfdiCanceledMotive: 'Cancelada (motivo {motive})',
    cancelTitle: 'Cancelar la factura con folio {invoice}',
    confirmCancel: 'La factura con folio {invoice} se cancelará ante el SAT. No se puede deshacer.',
    confirmCancelAction: 'Sí, cancelar la factura',
    back: 'Volver',
    motive04Global: 'solo para la factura global',
    motiveHelp_01:
      'Captura los datos correctos del cliente: primero se emite la factura que la sustituye y después se cancela esta, relacionándolas.',
    motiveHelp_02: 'Después de cancelarla podrás emitir la factura corregida desde esta cuenta.',
    motiveHelp_03: 'Solo cuando la cuenta ya se canceló o se reembolsó por completo.',
    substituted: 'Factura {uuid} emitida; la que sustituye se está cancelando.',
    reissue: 'Emitir la factura corregida',
    motive_01: 'Comprobante emitido con errores con relación',
    motive_02: 'Comprobante emitido con errores sin relación',
    motive_03: 'No se llevó a cabo la operación',
    motive_04: 'Operación nominativa relacionada en una factura global',
  },
};
