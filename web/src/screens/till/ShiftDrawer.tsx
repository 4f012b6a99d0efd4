import { useState } from 'preact/hooks';
import { api, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { drawerStrings } from './drawer-strings';
import { strings } from './strings';

type Movement = Ok<'/shifts/{id}', 'get'>['cash_movements'][number];

/** No open shift: the cashier counts the float into the drawer and opens one. */
export function OpenShiftForm({ onOpened }: { onOpened: () => void }) {
  const t = useStrings(drawerStrings);
  const common = useStrings(strings);
  const [float, setFloat] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(float);
    if (cents === undefined) return setError(t.badAmount);
    setBusy(true);
    try {
      // A second open answers 409, so sending it again after a lost answer opens nothing twice.
      await writeOnce(() => api.POST('/shifts', { body: { opening_cash: fromCents(cents) } }));
      setError(undefined);
      onOpened();
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="till-drawer-form" onSubmit={submit}>
      <Alert message={error} />
      <label for="till-opening-cash">{t.openingCash}</label>
      <input
        id="till-opening-cash"
        inputMode="decimal"
        value={float}
        onInput={(event) => setFloat((event.target as HTMLInputElement).value)}
      />
      <button type="submit" class="primary" disabled={isBusy}>
        {isBusy ? t.opening : t.openShift}
      </button>
    </form>
  );
}

/** With a shift open: cash put into the drawer (change from the bank) or taken out (ice bought next door). */
export function CashMovementForm({
  shiftId,
  movements,
  money,
  onRecorded,
}: {
  shiftId: string;
  movements: Movement[];
  money: (cents: number) => string;
  onRecorded: () => void;
}) {
  const t = useStrings(drawerStrings);
  const common = useStrings(strings);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const record = async (sign: 1 | -1) => {
    const cents = parseCents(amount);
    if (cents === undefined || cents === 0) return setError(t.badAmount);
    if (reason.trim() === '') return setError(t.reasonNeeded);
    setBusy(true);
    try {
      // Sent once, never repeated on its own: a repeat would move the cash twice.
      await ok(
        api.POST('/shifts/{id}/cash-movements', {
          params: { path: { id: shiftId } },
          body: { amount: fromCents(sign * cents), reason: reason.trim() },
        }),
      );
      setError(undefined);
      setAmount('');
      setReason('');
      onRecorded();
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="stack till-drawer-form"
      aria-labelledby="till-drawer-title"
      onSubmit={(event) => event.preventDefault()}
    >
      <h3 id="till-drawer-title">{t.movementsTitle}</h3>
      <Alert message={error} />
      <div class="till-drawer-fields">
        <label>
          {t.amount}
          <input
            inputMode="decimal"
            value={amount}
            onInput={(event) => setAmount((event.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          {t.reason}
          <input
            maxLength={200}
            value={reason}
            onInput={(event) => setReason((event.target as HTMLInputElement).value)}
          />
        </label>
      </div>
      <div class="till-drawer-actions">
        <button type="button" disabled={isBusy} onClick={() => void record(1)}>
          {isBusy ? t.recording : t.cashIn}
        </button>
        <button type="button" disabled={isBusy} onClick={() => void record(-1)}>
          {isBusy ? t.recording : t.cashOut}
        </button>
      </div>
      {movements.length > 0 && (
        <ul class="till-drawer-movements" aria-label={t.movements}>
          {movements.map((movement) => (
            <li key={movement.id}>
              <span class="num">{money(toCents(movement.amount))}</span> {movement.reason}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
