import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, api, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { useStrings } from '../../core/i18n';
import { qrCodeDataUrl } from '../../core/qr';
import { printStrings } from './print-strings';
import { strings } from './strings';

/**
 * Under the guest check shown at the till: a fresh link to the bill's guest page, as a QR code the
 * guest scans from the till's screen, and its address. Nothing where guest links are off (no
 * POS_PUBLIC_URL: 503) or not this user's to make (403).
 */
export function GuestLinkQr({ ticketId }: { ticketId: string }) {
  const p = useStrings(printStrings);
  const common = useStrings(strings);
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    ok(api.POST('/tickets/{id}/guest-link', { params: { path: { id: ticketId } } }))
      .then((link) => setUrl(link.url))
      .catch((failure) => {
        if (failure instanceof ApiError && (failure.status === 503 || failure.status === 403)) return;
        setError(common.unreachable);
      });
  }, [ticketId]);
  const qr = useMemo(() => (url ? qrCodeDataUrl(url) : undefined), [url]);

  if (error) return <Alert message={error} />;
  if (!url || !qr) return null;
  return (
    <figure class="guest-link">
      <img class="guest-link-qr" src={qr} alt={p.guestLinkQrAlt} width={200} height={200} />
      <figcaption>
        {p.guestLinkHint}
        <br />
        <a href={url} target="_blank" rel="noreferrer" class="guest-link-url">
          {url}
        </a>
      </figcaption>
    </figure>
  );
}
