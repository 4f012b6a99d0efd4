import { type Static, Type } from 'typebox';

const Digits = (length: number, example: string, description: string) =>
  Type.String({ pattern: `^\\d{${length}}$`, example, description });

const RfcSchema = Type.String({
  minLength: 12,
  maxLength: 13,
  example: 'EKU9003173C9',
  description: 'RFC: 12 characters for a company, 13 for a person; its check digit is verified',
});

const fiscalSettingsProperties = {
  enabled: Type.Boolean({ description: 'E-invoicing on; needs POS_PAC_KEY on the server' }),
  rfc: Type.Union([RfcSchema, Type.Literal('')]),
  legal_name: Type.String({ maxLength: 300, example: 'LA ESQUINA' }),
  tax_regime: Digits(3, '601', 'SAT c_RegimenFiscal of the restaurant'),
  postal_code: Type.Union([Digits(5, '06000', 'Postal code of the place of issue'), Type.Literal('')]),
  series: Type.String({ maxLength: 25, pattern: '^[A-Za-z0-9]*$', example: 'A' }),
  product_key: Digits(8, '90101501', 'SAT c_ClaveProdServ of a plate unless its category or dish has one'),
  unit_key: Type.String({ minLength: 2, maxLength: 3, pattern: '^[A-Z0-9]+$', example: 'E48' }),
  global_periodicity: Type.Union(
    [Type.Literal('day'), Type.Literal('week'), Type.Literal('fortnight'), Type.Literal('month')],
    { description: "Must match the receipts' period set in the PAC's dashboard" },
  ),
  payment_forms: Type.Record(
    Type.String({ pattern: '^[a-z][a-z0-9_-]{0,31}$' }),
    Digits(2, '01', 'SAT c_FormaPago'),
    {
      additionalProperties: false,
      maxProperties: 50,
      description: 'Payment method code → SAT c_FormaPago; a method without one blocks invoicing its bills',
      example: { cash: '01', card: '04', transfer: '03' },
    },
  ),
};

export const FiscalSettingsView = Type.Object(
  {
    ...fiscalSettingsProperties,
    pac_configured: Type.Boolean({ description: 'Whether the server has a PAC key (POS_PAC_KEY)' }),
  },
  { additionalProperties: false },
);
export type FiscalSettingsView = Static<typeof FiscalSettingsView>;

export const UpdateFiscalSettingsBody = Type.Partial(Type.Object(fiscalSettingsProperties), {
  additionalProperties: false,
  minProperties: 1,
});
export type UpdateFiscalSettingsBody = Static<typeof UpdateFiscalSettingsBody>;

export const InvoiceBody = Type.Object(
  {
    customer: Type.Object(
      {
        rfc: RfcSchema,
        legal_name: Type.String({ minLength: 1, maxLength: 300, example: 'ESCUELA KEMPER URGATE' }),
        tax_regime: Digits(3, '601', 'SAT c_RegimenFiscal of the receiver'),
        postal_code: Digits(5, '42501', "The receiver's fiscal postal code"),
        email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
      },
      { additionalProperties: false },
    ),
    use: Type.String({ minLength: 3, maxLength: 4, example: 'G03', description: 'SAT c_UsoCFDI' }),
    replaces: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "Our id of the bill's valid invoice that this one substitutes (`invoices.cancel`): the new CFDI is " +
          'issued related to it by 04, then the old one is canceled with motive 01 naming it',
      }),
    ),
  },
  { additionalProperties: false },
);
export type InvoiceBody = Static<typeof InvoiceBody>;

export const InvoiceView = Type.Object({
  id: Type.String({ description: 'Ours' }),
  uuid: Type.String({ description: "The SAT's folio fiscal" }),
  folio: Type.Union([Type.String(), Type.Null()], { description: 'Series and number as printed on it' }),
  kind: Type.Union([Type.Literal('customer'), Type.Literal('global'), Type.Literal('credit_note')]),
  status: Type.Union([
    Type.Literal('valid'),
    Type.Literal('canceling'),
    Type.Literal('cancel_pending'),
    Type.Literal('canceled'),
  ]),
  customer_rfc: Type.String(),
  customer_name: Type.String(),
  total: Type.Number(),
  ticket_id: Type.Union([Type.String(), Type.Null()]),
  period_start: Type.Union([Type.String(), Type.Null()]),
  period_end: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.Integer(),
});
export type InvoiceView = Static<typeof InvoiceView>;

