import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, messageOf, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { lightningQrDataUrl } from '../../core/qr';
import { strings } from './strings';

type Current = Ok<'/displays/current', 'get'>;
/** What the till shows reaches the guest within a second. */
const POLL_MS = 1000;
const PAID = 2;

/** The screen facing the guest at the counter: the paired till's bill, its Lightning QR, then thanks. */
export default function DisplayScreen() {
  const t = useStrings(strings);
  const [current, setCurrent] = useState<Current>();
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
      {current && (current.cashier === null ? <PairForm onPaired={load} /> : <Showing current={current} />)}
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
    </form>
  );
}

function Showing({ current }: { current: Current }) {
  const t = useStrings(strings);
  const money = useMoney();
  const { bill, lightning } = current;
  const invoice = lightning?.status === 'pending' ? lightning.invoice : undefined;
  const qr = useMemo(() => (invoice ? lightningQrDataUrl(invoice) : undefined), [invoice]);
  const till = <p class="muted">{format(t.tillOf, { name: current.cashier ?? '' })}</p>;
  if (!bill) {
    return (
      <div class="display-idle stack">
        <p class="display-big">{t.welcome}</p>
        {till}
      </div>
    );
  }
  if (bill.status === PAID) {
    return (
      <div class="display-thanks stack" role="status">
        <p class="display-big">{t.thanks}</p>
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
      {till}
    </div>
  );
}
