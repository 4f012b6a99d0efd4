import { api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { type Printer, printerStrings } from './printers-model';
import { useLoaded } from './shared';

/** A printer's latest jobs and their state (`GET /printers/{id}/jobs`), refreshed on demand. */
export function PrintJobsPanel({ printer, title }: { printer: Printer; title: string }) {
  const t = useStrings(printerStrings);
  const jobs = useLoaded(
    async () =>
      (await ok(
        api.GET('/printers/{id}/jobs', {
          params: { path: { id: printer.id }, query: { limit: 20, offset: 0 } },
        }),
      )) ?? [],
    [printer.id],
  );
  return (
    <section class="card stack" aria-labelledby="print-jobs-title">
      <h2 id="print-jobs-title">{title}</h2>
      <Alert message={jobs.error} />
      <div class="row">
        <button type="button" onClick={() => void jobs.reload()}>
          {t.refresh}
        </button>
      </div>
      {jobs.data?.length === 0 && <p class="muted">{t.noJobs}</p>}
      {jobs.data && jobs.data.length > 0 && (
        <table aria-label={title}>
          <thead>
            <tr>
              <th scope="col">{t.kind}</th>
              <th scope="col">{t.state}</th>
              <th scope="col">{t.attempts}</th>
              <th scope="col">{t.lastError}</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((job) => (
              <tr key={job.id} class={`job-${job.state}`}>
                <td>{job.kind === 'receipt' ? t.role_receipt : t.role_kitchen}</td>
                <td>{t[`state_${job.state}`]}</td>
                <td>{job.attempts}</td>
                <td>{job.last_error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
