import { useEffect, useRef, useState } from 'preact/hooks';
import { format, useStrings } from '../../core/i18n';
import type { Table } from './floor-model';
import { strings } from './strings';

/**
 * Opening a free table asks how many guests sit down; the count is optional (a busy waiter may skip
 * it), so an empty field opens the table without one.
 */
export function OpenTablePanel({
  table,
  busy,
  onOpen,
  onCancel,
}: {
  table: Table;
  busy: boolean;
  onOpen: (guests: number | undefined) => void;
  onCancel: () => void;
}) {
  const t = useStrings(strings);
  const [guests, setGuests] = useState('');
  const input = useRef<HTMLInputElement>(null);
  // The panel opens on a tap: the field takes the focus so the number pad comes up at once.
  useEffect(() => input.current?.focus(), []);
  const submit = (event: Event) => {
    event.preventDefault();
    const count = Number.parseInt(guests, 10);
    onOpen(Number.isInteger(count) && count >= 1 ? count : undefined);
  };
  return (
    <form class="card stack floor-panel" aria-labelledby="floor-panel-title" onSubmit={submit}>
      <h2 id="floor-panel-title">{format(t.openTitle, { table: table.name })}</h2>
      <div class="field">
        <label for="floor-guests">{t.guestsLabel}</label>
        <input
          ref={input}
          id="floor-guests"
          type="number"
          inputMode="numeric"
          min={1}
          max={99}
          step={1}
          value={guests}
          onInput={(event) => setGuests(event.currentTarget.value)}
        />
      </div>
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          {t.cancel}
        </button>
        <button type="submit" class="primary" disabled={busy}>
          {t.openTable}
        </button>
      </div>
    </form>
  );
}

/**
 * Where a party goes: for a move, the free tables; for a merge, the other occupied tables, whose
 * order joins this table's. One tap on a table does it.
 */
export function MovePanel({
  kind,
  table,
  choices,
  busy,
  onChoose,
  onCancel,
}: {
  kind: 'move' | 'merge';
  table: Table;
  choices: Table[];
  busy: boolean;
  onChoose: (choice: Table) => void;
  onCancel: () => void;
}) {
  const t = useStrings(strings);
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const title = format(kind === 'move' ? t.moveTitle : t.mergeTitle, { table: table.name });
  return (
    <section class="card stack floor-panel" aria-labelledby="floor-panel-title">
      <h2 id="floor-panel-title">{title}</h2>
      {choices.length === 0 ? (
        <p class="muted">{kind === 'move' ? t.noFreeTables : t.noOtherTables}</p>
      ) : (
        <ul class="row floor-choices" aria-label={title}>
          {choices.map((choice, index) => (
            <li key={choice.id}>
              <button
                ref={index === 0 ? first : undefined}
                type="button"
                disabled={busy}
                onClick={() => onChoose(choice)}
              >
                {format(t.chooseTable, { table: choice.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          {t.cancel}
        </button>
      </div>
    </section>
  );
}
