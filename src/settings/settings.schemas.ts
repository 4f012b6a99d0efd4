import { type Static, Type } from 'typebox';
import { CENTS_KEYWORD } from '../core/money';
import { OptionalText } from '../core/schemas';
import { PAPER_LOCALES } from './paper-locales';

const Text = (maxLength: number, example: string) => Type.String({ maxLength, example });

export const CurrencyCodeSchema = Type.Union(
  [Type.Literal('MXN'), Type.Literal('USD'), Type.Literal('BTC')],
  {
    description: 'The currency prices are in; refused while any bill is pending',
  },
);

const settingsProperties = {
  business_name: Text(200, 'La Esquina'),
  address: Text(500, 'Av. Juárez 10, Centro, CDMX'),
  tax_id: Text(50, 'ESQ010203AB1'),
  phone: Text(50, '+52 55 1234 5678'),
  receipt_footer: Text(500, '¡Gracias por su visita!'),
  tax_rate: Type.Number({
    minimum: 0,
    maximum: 100,
    multipleOf: 0.01,
    [CENTS_KEYWORD]: true,
    description: 'Percent, at most two decimals: 16 means 16%',
    example: 16,
  }),
  prices_include_tax: Type.Boolean({ description: 'Menu prices already include the tax (default true)' }),
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'IANA time zone: where days start for reports and date filters',
    example: 'America/Mexico_City',
  }),
  base_currency: CurrencyCodeSchema,
  require_shift_for_cash: Type.Boolean({ description: 'Cash payments and refunds need an open shift' }),
  webhooks_block_private_targets: Type.Boolean({
    description:
      'Webhooks may not target loopback, link-local or private addresses: refused when saved, and at ' +
      'each delivery after the name is resolved (default false)',
  }),
  locale: Type.Union([Type.Literal(PAPER_LOCALES[0]), Type.Literal(PAPER_LOCALES[1])], {
    description:
      'The language receipts, guest checks and kitchen chits print in, and how they write amounts ' +
      '(default es-MX when the first base currency is MXN, en-US otherwise)',
    example: 'es-MX',
  }),
  tip_suggestions: Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
    maxItems: 5,
    uniqueItems: true,
    description: 'Tip percentages the guest page offers as buttons, besides "other" (default 10, 15, 20)',
    example: [10, 15, 20],
  }),
  max_tip_percent: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: "A guest's tip is at most this percent of the amount they pay (default 100)",
    example: 100,
  }),
  blind_shift_close: Type.Boolean({
    description:
      'Blind count at shift close: the expected cash of an open shift is hidden from users without ' +
      'shifts.manage until the shift is closed; the close answer still carries expected and ' +
      'difference (default false)',
  }),
  close_paid_orders: Type.Boolean({
    description:
      'An order closes itself and frees its table once every bill is paid and nothing is owed, ' +
      'however it was paid (cash, card, the till or a guest by Lightning); off: the cashier closes it ' +
      '(POST /orders/{id}/close) (default true)',
  }),
};

export const SettingsView = Type.Object(settingsProperties);
export type SettingsView = Static<typeof SettingsView>;

/** The texts a receipt may leave out: null (or empty) means none. */
const CLEARABLE_TEXTS = ['address', 'tax_id', 'phone', 'receipt_footer'] as const;
type ClearableText = (typeof CLEARABLE_TEXTS)[number];

/** Every field is optional: the ones sent change, the others stay. */
export const UpdateSettingsBody = Type.Object(
  Object.fromEntries(
    Object.entries(settingsProperties).map(([name, schema]) => [
      name,
      (CLEARABLE_TEXTS as readonly string[]).includes(name)
        ? OptionalText(schema, 'null or empty: none')
        : Type.Optional(schema),
    ]),
  ) as {
    [K in Exclude<keyof typeof settingsProperties, ClearableText>]: ReturnType<
      typeof Type.Optional<(typeof settingsProperties)[K]>
    >;
  } & { [K in ClearableText]: ReturnType<typeof OptionalText<(typeof settingsProperties)[K]>> },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>;
