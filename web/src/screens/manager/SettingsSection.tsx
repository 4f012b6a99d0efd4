import { useState } from 'preact/hooks';
import { api, type Body, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, FormActions, Notice, TextField } from '../../components/FormKit';
import { fromCents, parseCents } from '../../core/cents';
import { type Strings, useStrings } from '../../core/i18n';
import { loadBaseCurrency } from '../../core/money';
import { Check, centsText, useAction, useLoaded } from './shared';

type Settings = Ok<'/settings', 'get'>;
type Currency = NonNullable<Body<'/settings', 'put'>['base_currency']>;
type PaperLocale = Settings['locale'];

/** The languages receipts and chits print in, each named in its own language. */
const PAPER_LANGUAGES: { code: PaperLocale; name: string }[] = [
  { code: 'es-MX', name: 'Español (México)' },
  { code: 'en-US', name: 'English (US)' },
];
const MAX_TIP_SUGGESTIONS = 5;

const strings: Strings<
  | 'business'
  | 'businessName'
  | 'address'
  | 'taxId'
  | 'phone'
  | 'receiptFooter'
  | 'paperLanguage'
  | 'paperLanguageHelp'
  | 'tips'
  | 'tipSuggestions'
  | 'tipSuggestionsHelp'
  | 'maxTip'
  | 'maxTipHelp'
  | 'badTips'
  | 'badMaxTip'
  | 'taxes'
  | 'taxRate'
  | 'taxRateHelp'
  | 'pricesIncludeTax'
  | 'operation'
  | 'timezone'
  | 'timezoneHelp'
  | 'baseCurrency'
  | 'baseCurrencyHelp'
  | 'requireShift'
  | 'blindClose'
  | 'closePaidOrders'
  | 'save'
  | 'saved'
  | 'badTaxRate'
> = {
  en: {
    business: 'Business',
    businessName: 'Business name',
    address: 'Address',
    taxId: 'Tax ID',
    phone: 'Phone',
    receiptFooter: 'Receipt footer',
    paperLanguage: 'Language of the paper',
    paperLanguageHelp: 'Receipts, guest checks and kitchen chits print in it.',
    tips: 'Tips',
    tipSuggestions: 'Tip buttons (%)',
    tipSuggestionsHelp: "Up to five percentages the guest's phone offers, e.g. 10, 15, 20.",
    maxTip: 'Largest tip (%)',
    maxTipHelp: 'A tip is at most this percent of what the guest pays.',
    badTips: 'Enter up to five different whole percentages from 1 to 100, such as 10, 15, 20.',
    badMaxTip: 'Enter the largest tip as a whole percentage from 0 to 1000.',
    taxes: 'Tax',
    taxRate: 'Tax rate (%)',
    taxRateHelp: 'For example 16 or 7.5.',
    pricesIncludeTax: 'Menu prices include the tax',
    operation: 'Money and time',
    timezone: 'Time zone',
    timezoneHelp: 'Where the day starts for reports, e.g. America/Mexico_City.',
    baseCurrency: 'Base currency',
    baseCurrencyHelp: 'The currency of the prices. It cannot change while a bill is pending.',
    requireShift: 'Cash payments need an open shift',
    blindClose: 'Blind count: cashiers count the drawer before they see the expected cash',
    closePaidOrders: 'Close paid orders and free their tables by themselves (however they were paid)',
    save: 'Save settings',
    saved: 'Settings saved.',
    badTaxRate: 'Enter a tax rate such as 16 or 7.5.',
  },
  es: {
    business: 'Negocio',
    businessName: 'Nombre del negocio',
    address: 'Dirección',
    taxId: 'RFC',
    phone: 'Teléfono',
    receiptFooter: 'Pie del ticket',
    paperLanguage: 'Idioma del papel',
    paperLanguageHelp: 'En él se imprimen los tickets, las precuentas y las comandas.',
    tips: 'Propinas',
    tipSuggestions: 'Botones de propina (%)',
    tipSuggestionsHelp: 'Hasta cinco porcentajes que ofrece el teléfono del cliente, p. ej. 10, 15, 20.',
    maxTip: 'Propina máxima (%)',
    maxTipHelp: 'La propina es como mucho este porcentaje de lo que paga el cliente.',
    badTips: 'Escribe hasta cinco porcentajes enteros distintos, de 1 a 100, como 10, 15, 20.',
    badMaxTip: 'Escribe la propina máxima como un porcentaje entero de 0 a 1000.',
    taxes: 'Impuestos',
    taxRate: 'Tasa de impuesto (%)',
    taxRateHelp: 'Por ejemplo 16 o 7.5.',
    pricesIncludeTax: 'Los precios del menú incluyen el impuesto',
    operation: 'Dinero y hora',
    timezone: 'Zona horaria',
    timezoneHelp: 'Dónde empieza el día para los reportes, p. ej. America/Mexico_City.',
    baseCurrency: 'Moneda base',
    baseCurrencyHelp: 'La moneda de los precios. No puede cambiar mientras haya una cuenta pendiente.',
    requireShift: 'Los cobros en efectivo necesitan un turno abierto',
    blindClose: 'Arqueo ciego: el cajero cuenta la caja antes de ver el efectivo esperado',
    closePaidOrders: 'Cerrar solas las órdenes pagadas y liberar sus mesas (se paguen como se paguen)',
    save: 'Guardar ajustes',
    saved: 'Ajustes guardados.',
    badTaxRate: 'Escribe una tasa como 16 o 7.5.',
  },
};

