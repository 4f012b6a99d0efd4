import { fiscalStrings } from '../../components/fiscal/fiscal-strings';
import { toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useServerText } from '../../core/server-text';
import type { Cfdi } from './fiscal-panel-types';

const STATUS_BADGES: Record<Cfdi['status'], string> = {
  valid: 'ok',
  canceling: 'warn',
  cancel_pending: 'warn',
  canceled: 'danger',
  stamping: 'warn',
  failed: 'danger',
};

/**
 * Every CFDI of the bill, oldest first: its invoice (and the one that replaced it), the global invoice
 * it is in, the credit notes of its refunds; each with its folio, its state and its files.
 */
export function CfdiList({ cfdis }: { cfdis: Cfdi[] }) {
  const t = useStrings(fiscalStrings);
  const money = useMoney();
  const serverText = useServerText();
  if (cfdis.length === 0) return null;
  return (
    <table class="list stacks cfdi-list" aria-label={t.cfdisTitle}>
      <caption>{t.cfdisTitle}</caption>
      <thead>
        <tr>
          <th scope="col">{t.cfdiKind}</th>
          <th scope="col">{t.folio}</th>
          <th scope="col">{t.state}</th>
          <th scope="col">{t.total}</th>
          <th scope="col">{t.files}</th>
        </tr>
      </thead>
      <tbody>
        {cfdis.map((cfdi) => {
          const name = `${t[`kind_${cfdi.kind}`]} ${cfdi.folio ?? cfdi.uuid ?? ''}`.trim();
          return (
            <tr key={cfdi.invoice_id ?? `${cfdi.kind}-${cfdi.created_at}`} data-cfdi-status={cfdi.status}>
              <td>{t[`kind_${cfdi.kind}`]}</td>
              <td>
                {cfdi.folio ?? '—'}
                {cfdi.uuid && (
                  <>
                    <br />
                    <small class="muted">{cfdi.uuid}</small>
                  </>
                )}
              </td>
              <td>
                <span class={`badge ${STATUS_BADGES[cfdi.status]}`}>
                  {cfdi.status === 'canceled' && cfdi.cancel_motive
                    ? format(t.cfdiCanceledMotive, { motive: cfdi.cancel_motive })
                    : t[`cfdiStatus_${cfdi.status}`]}
                </span>
                {cfdi.error && <p class="error">{serverText(cfdi.error)}</p>}
              </td>
              <td class="num" data-label={t.total}>
                {money(toCents(cfdi.total))}
              </td>
              <td>
                {cfdi.invoice_id && (
                  <span class="row">
                    <a href={`/invoices/${cfdi.invoice_id}/pdf`} download aria-label={`${t.pdf} · ${name}`}>
                      {t.pdf}
                    </a>
                    <a href={`/invoices/${cfdi.invoice_id}/xml`} download aria-label={`${t.xml} · ${name}`}>
                      {t.xml}
                    </a>
                  </span>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
