import { useState } from 'preact/hooks';
import { api, createOnce, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Field, TextField } from '../../components/FormKit';
import { format, useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { PaymentMethodsPanel } from './PaymentMethodsPanel';
import { PrintJobsPanel } from './PrintJobsPanel';
import {
  EMPTY_PRINTER,
  type Printer,
  type PrinterForm,
  printerBody,
  printerStrings,
  WIDTHS,
} from './printers-model';
import { StationSelect, stationsOf } from './StationSelect';
import { DeleteButton, useCommonStrings, useFailureMessage, useLoaded } from './shared';

/** A kitchen printer prints one station's dishes: the stations the dish categories are sent to. */
async function loadStations() {
  const categories = await ok(api.GET('/categories', { params: { query: { type: 'dish' } } }));
  return stationsOf((categories ?? []).map((category) => category.station));
}

/** The restaurant's printers (the receipt printer at the till, the kitchen's) with their jobs, and its payment methods. */
export function PrintersSection() {
  const t = useStrings(printerStrings);
  const common = useCommonStrings();
  const failureMessage = useFailureMessage();
  const serverText = useServerText();
  const stations = useLoaded(loadStations);
  const printers = useLoaded(async () => (await ok(api.GET('/printers'))) ?? []);
  const [form, setForm] = useState<PrinterForm>(EMPTY_PRINTER);
  const [editing, setEditing] = useState<Printer>();
  const [watching, setWatching] = useState<Printer>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const set = <K extends keyof PrinterForm>(key: K, value: PrinterForm[K]) =>
    setForm({ ...form, [key]: value });

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await printers.reload();
    } catch (failure) {
      setError(failureMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const body = printerBody(form);
      if (editing)
        await writeOnce(() => api.PUT('/printers/{id}', { params: { path: { id: editing.id } }, body }));
      else
        await createOnce((key) =>
          api.POST('/printers', { params: { header: { 'idempotency-key': key } }, body }),
        );
      setForm(EMPTY_PRINTER);
      setEditing(undefined);
    });
  };
  const edit = (printer: Printer) => {
    setEditing(printer);
    const { name, host, role, width } = printer;
    setForm({ name, host, role, width, port: String(printer.port), station: printer.station ?? '' });
  };
  const remove = (printer: Printer) =>
    void run(async () => {
      await writeOnce(() => api.DELETE('/printers/{id}', { params: { path: { id: printer.id } } }));
      if (watching?.id === printer.id) setWatching(undefined);
    });

  return (
    <div class="manager-sections">
      <section class="card stack" aria-labelledby="printers-title">
        <h2 id="printers-title">{t.printers}</h2>
        <Alert message={printers.error ?? error} />
        {printers.data?.length === 0 && <p class="muted">{t.noPrinters}</p>}
        {printers.data && printers.data.length > 0 && (
          <table aria-label={t.printers}>
            <thead>
              <tr>
                <th scope="col">{t.name}</th>
                <th scope="col">{t.role}</th>
                <th scope="col">{t.host}</th>
                <th scope="col">{common.actions}</th>
              </tr>
            </thead>
            <tbody>
              {printers.data.map((printer) => (
                <tr key={printer.id}>
                  <td>{printer.name}</td>
                  <td>
                    {printer.role === 'receipt' ? t.role_receipt : t.role_kitchen}
                    {printer.station ? ` · ${serverText(printer.station)}` : ''}
                  </td>
                  <td>{`${printer.host}:${printer.port}`}</td>
                  <td class="row">
                    <button type="button" disabled={busy} onClick={() => setWatching(printer)}>
                      {t.jobs}
                      <span class="visually-hidden"> {printer.name}</span>
                    </button>
                    <button type="button" disabled={busy} onClick={() => edit(printer)}>
                      {common.edit}
                      <span class="visually-hidden"> {printer.name}</span>
                    </button>
                    <DeleteButton target={printer.name} disabled={busy} onConfirm={() => remove(printer)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form class="stack" aria-label={editing ? t.editPrinter : t.addPrinter} onSubmit={submit}>
          <div class="fields">
            <TextField
              prefix="printer"
              name="name"
              label={t.name}
              value={form.name}
              onInput={(value) => set('name', value)}
              input={{ required: true, maxLength: 100 }}
            />
            <TextField
              prefix="printer"
              name="host"
              label={t.host}
              value={form.host}
              onInput={(value) => set('host', value)}
              input={{ required: true, maxLength: 253 }}
            />
            <TextField
              prefix="printer"
              name="port"
              label={t.port}
              value={form.port}
              onInput={(value) => set('port', value)}
              input={{ required: true, inputMode: 'numeric' }}
            />
            <Field id="printer-role" label={t.role}>
              <select
                id="printer-role"
                value={form.role}
                onChange={(e) => set('role', e.currentTarget.value === 'kitchen' ? 'kitchen' : 'receipt')}
              >
                <option value="receipt">{t.role_receipt}</option>
                <option value="kitchen">{t.role_kitchen}</option>
              </select>
            </Field>
            <Field id="printer-width" label={t.width}>
              <select
                id="printer-width"
                value={String(form.width)}
                onChange={(e) =>
                  set('width', WIDTHS.find((width) => String(width) === e.currentTarget.value) ?? 48)
                }
              >
                {WIDTHS.map((width) => (
                  <option key={width} value={String(width)}>
                    {width}
                  </option>
                ))}
              </select>
            </Field>
            <Field id="printer-station" label={t.station}>
              <StationSelect
                id="printer-station"
                value={form.role === 'kitchen' ? form.station : ''}
                stations={stations.data ?? stationsOf([])}
                emptyLabel={t.everyStation}
                disabled={form.role !== 'kitchen'}
                onChange={(station) => set('station', station)}
              />
            </Field>
          </div>
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              {editing ? t.editPrinter : t.addPrinter}
            </button>
            {editing && (
              <button
                type="button"
                onClick={() => {
                  setEditing(undefined);
                  setForm(EMPTY_PRINTER);
                }}
              >
                {common.cancel}
              </button>
            )}
          </div>
        </form>
      </section>
      {watching && (
        <PrintJobsPanel
          key={watching.id}
          printer={watching}
          title={format(t.jobsOf, { name: watching.name })}
        />
      )}
      <PaymentMethodsPanel />
    </div>
  );
}
