import { useMemo, useRef, useState } from 'preact/hooks';
import { toCents } from '../core/cents';
import { format, useStrings } from '../core/i18n';
import { lightningQrDataUrl } from '../core/qr';
import type { GuestInvoice } from './guest-api';
import { guestStrings } from './guest-strings';

/**
 * The guest's Lightning invoice: its QR code for a wallet on another device, a `lightning:` link that
 * opens the wallet on this phone, and the text to copy. The page watches whether it was paid.
 */
export function InvoicePanel({
  invoice,
  money,
  sats,
}: {
  invoice: GuestInvoice;
  money: (cents: number) => string;
  sats: (sats: number) => string;
}) {
  const t = useStrings(guestStrings);
  const qr = useMemo(() => lightningQrDataUrl(invoice.bolt11), [invoice.bolt11]);
  const [copied, setCopied] = useState(false);
  const text = useRef<HTMLTextAreaElement>(null);

  // The clipboard API needs a secure context; a restaurant reached over plain HTTP gets the old way.
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invoice.bolt11);
    } catch {
      text.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };

  return (
    <section class="guest-card guest-invoice" aria-labelledby="invoice-title">
      <h2 id="invoice-title" class="guest-amount">
        <span class="num">{format(t.sats, { sats: sats(invoice.amount_sat) })}</span>{' '}
        <span class="guest-muted num">({money(toCents(invoice.amount + invoice.tip))})</span>
      </h2>
      <img class="guest-qr" src={qr} alt={t.qrAlt} width={288} height={288} />
      <a class="guest-primary" href={`lightning:${invoice.bolt11}`}>
        {t.openWallet}
      </a>
      <button type="button" class="guest-secondary" onClick={() => void copy()}>
        {copied ? t.copied : t.copy}
      </button>
      <p role="status" class="guest-waiting">
        {t.waiting}
      </p>
      <label class="guest-field">
        {t.invoiceText}
        <textarea ref={text} class="guest-bolt11" readOnly rows={3} value={invoice.bolt11} />
      </label>
    </section>
  );
}
