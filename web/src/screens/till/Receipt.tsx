import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, createOnce, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { format, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { useCan } from '../../core/session';
import { checkoutStrings } from './checkout-strings';
import { GuestLinkQr } from './GuestLinkQr';
import { printStrings } from './print-strings';
import { strings } from './strings';

/** The server's answer to a print when the restaurant has no receipt printer. */
const NO_RECEIPT_PRINTER = 'No receipt printer is set up';
/** Characters per line of the shown receipt: an 80 mm paper roll's. */
const RECEIPT_WIDTH = 42;

/**
 * Printing a bill's receipt, or a pending bill's guest check (the server marks it so), and reprinting
 * it: on the receipt printer when there is one (`POST /tickets/{id}/print`), otherwise the text shown
 * on screen and offered as a file to download.
 */
export function Receipt({ ticketId, name, guest }: { ticketId: string; name: string; guest: boolean }) {
  const t = useStrings(checkoutStrings);
  const p = useStrings(printStrings);
  const common = useStrings(strings);
  const [printed, setPrinted] = useState(false);
  const canPrint = useCan('receipts.print');
  const [text, setText] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [download, setDownload] = useState<string>();

  // The file offered for download lives as long as the receipt is shown.
  useEffect(() => {
    if (text === undefined) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    setDownload(url);
    return () => URL.revokeObjectURL(url);
  }, [text]);

  const show = async (message?: string) => {
    const receipt = await ok(
      api.GET('/tickets/{id}/receipt', {
        params: { path: { id: ticketId }, query: { width: RECEIPT_WIDTH } },
        parseAs: 'text',
      }),
    );
    setText(receipt as string);
    setNotice(message);
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      await action();
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  const print = () =>
    run(async () => {
      try {
        await createOnce((key) =>
          api.POST('/tickets/{id}/print', {
            params: { header: { 'idempotency-key': key }, path: { id: ticketId } },
          }),
        );
        setText(undefined);
        setPrinted(true);
        setNotice(guest ? p.guestCheckQueued : t.receiptQueued);
      } catch (failure) {
        if (failure instanceof ApiError && failure.message === NO_RECEIPT_PRINTER) await show(t.noPrinter);
        else throw failure;
      }
    });

  return (
    <section class="card stack receipt" aria-labelledby="receipt-title">
      <h2 id="receipt-title">{format(guest ? p.guestCheckOf : t.receiptOf, { name })}</h2>
      <div class="row">
        {canPrint && (
          <button type="button" class="primary" disabled={busy} onClick={() => void print()}>
            {printed ? p.reprint : guest ? p.printGuestCheck : t.printReceipt}
          </button>
        )}
        <button type="button" disabled={busy} onClick={() => void run(() => show())}>
          {guest ? p.showGuestCheck : t.showReceipt}
        </button>
      </div>
      <Alert message={error} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {text !== undefined && (
        <>
          <pre class="receipt-text">{text}</pre>
          {guest && <GuestLinkQr ticketId={ticketId} />}
          {download && (
            <a class="button" href={download} download={`receipt-${ticketId.slice(0, 8)}.txt`}>
              {t.downloadReceipt}
            </a>
          )}
        </>
      )}
    </section>
  );
}
