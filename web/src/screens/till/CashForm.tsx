import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, ok, writeOnce } from '../../api/client';
import { useStore } from '../../api/store';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { currentUser } from '../../core/session';
import { recordPayment } from './pay-requests';
import { strings } from './strings';

/** The server's refusal of cash when the restaurant counts its drawers and the cashier has no open shift. */
const OPEN_A_SHIFT_FIRST = 'Open a shift first';

/** Cash for the amount and tip chosen: what was handed over, the change to give, and the shift cash needs. */
export function CashForm({
  ticketId,
  amountCents,
  tipCents,
  onPaid,
  onError,
}: {
  ticketId: string;
  amountCents: number;
  tipCents: number;
  onPaid: (notice?: string) => void;
  onError: (message: string | undefined) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const dueCents = amountCents + tipCents;
  const [tendered, setTendered] = useState(fromCents(dueCents).toFixed(2));
  // The amount or the tip changed: what the customer hands over starts again from what is due. Done
  // while rendering, not in an effect: an effect ran after the first paint and could wipe out what
  // the cashier had already typed.
  const [tenderedFor, setTenderedFor] = useState(dueCents);
  if (tenderedFor !== dueCents) {
    setTenderedFor(dueCents);
    setTendered(fromCents(dueCents).toFixed(2));
  }
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
  const isEnough = tenderedCents !== undefined && tenderedCents >= dueCents;

  const pay = async () => {
    if (tenderedCents === undefined) return;
    setBusy(true);
    onError(undefined);
    try {
      const result = await recordPayment(ticketId, { method: 'cash', amountCents, tipCents, tenderedCents });
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
        {isEnough ? format(t.change, { amount: money(tenderedCents - dueCents) }) : t.notEnough}
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
      await writeOnce(() => api.POST('/shifts', { body: { opening_cash: fromCents(openingCents) } }));
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
