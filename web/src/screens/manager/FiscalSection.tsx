import { useState } from 'preact/hooks';
import { api, type Body, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, FormActions, Notice, TextField } from '../../components/FormKit';
import { fiscalStrings } from '../../components/fiscal/fiscal-strings';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useServerText } from '../../core/server-text';
import { Check, TableScroll, todayIn, useAction, useLoaded } from './shared';

type FiscalSettings = Ok<'/settings/fiscal', 'get'>;
type Periodicity = FiscalSettings['global_periodicity'];
const PERIODICITIES: Periodicity[] = ['day', 'week', 'fortnight', 'month'];

async function loadFiscal() {
  const [settings, methods, catalogs, periods, business] = await Promise.all([
    ok(api.GET('/settings/fiscal')),
    ok(api.GET('/payment-methods')),
    ok(api.GET('/fiscal/catalogs')),
    ok(api.GET('/invoices/global')),
    ok(api.GET('/settings')),
  ]);
  return { settings, methods, catalogs, periods, timeZone: business.timezone };
}

/** E-invoicing: the restaurant's fiscal data and the SAT codes it uses, then the global invoice. */
export function FiscalSection() {
  const loaded = useLoaded(loadFiscal);
  return (
    <div class="manager-sections">
      <Alert message={loaded.error} />
      {loaded.data && <FiscalSettingsForm {...loaded.data} onSaved={loaded.reload} />}
      {loaded.data?.settings.enabled && (
        <GlobalInvoicePanel
          periods={loaded.data.periods}
          timeZone={loaded.data.timeZone}
          onIssued={loaded.reload}
        />
      )}
    </div>
  );
}

function FiscalSettingsForm({
  settings,
  methods,
  catalogs,
  onSaved,
}: Awaited<ReturnType<typeof loadFiscal>> & { onSaved: () => Promise<void> }) {
  const t = useStrings(fiscalStrings);
  const serverText = useServerText();
  const [form, setForm] = useState(settings);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const set = <K extends keyof FiscalSettings>(key: K, value: FiscalSettings[K]) => {
    setSaved(false);
    setForm({ ...form, [key]: value });
  };
  const setForm_ = (method: string, code: string) => {
    const forms = { ...form.payment_forms };
    if (code === '') delete forms[method];
    else forms[method] = code;
    set('payment_forms', forms);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    const { pac_configured: _configured, ...body } = form;
    const done = await action.run(async () => {
      setForm(
        await writeOnce(() => api.PUT('/settings/fiscal', { body: body as Body<'/settings/fiscal', 'put'> })),
      );
    });
    setSaved(done);
    // Turning e-invoicing on brings the global invoice's panel, which shows only while it is on.
    if (done) await onSaved();
  };
  const text = (
    key: 'rfc' | 'legal_name' | 'postal_code' | 'series' | 'product_key' | 'unit_key',
    label: string,
  ) => (
    <TextField
      prefix="fiscal"
      name={key}
      label={label}
      value={form[key]}
      onInput={(value) => set(key, value)}
    />
  );

  return (
    <form class="card stack" aria-labelledby="fiscal-settings" onSubmit={submit}>
      <h2 id="fiscal-settings">{t.settingsTitle}</h2>
      {!settings.pac_configured && (
        <p class="error" role="alert">
          {t.pacMissing}
        </p>
      )}
      <Check id="fiscal-enabled" checked={form.enabled} onChange={(on) => set('enabled', on)}>
        {t.enabled}
      </Check>
      <div class="fields">
        {text('rfc', t.restaurantRfc)}
        {text('legal_name', t.legalName)}
        <Field id="fiscal-tax_regime" label={t.regime}>
          <select
            id="fiscal-tax_regime"
            value={form.tax_regime}
            onChange={(event) => set('tax_regime', event.currentTarget.value)}
          >
            {catalogs.tax_regimes.map((regime) => (
              <option key={regime.code} value={regime.code}>
                {regime.code} · {regime.name}
              </option>
            ))}
          </select>
        </Field>
        {text('postal_code', t.postalCode)}
        {text('series', t.series)}
        {text('product_key', t.productKey)}
        {text('unit_key', t.unitKey)}
        <Field id="fiscal-global_periodicity" label={t.periodicity}>
          <select
            id="fiscal-global_periodicity"
            aria-describedby="fiscal-global_periodicity-help"
            value={form.global_periodicity}
            onChange={(event) => set('global_periodicity', event.currentTarget.value as Periodicity)}
          >
            {PERIODICITIES.map((period) => (
              <option key={period} value={period}>
                {t[`period_${period}`]}
              </option>
            ))}
          </select>
          <small id="fiscal-global_periodicity-help" class="muted">
            {t.periodicityHelp}
          </small>
        </Field>
      </div>
      <fieldset class="stack">
        <legend>{t.paymentForms}</legend>
        <small class="muted">{t.paymentFormsHelp}</small>
        <div class="fields">
          {methods.map((method) => (
            <Field key={method.code} id={`fiscal-form-${method.code}`} label={serverText(method.name)}>
              <select
                id={`fiscal-form-${method.code}`}
                value={form.payment_forms[method.code] ?? ''}
                onChange={(event) => setForm_(method.code, event.currentTarget.value)}
              >
                <option value="">{t.noForm}</option>
                {catalogs.payment_forms.map((paymentForm) => (
                  <option key={paymentForm.code} value={paymentForm.code}>
                    {paymentForm.code} · {paymentForm.name}
                  </option>
                ))}
              </select>
            </Field>
          ))}
        </div>
      </fieldset>
      <Alert message={action.error} />
      <Notice message={saved ? t.saved : undefined} />
      <FormActions submitLabel={t.save} busy={action.busy} />
    </form>
  );
}

