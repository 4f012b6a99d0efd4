import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { lightningQrDataUrl } from '../../core/qr';
import { messageOf } from '../../core/server-text';
import { logOut } from '../../core/session';
import { strings } from './strings';

type Current = Ok<'/displays/current', 'get'>;
/** What the till shows reaches the guest within a second. */
const POLL_MS = 1000;
const PAID = 2;
/** Long enough to read over a shoulder while leaving; the till may keep the paid bill open much longer. */
const THANKS_MS = 8000;

/**
 * The screen facing the guest at the counter: the restaurant's name while the till shows nothing,
 * the paired till's bill with its Lightning QR or the card terminal's charge, then thanks for a few seconds.
 */
export default function DisplayScreen() {
  const t = useStrings(strings);
  const [current, setCurrent] = useState<Current>();
  const [businessName, setBusinessName] = useState('');
  useEffect(() => {
    ok(api.GET('/settings'))
      .then((settings) => setBusinessName(settings.business_name))
      .catch(() => undefined);
  }, []);
  const [error, setError] = useState<string>();
  const load = useCallback(async () => {
    try {
      setCurrent(await ok(api.GET('/displays/current')));
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
  }, [t.unreachable]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <section class="customer-display">
      <h1 class="visually-hidden">{t.title}</h1>
      <Alert message={error} />
      {current &&
        (current.cashier === null ? (
          <PairForm onPaired={load} />
        ) : (
          <Showing current={current} businessName={businessName} />
        ))}
    </section>
  );
}

function PairForm({ onPaired }: { onPaired: () => Promise<void> }) {
  const t = useStrings(strings);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const pair = async (event: Event) => {
    event.preventDefault();
    try {
      await ok(api.POST('/displays/pair', { body: { code } }));
      setError(undefined);
      await onPaired();
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
  };
  return (
    <form class="card stack display-pair" onSubmit={(event) => void pair(event)}>
      <h2>{t.pairTitle}</h2>
      <p>{t.pairHelp}</p>
      <label for="display-code">{t.code}</label>
      <input
        id="display-code"
        inputMode="numeric"
        autocomplete="off"
        pattern="[0-9]{6}"
        maxLength={6}
        value={code}
        onInput={(event) => setCode(event.currentTarget.value.trim())}
      />
      <Alert message={error} />
      <button type="submit" class="primary" disabled={code.length !== 6}>
        {t.connect}
      </button>
      <button type="button" class="ghost" onClick={() => void logOut()}>
        {t.logOut}
      </button>
    </form>
  );
}

/**
 * Whether to thank the guest now: for a few seconds after a bill seen here unpaid turns paid. A bill
 * already paid when first seen (a reload, a till reopening it) is not the guest at the counter.
 */
function useThanks(bill: Current['bill']): boolean {
  const seenUnpaid = useRef<string | undefined>(undefined);
  const [thanking, setThanking] = useState<string>();
  const billId = bill?.id;
  const isPaid = bill?.status === PAID;
  useEffect(() => {
    if (!billId) return;
    if (!isPaid) {
      seenUnpaid.current = billId;
      return;
    }
    if (seenUnpaid.current !== billId) return;
    seenUnpaid.current = undefined;
    setThanking(billId);
    const timer = setTimeout(() => setThanking(undefined), THANKS_MS);
    return () => clearTimeout(timer);
  }, [billId, isPaid]);
  return isPaid && thanking === billId;
}

function Showing({ current, businessName }: { current: Current; businessName: string }) {
  const t = useStrings(strings);
  const money = useMoney();
  const { bill, lightning, terminal } = current;
  const isThanking = useThanks(bill);
  const invoice = lightning?.status === 'pending' ? lightning.invoice : undefined;
  const qr = useMemo(() => (invoice ? lightningQrDataUrl(invoice) : undefined), [invoice]);
  const till = <p class="muted display-till">{format(t.tillOf, { name: current.cashier ?? '' })}</p>;
  if (isThanking) {
    return (
      <div class="display-thanks stack" role="status">
        <p class="display-big">{terminal?.status === 'settled' ? t.terminalApproved : t.thanks}</p>
      </div>
    );
  }
  if (!bill || bill.status === PAID) {
    return (
      <div class="display-idle stack">
        {businessName && <p class="display-big">{businessName}</p>}
        <p class="display-welcome">{t.welcome}</p>
        {till}
      </div>
    );
  }
  return (
    <div class="display-bill stack">
      <dl class="display-amounts">
        <dt>{t.total}</dt>
        <dd class="num">{money(toCents(bill.total))}</dd>
        <dt>{t.paid}</dt>
        <dd class="num">{money(toCents(bill.paid))}</dd>
        <dt>{t.balance}</dt>
        <dd class="num display-balance">{money(toCents(bill.balance))}</dd>
      </dl>
      {lightning && qr && (
        <figure class="display-lightning stack">
          <img src={qr} alt={t.qrLabel} width={320} height={320} />
          <figcaption>
            <strong>{t.scanToPay}</strong>
            <br />
            {format(t.lightningAmount, {
              amount: money(toCents(lightning.amount + lightning.tip)),
              sats: lightning.amount_sat.toLocaleString(),
            })}
          </figcaption>
        </figure>
      )}
      {terminal && <TerminalCharge terminal={terminal} />}
      {till}
    </div>
  );
}

/** The charge on the card terminal beside the till: where to pay, how much, and how it went. */
function TerminalCharge({ terminal }: { terminal: NonNullable<Current['terminal']> }) {
  const t = useStrings(strings);
  const money = useMoney();
  if (terminal.status === 'settled') {
    return (
      <p class="display-terminal display-big" role="status">
        {t.terminalApproved}
      </p>
    );
  }
  if (terminal.status === 'pending' || terminal.status === 'action_required') {
    return (
      <div class="display-terminal stack" role="status">
        <p class="display-big">{terminal.status === 'action_required' ? t.checkTerminal : t.payOnTerminal}</p>
        <p class="display-big num">{money(toCents(terminal.amount + terminal.tip))}</p>
      </div>
    );
  }
  return (
    <p class="display-terminal error" role="alert">
      {terminal.failure_reason ?? t.terminalFailed}
    </p>
  );
}
