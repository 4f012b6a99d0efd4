import { useState } from 'preact/hooks';
import { api, type Ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, parseCents, toCents } from '../../core/cents';
import { useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { closeShiftStrings } from './close-shift-strings';
import { strings } from './strings';

export type Closed = Ok<'/shifts/{id}/close', 'post'>;

/**
 * The cashier closes her own shift from the till with the cash she counted. Under a blind close the
 * expected cash is not shown before (the server hides it); the close answers it with the difference.
 */
export function CloseShift({
  shiftId,
  isBlind,
  onClosed,
}: {
  shiftId: string;
  isBlind: boolean;
  onClosed: (closed: Closed) => void;
}) {
  const t = useStrings(closeShiftStrings);
  const common = useStrings(strings);
  const [counted, setCounted] = useState('');
  const [error, setError] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const cents = parseCents(counted);
    if (cents === undefined) return setError(t.badAmount);
    setBusy(true);
    try {
      const closed = await writeOnce(() =>
        api.POST('/shifts/{id}/close', {
          params: { path: { id: shiftId } },
          body: { counted_cash: fromCents(cents) },
        }),
      );
      setError(undefined);
      onClosed(closed);
    } catch (failure) {
      setError(messageOf(failure, common.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack till-close-shift" aria-labelledby="till-close-shift-title" onSubmit={submit}>
      <h3 id="till-close-shift-title">{t.closeTitle}</h3>
      {isBlind && <p class="muted">{t.blindHint}</p>}
      <Alert message={error} />
      <label for="till-counted-cash">{t.countedCash}</label>
      <input
        id="till-counted-cash"
        inputMode="decimal"
        value={counted}
        onInput={(event) => setCounted((event.target as HTMLInputElement).value)}
      />
      <button type="submit" class="primary" disabled={isBusy}>
        {isBusy ? t.closing : t.closeButton}
      </button>
    </form>
  );
}

/** What the close answered: expected, counted and the difference, shown once counted. */
export function ClosedFigures({ result, money }: { result: Closed; money: (cents: number) => string }) {
  const t = useStrings(closeShiftStrings);
  return (
    <section class="till-shift-closed" aria-label={t.closedTitle}>
      <h3>{t.closedTitle}</h3>
      <dl class="till-shift-figures">
        <div class="till-shift-figure">
          <dt>{t.expectedCash}</dt>
          <dd class="num">{result.expected_cash === null ? '—' : money(toCents(result.expected_cash))}</dd>
        </div>
        <div class="till-shift-figure">
          <dt>{t.countedCash}</dt>
          <dd class="num">{result.counted_cash === null ? '—' : money(toCents(result.counted_cash))}</dd>
        </div>
        <div class="till-shift-figure">
          <dt>{t.difference}</dt>
          <dd class="num">
            <strong>{result.difference === null ? '—' : money(toCents(result.difference))}</strong>
          </dd>
        </div>
      </dl>
    </section>
  );
}