type Period = Ok<'/invoices/global', 'get'>[number];

/** The last periods of the global invoice, and issuing one by hand (a closed period, within 72 hours). */
function GlobalInvoicePanel({
  periods,
  timeZone,
  onIssued,
}: {
  periods: Period[];
  timeZone: string;
  onIssued: () => Promise<void>;
}) {
  const t = useStrings(fiscalStrings);
  const serverText = useServerText();
  const money = useMoney();
  const yesterday = dayBefore(todayIn(timeZone));
  const [from, setFrom] = useState(yesterday);
  const [to, setTo] = useState(yesterday);
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  const issue = async (event: Event) => {
    event.preventDefault();
    setNotice(undefined);
    await action.run(async () => {
      const invoice = await writeOnce(() => api.POST('/invoices/global', { body: { from, to } }));
      setNotice(
        format(t.globalIssued, { uuid: invoice.uuid, total: money(Math.round(invoice.total * 100)) }),
      );
      await onIssued();
    });
  };
  return (
    <section class="card stack" aria-labelledby="global-invoice">
      <h2 id="global-invoice">{t.globalTitle}</h2>
      <p class="muted">{t.globalHelp}</p>
      <form class="row" aria-label={t.issueGlobal} onSubmit={issue}>
        <Field id="global-from" label={t.from}>
          <input
            id="global-from"
            type="date"
            value={from}
            onInput={(event) => setFrom(event.currentTarget.value)}
          />
        </Field>
        <Field id="global-to" label={t.to}>
          <input
            id="global-to"
            type="date"
            value={to}
            onInput={(event) => setTo(event.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={action.busy}>
          {t.issueGlobal}
        </button>
      </form>
      <Alert message={action.error} />
      <Notice message={notice} />
      {periods.length === 0 ? (
        <p class="muted">{t.noPeriods}</p>
      ) : (
        <TableScroll label={t.globalTitle}>
          <table class="list global-periods">
            <thead>
              <tr>
                <th>{t.period}</th>
                <th>{t.state}</th>
                <th>{t.uuid}</th>
                <th class="num">{t.total}</th>
              </tr>
            </thead>
            <tbody>
              {periods.map((period) => (
                <tr key={period.period_start} data-state={period.state}>
                  <td>
                    {period.period_start} – {period.period_end}
                  </td>
                  <td>{t[`periodState_${period.state}`]}</td>
                  <td>
                    {period.invoices.length > 0
                      ? // A period of more than 5,000 receipts has one global invoice per part.
                        period.invoices.map((invoice) => (
                          <a
                            key={invoice.id}
                            class="global-part"
                            href={`/invoices/${invoice.id}/pdf`}
                            download
                          >
                            {invoice.uuid}
                          </a>
                        ))
                      : serverText(period.error ?? '')}
                  </td>
                  <td class="num">
                    {period.invoices.length > 0
                      ? money(
                          period.invoices.reduce((sum, invoice) => sum + Math.round(invoice.total * 100), 0),
                        )
                      : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** The local date before a `YYYY-MM-DD` one: the last closed day, which the panel offers first. */
function dayBefore(date: string): string {
  return new Date(Date.parse(`${date}T12:00:00Z`) - 24 * 60 * 60_000).toISOString().slice(0, 10);
}