async function loadSettings() {
  const [settings, currencies] = await Promise.all([ok(api.GET('/settings')), ok(api.GET('/currencies'))]);
  return { settings, currencies };
}

/** The tip buttons as typed ("10, 15, 20"); undefined unless they are what the API takes. */
function parseTipSuggestions(text: string): number[] | undefined {
  const percents = text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);
  const isValid =
    percents.length <= MAX_TIP_SUGGESTIONS &&
    new Set(percents).size === percents.length &&
    percents.every((percent) => Number.isInteger(percent) && percent >= 1 && percent <= 100);
  return isValid ? percents : undefined;
}

function parseMaxTip(text: string): number | undefined {
  const percent = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(percent) && percent >= 0 && percent <= 1000
    ? percent
    : undefined;
}

/** The business settings of GET/PUT /settings: receipts and their language, tax, tips, time zone and base currency. */
export function SettingsSection() {
  const loaded = useLoaded(loadSettings);
  return (
    <div class="manager-sections">
      <Alert message={loaded.error} />
      {loaded.data && (
        <SettingsForm
          settings={loaded.data.settings}
          currencies={loaded.data.currencies.map((currency) => currency.code as Currency)}
        />
      )}
    </div>
  );
}

function SettingsForm({ settings, currencies }: { settings: Settings; currencies: Currency[] }) {
  const t = useStrings(strings);
  // What the server holds: only the fields changed since are sent, so two managers editing
  // different fields do not undo each other's change.
  const [stored, setStored] = useState(settings);
  const [form, setForm] = useState({
    ...settings,
    tax_rate: centsText(Math.round(settings.tax_rate * 100)).replace(/\.00$/, ''),
    tip_suggestions: settings.tip_suggestions.join(', '),
    max_tip_percent: String(settings.max_tip_percent),
  });
  const [saved, setSaved] = useState(false);
  const [invalid, setInvalid] = useState<string>();
  const action = useAction();
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const taxRate = parseCents(form.tax_rate);
    if (taxRate === undefined) {
      setInvalid(t.badTaxRate);
      return;
    }
    const tipSuggestions = parseTipSuggestions(form.tip_suggestions);
    if (!tipSuggestions) {
      setInvalid(t.badTips);
      return;
    }
    const maxTipPercent = parseMaxTip(form.max_tip_percent);
    if (maxTipPercent === undefined) {
      setInvalid(t.badMaxTip);
      return;
    }
    setInvalid(undefined);
    const wanted: Settings = {
      ...form,
      tax_rate: fromCents(taxRate),
      tip_suggestions: tipSuggestions,
      max_tip_percent: maxTipPercent,
    };
    // Compared as JSON: the tip buttons are a list, equal by content.
    const changes = Object.fromEntries(
      Object.entries(wanted).filter(
        ([key, value]) => JSON.stringify(stored[key as keyof Settings]) !== JSON.stringify(value),
      ),
    ) as Body<'/settings', 'put'>;
    const done = await action.run(async () => {
      setStored(await writeOnce(() => api.PUT('/settings', { body: changes })));
      if (changes.base_currency) await loadBaseCurrency().catch(() => undefined);
    });
    setSaved(done);
  };
  const text = (
    key:
      | 'business_name'
      | 'address'
      | 'tax_id'
      | 'phone'
      | 'timezone'
      | 'tip_suggestions'
      | 'max_tip_percent',
    label: string,
    help?: string,
    input?: { inputMode: 'numeric' | 'text'; required: boolean },
  ) => (
    <TextField
      prefix="settings"
      name={key}
      label={label}
      value={form[key]}
      onInput={(value) => set(key, value)}
      {...(input && { input })}
      help={help}
    />
  );
  const percentField = (key: 'tip_suggestions' | 'max_tip_percent', label: string, help: string) =>
    text(key, label, help, {
      inputMode: key === 'max_tip_percent' ? 'numeric' : 'text',
      required: key === 'max_tip_percent',
    });
  return (
    <form class="manager-sections" aria-label={t.save} onSubmit={submit}>
      <section class="card stack" aria-labelledby="settings-business">
        <h2 id="settings-business">{t.business}</h2>
        <div class="fields">
          {text('business_name', t.businessName)}
          {text('address', t.address)}
          {text('tax_id', t.taxId)}
          {text('phone', t.phone)}
        </div>
        <Field id="settings-receipt_footer" label={t.receiptFooter}>
          <textarea
            id="settings-receipt_footer"
            rows={2}
            value={form.receipt_footer}
            onInput={(event) => set('receipt_footer', event.currentTarget.value)}
          />
        </Field>
        <Field id="settings-locale" label={t.paperLanguage}>
          <select
            id="settings-locale"
            aria-describedby="settings-locale-help"
            value={form.locale}
            onChange={(event) =>
              set(
                'locale',
                PAPER_LANGUAGES.find(({ code }) => code === event.currentTarget.value)?.code ?? form.locale,
              )
            }
          >
            {PAPER_LANGUAGES.map(({ code, name }) => (
              <option key={code} value={code} lang={code}>
                {name}
              </option>
            ))}
          </select>
          <small id="settings-locale-help" class="muted">
            {t.paperLanguageHelp}
          </small>
        </Field>
      </section>
      <section class="card stack" aria-labelledby="settings-taxes">
        <h2 id="settings-taxes">{t.taxes}</h2>
        <div class="fields">
          <TextField
            prefix="settings"
            name="tax_rate"
            label={t.taxRate}
            value={form.tax_rate}
            onInput={(value) => set('tax_rate', value)}
            input={{ inputMode: 'decimal', required: true }}
            help={t.taxRateHelp}
          />
        </div>
        <Check
          id="settings-prices_include_tax"
          checked={form.prices_include_tax}
          onChange={(on) => set('prices_include_tax', on)}
        >
          {t.pricesIncludeTax}
        </Check>
      </section>
      <section class="card stack" aria-labelledby="settings-tips">
        <h2 id="settings-tips">{t.tips}</h2>
        <div class="fields">
          {percentField('tip_suggestions', t.tipSuggestions, t.tipSuggestionsHelp)}
          {percentField('max_tip_percent', t.maxTip, t.maxTipHelp)}
        </div>
      </section>
      <section class="card stack" aria-labelledby="settings-operation">
        <h2 id="settings-operation">{t.operation}</h2>
        <div class="fields">
          {text('timezone', t.timezone, t.timezoneHelp)}
          <Field id="settings-base_currency" label={t.baseCurrency}>
            <select
              id="settings-base_currency"
              aria-describedby="settings-base_currency-help"
              value={form.base_currency}
              onChange={(event) => set('base_currency', event.currentTarget.value as Currency)}
            >
              {currencies.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
            <small id="settings-base_currency-help" class="muted">
              {t.baseCurrencyHelp}
            </small>
          </Field>
        </div>
        <Check
          id="settings-require_shift_for_cash"
          checked={form.require_shift_for_cash}
          onChange={(on) => set('require_shift_for_cash', on)}
        >
          {t.requireShift}
        </Check>
        <Check
          id="settings-blind_shift_close"
          checked={form.blind_shift_close}
          onChange={(on) => set('blind_shift_close', on)}
        >
          {t.blindClose}
        </Check>
        <Check
          id="settings-close_paid_orders"
          checked={form.close_paid_orders}
          onChange={(on) => set('close_paid_orders', on)}
        >
          {t.closePaidOrders}
        </Check>
      </section>
      <Alert message={invalid ?? action.error} />
      <Notice message={saved ? t.saved : undefined} />
      <FormActions submitLabel={t.save} busy={action.busy} />
    </form>
  );
}
