import { useEffect, useState } from 'preact/hooks';
import { useStrings } from '../core/i18n';
import { fetchReceipt } from './guest-api';
import { guestStrings } from './guest-strings';

/** The digital receipt: the paper one's lines. Behind a button, or at once (`open`) for a bill already paid. */
export function GuestReceipt({ token, open = false }: { token: string; open?: boolean }) {
  const t = useStrings(guestStrings);
  const [text, setText] = useState<string>();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  const show = async () => {
    setBusy(true);
    setFailed(false);
    try {
      setText(await fetchReceipt(token));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (open) void show();
  }, [open]);

  if (text !== undefined) {
    return (
      <section class="guest-card" aria-labelledby="receipt-title">
        <h2 id="receipt-title">{t.receipt}</h2>
        <pre class="guest-receipt">{text}</pre>
      </section>
    );
  }
  return (
    <>
      {failed && (
        <p class="guest-error" role="alert">
          {t.unreachable}
        </p>
      )}
      <button type="button" class="guest-secondary" disabled={busy} onClick={() => void show()}>
        {t.seeReceipt}
      </button>
    </>
  );
}
