import { useState } from 'preact/hooks';
import { Alert } from '../../components/Alert';
import { ModalDialog } from '../../components/ModalDialog';
import { format, useStrings } from '../../core/i18n';
import { strings } from './strings';

/** Why the order is denied: the platform passes it on to the customer. Quick reasons fill the field. */
export function DenyDialog({
  code,
  error,
  busy,
  onDeny,
  onClose,
}: {
  code: string;
  error: string | undefined;
  busy: boolean;
  onDeny: (reason: string) => void;
  onClose: () => void;
}) {
  const t = useStrings(strings);
  const [reason, setReason] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (reason.trim()) onDeny(reason.trim());
  };
  return (
    <ModalDialog title={format(t.denyTitle, { code })} onClose={onClose}>
      <form class="stack delivery-deny" onSubmit={submit}>
        <div class="delivery-reasons">
          {[t.reasonSoldOut, t.reasonFull, t.reasonClosing].map((quick) => (
            <button
              key={quick}
              type="button"
              aria-pressed={reason === quick}
              onClick={() => setReason(quick)}
            >
              {quick}
            </button>
          ))}
        </div>
        <div class="field">
          <label for="deny-reason">{t.reason}</label>
          <input
            id="deny-reason"
            required
            maxLength={200}
            value={reason}
            onInput={(event) => setReason(event.currentTarget.value)}
          />
        </div>
        <Alert message={error} />
        <div class="actions">
          <button type="button" class="ghost" onClick={onClose}>
            {t.back}
          </button>
          <button type="submit" class="danger" disabled={busy || !reason.trim()}>
            {t.confirmDeny}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