export const TicketFiscalView = Type.Object({
  status: Type.Union([
    Type.Literal('none'),
    Type.Literal('pending'),
    Type.Literal('receipt'),
    Type.Literal('invoiced'),
    Type.Literal('in_global'),
    Type.Literal('canceled'),
    Type.Literal('failed'),
  ]),
  receipt_id: Type.Union([Type.String(), Type.Null()], { description: "The PAC's" }),
  self_invoice_url: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.Integer(), Type.Null()]),
  invoice: Type.Union([
    Type.Object({
      id: Type.String(),
      uuid: Type.String(),
      status: Type.String(),
      customer_rfc: Type.String(),
      total: Type.Number(),
    }),
    Type.Null(),
  ]),
  error: Type.Union([Type.String(), Type.Null()]),
  cfdis: Type.Array(
    Type.Object({
      invoice_id: Type.Union([Type.String(), Type.Null()], {
        description: 'Ours, for /invoices/{id}/pdf and /xml; null for a credit note not yet stamped',
      }),
      kind: Type.Union([Type.Literal('customer'), Type.Literal('global'), Type.Literal('credit_note')]),
      folio: Type.Union([Type.String(), Type.Null()]),
      uuid: Type.Union([Type.String(), Type.Null()]),
      status: Type.Union([
        Type.Literal('valid'),
        Type.Literal('canceling'),
        Type.Literal('cancel_pending'),
        Type.Literal('canceled'),
        Type.Literal('stamping'),
        Type.Literal('failed'),
      ]),
      total: Type.Number(),
      cancel_motive: Type.Union([Type.String(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      created_at: Type.Integer(),
    }),
    {
      description:
        'Every CFDI of the bill, oldest first: its invoices (a canceled one, the one that replaced it), the ' +
        'global invoice it is in, and the credit notes of its refunds (`stamping` while the PAC works, ' +
        '`failed` with the reason)',
    },
  ),
});
export type TicketFiscalView = Static<typeof TicketFiscalView>;

export const CancelInvoiceBody = Type.Object(
  {
    motive: Type.Union([Type.Literal('01'), Type.Literal('02'), Type.Literal('03'), Type.Literal('04')]),
    substitution: Type.Optional(
      Type.String({
        pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
        description: 'UUID of the CFDI that replaces it; motive 01 only',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CancelInvoiceBody = Static<typeof CancelInvoiceBody>;

const LocalDate = Type.String({ format: 'date', example: '2026-11-01' });

export const GlobalInvoiceBody = Type.Object(
  { from: LocalDate, to: LocalDate },
  { additionalProperties: false },
);
export type GlobalInvoiceBody = Static<typeof GlobalInvoiceBody>;

export const GlobalPeriodView = Type.Object({
  period_start: Type.String(),
  period_end: Type.String(),
  periodicity: Type.String(),
  state: Type.Union([
    Type.Literal('due'),
    Type.Literal('issuing'),
    Type.Literal('issued'),
    Type.Literal('empty'),
    Type.Literal('refused'),
  ]),
  invoice: Type.Union([InvoiceView, Type.Null()], { description: 'The first of `invoices`' }),
  invoices: Type.Array(InvoiceView, {
    description: 'More than one when the period held more receipts than one global invoice takes (5,000)',
  }),
  error: Type.Union([Type.String(), Type.Null()]),
});
export type GlobalPeriodView = Static<typeof GlobalPeriodView>;

const CodeName = Type.Object({ code: Type.String(), name: Type.String() });

export const FiscalCatalogsView = Type.Object({
  tax_regimes: Type.Array(
    Type.Object({
      ...CodeName.properties,
      holder: Type.Union([Type.Literal('person'), Type.Literal('company'), Type.Literal('both')]),
    }),
  ),
  cfdi_uses: Type.Array(Type.Object({ ...CodeName.properties, regimes: Type.Array(Type.String()) })),
  payment_forms: Type.Array(CodeName),
});
export type FiscalCatalogsView = Static<typeof FiscalCatalogsView>;

export const FiscalReportQuery = Type.Object(
  { from: LocalDate, to: LocalDate },
  { additionalProperties: false },
);
export type FiscalReportQuery = Static<typeof FiscalReportQuery>;

export const FiscalReportRow = Type.Object({
  day: Type.String({ example: '2026-11-26' }),
  bills: Type.Integer(),
  total: Type.Number({ description: 'What the bills paid this day kept: payments less refunds, tips apart' }),
  base: Type.Number({ description: 'total with IVA backed out' }),
  iva: Type.Number(),
  tips: Type.Number({ description: 'Never on a CFDI: the staff’s' }),
  invoiced: Type.Number({ description: 'In invoices to a customer' }),
  in_global: Type.Number({ description: 'In a global invoice' }),
  pending: Type.Number({
    description: 'Receipts not yet in an invoice, and bills waiting for their receipt',
  }),
  failed: Type.Number({ description: 'Bills whose receipt the PAC refused (see GET /tickets/{id}/fiscal)' }),
  canceled: Type.Number({
    description: 'Bills whose invoice (alone or global) was canceled and nothing valid replaces yet',
  }),
  untracked: Type.Number({ description: 'Bills paid while e-invoicing was off' }),
});
export type FiscalReportRow = Static<typeof FiscalReportRow>;

export const GuestInvoiceOffer = Type.Union(
  [
    Type.Object({
      status: Type.Union(
        [
          Type.Literal('pending'),
          Type.Literal('available'),
          Type.Literal('invoiced'),
          Type.Literal('unavailable'),
          Type.Literal('canceled'),
        ],
        {
          description:
            '`available`: the guest may ask for it (on the PAC’s self-invoice page when `self_invoice_url` is ' +
            'set, else with POST /guest/{token}/invoice); `pending`: the receipt is being made; `invoiced`: ' +
            'nothing of the customer is shown (the PDF and XML need the key POST /guest/{token}/invoice gave ' +
            'the phone that asked); `unavailable`: in a global invoice; `canceled`: the bill was canceled or ' +
            'refunded, or its invoice canceled as an operation that did not happen (motive 03)',
        },
      ),
      self_invoice_url: Type.Union([Type.String(), Type.Null()]),
      expires_at: Type.Union([Type.Integer(), Type.Null()]),
      uuid: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ],
  {
    description: 'The e-invoice offer of a paid bill; null while e-invoicing is off or the bill is not paid',
  },
);
export type GuestInvoiceOffer = Static<typeof GuestInvoiceOffer>;
