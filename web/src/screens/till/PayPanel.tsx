import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, createOnce, messageOf, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import type { LiveEvent } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { currentUser } from '../../core/session';
import { useStore } from '../../core/store';
import { fromCents, parseCents, toCents } from './cents';
import { LightningPay } from './LightningPay';
import { strings } from './strings';
import { TICKET_PAID, type Ticket } from './till-model';

type Method = Ok<'/payment-methods', 'get'>[number];
/** The server's refusal of cash when the restaurant counts its drawers and the cashier has no open shift. */
const OPEN_A_SHIFT_FIRST = 'Open a shift first';

function recordPayment(ticketId: string, body: { method: string; amount: number; tendered?: number }) {
  return createOnce((key) =>
    api.POST('/tickets/{id}/payments', {
      params: { header: { 'idempotency-key': key }, path: { id: ticketId } },
      body,
    }),
  );
}

/** Paying one bill: cash with change, card (or another recorded method), or Lightning. */
export function PayPanel({
  ticket,
  number,
  lastEvent,
  onPaid,
}: {
  ticket: Ticket;
  number: number;
  lastEvent: LiveEvent | undefined;
  onPaid: (notice?: string) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const [methods, setMethods] = useState<Method[]>();
  const [method, setMethod] = useState<string>();
  const [error, setError] = useState<string>();
  const balanceCents = toCents(ticket.balance);
  const name = format(t.billNumber, { n: number });

  useEffect(() => {
    ok(api.GET('/payment-methods'))
      .then((all) => setMethods(all.filter((item) => item.is_active)))
      .catch((failure) => setError(messageOf(failure, t.unreachable)));
  }, [t.unreachable]);

  const labelOf = (item: Method) =>
    item.code === 'cash'
      ? t.cash
      : item.code === 'card'
        ? t.card
        : item.code === 'lightning'
          ? t.lightning
          : item.name;
  const isPaid = ticket.status === TICKET_PAID;

  return (
    <section class="card stack pay-panel" aria-labelledby="pay-title">
      <h2 id="pay-title">{format(t.payTitle, { name })}</h2>
      {!isPaid && (
        <p>
          {t.due}: <strong class="num">{money(balanceCents)}</strong>
        </p>
      )}
      {isPaid && method !== 'lightning' && (
        <p class="notice" role="status">
          {format(t.billPaid, { name })}
        </p>
      )}
      <Alert message={error} />
      {!isPaid && (
        <fieldset class="pay-methods">
          <legend>{t.method}</legend>
          <div class="row">
            {methods?.map((item) => (
              <button
                key={item.code}
                type="button"
                aria-pressed={method === item.code}
                class={method === item.code ? 'primary' : undefined}
                onClick={() => {
                  setError(undefined);
                  setMethod(item.code);
                }}
              >
                {labelOf(item)}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {!isPaid && method === 'cash' && (
        <CashForm ticketId={ticket.id} balanceCents={balanceCents} onPaid={onPaid} onError={setError} />
      )}
      {!isPaid && method !== undefined && method !== 'cash' && method !== 'lightning' && (
        <RecordedForm
          ticketId={ticket.id}
          method={method}
          label={format(t.charge, {
            amount: money(balanceCents),
            method: methods?.find((item) => item.code === method)?.name ?? method,
          })}
          balanceCents={balanceCents}
          onPaid={onPaid}
          onError={setError}
        />
      )}
      {method === 'lightning' && (
        <LightningPay ticket={ticket} lastEvent={lastEvent} onSettled={() => onPaid()} />
      )}
    </section>
  );
}

function CashForm({
  ticketId,
  balanceCents,
  onPaid,
  onError,
}: {
  ticketId: string;
  balanceCents: number;
  onPaid: (notice?: string) => void;
  onError: (message: string | undefined) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const [tendered, setTendered] = useState(fromCents(balanceCents).toFixed(2));
  const [busy, setBusy] = useState(false);
  const [needsShift, setNeedsShift] = useState(false);
  const tenderedCents = parseCents(tendered);
  const user = useStore(currentUser);
  // Asked ahead, so the cashier opens the shift before taking the money rather than after a refusal.
  useEffect(() => {
    if (!user) return;
    void needsOpenShift(user.id)
      .then(setNeedsShift)
      .catch(() => undefined);
  }, [user]);
  const isEnough = tenderedCents !== undefined && tenderedCents >= balanceCents;

  const pay = async () => {
    if (tenderedCents === undefined) return;
    setBusy(true);
    onError(undefined);
    try {
      const result = await recordPayment(ticketId, {
        method: 'cash',
        amount: fromCents(balanceCents),
        tendered: fromCents(tenderedCents),
      });
      onPaid(format(t.cashTaken, { change: money(toCents(result.change)) }));
    } catch (failure) {
      if (failure instanceof ApiError && failure.message === OPEN_A_SHIFT_FIRST) setNeedsShift(true);
      else onError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="stack cash-form">
      <label for="cash-tendered">{t.tendered}</label>
      <input
        id="cash-tendered"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={tendered}
        onInput={(event) => setTendered(event.currentTarget.value)}
      />
      <p class="change" aria-live="polite">
        {isEnough ? format(t.change, { amount: money(tenderedCents - balanceCents) }) : t.notEnough}
      </p>
      {needsShift ? (
        <OpenShift
          onOpened={() => {
            setNeedsShift(false);
            void pay();
          }}
          onError={onError}
        />
      ) : (
        <button type="button" class="primary" disabled={busy || !isEnough} onClick={() => void pay()}>
          {t.takeCash}
        </button>
      )}
    </div>
  );
}

/** Whether the restaurant counts its drawers and this user has no open shift to put cash in. */
async function needsOpenShift(userId: string): Promise<boolean> {
  const settings = await ok(api.GET('/settings'));
  if (!settings.require_shift_for_cash) return false;
  const [newest] =
    (await ok(api.GET('/shifts', { params: { query: { user_id: userId, limit: 1, offset: 0 } } }))) ?? [];
  return newest?.status !== 'open';
}

/** Cash needs an open shift where the restaurant counts its drawers: the till opens one here. */
function OpenShift({ onOpened, onError }: { onOpened: () => void; onError: (message: string) => void }) {
  const t = useStrings(strings);
  const [opening, setOpening] = useState('0.00');
  const [busy, setBusy] = useState(false);
  const openingCents = parseCents(opening);

  const open = async () => {
    if (openingCents === undefined) return;
    setBusy(true);
    try {
      await ok(api.POST('/shifts', { body: { opening_cash: fromCents(openingCents) } }));
      onOpened();
    } catch (failure) {
      // Opened meanwhile on another till by the same user: the payment can go ahead.
      if (failure instanceof ApiError && failure.status === 409) onOpened();
      else onError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="stack open-shift">
      <p class="notice">{t.needsShift}</p>
      <label for="opening-cash">{t.openingCash}</label>
      <input
        id="opening-cash"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={opening}
        onInput={(event) => setOpening(event.currentTarget.value)}
      />
      <button
        type="button"
        class="primary"
        disabled={busy || openingCents === undefined}
        onClick={() => void open()}
      >
        {t.openShiftAndPay}
      </button>
    </div>
  );
}

function RecordedForm({
  ticketId,
  method,
  label,
  balanceCents,
  onPaid,
  onError,
}: {
  ticketId: string;
  method: string;
  label: string;
  balanceCents: number;
  onPaid: () => void;
  onError: (message: string | undefined) => void;
}) {
  const t = useStrings(strings);
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    setBusy(true);
    onError(undefined);
    try {
      await recordPayment(ticketId, { method, amount: fromCents(balanceCents) });
      onPaid();
    } catch (failure) {
      onError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class="primary" disabled={busy} onClick={() => void pay()}>
      {label}
    </button>
  );
}
