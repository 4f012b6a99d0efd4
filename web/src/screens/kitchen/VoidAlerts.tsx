import { format, useStrings } from '../../core/i18n';
import { strings } from './strings';

/** A plate voided while the kitchen may be making it: said loudly until a cook acknowledges it. */
export type VoidNotice = { id: string; dish: string; where: string; reason: string | null };

export function VoidAlerts({
  notices,
  onDismiss,
}: {
  notices: VoidNotice[];
  onDismiss: (id: string) => void;
}) {
  const t = useStrings(strings);
  if (notices.length === 0) return null;
  return (
    <div class="kitchen-voids">
      {notices.map((notice) => (
        <p key={notice.id} class="kitchen-void" role="alert">
          <span>
            {format(t.voided, { dish: notice.dish, where: notice.where })}
            {notice.reason && <span class="kitchen-void-reason"> ({notice.reason})</span>}
          </span>
          <button type="button" onClick={() => onDismiss(notice.id)}>
            {t.dismiss}
            <span class="visually-hidden"> {notice.dish}</span>
          </button>
        </p>
      ))}
    </div>
  );
}
