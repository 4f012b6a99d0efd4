import type { ComponentChildren, RefObject } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, type Body, writeOnce } from '../../api/client';
import { Field } from '../../components/FormKit';
import { type LiveEvent, useLiveEvents } from '../../core/events';
import { type Strings, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';

const strings: Strings<
  'unreachable' | 'edit' | 'delete' | 'save' | 'cancel' | 'actions' | 'confirmDelete' | 'keep'
> = {
  en: {
    confirmDelete: 'Confirm delete',
    keep: 'Keep',
    unreachable: 'The server cannot be reached.',
    edit: 'Edit',
    delete: 'Delete',
    save: 'Save',
    cancel: 'Cancel',
    actions: 'Actions',
  },
  es: {
    confirmDelete: 'Confirmar borrado',
    keep: 'Conservar',
    unreachable: 'No se puede contactar con el servidor.',
    edit: 'Editar',
    delete: 'Borrar',
    save: 'Guardar',
    cancel: 'Cancelar',
    actions: 'Acciones',
  },
};

export function useCommonStrings() {
  return useStrings(strings);
}

/** The server's message for a refusal; a generic one when it could not be reached. */
export function useFailureMessage(): (failure: unknown) => string {
  const t = useStrings(strings);
  return (failure) => messageOf(failure, t.unreachable);
}

/**
 * Loads what a section shows, again on `reload()`; `error` holds the server's message. Only the
 * latest load is kept: an answer overtaken by a newer request (a date changed twice) is dropped.
 */
export function useLoaded<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const failureMessage = useFailureMessage();
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const latest = useRef(0);
  // The caller names what the load depends on.
  const reload = useCallback(async () => {
    const request = ++latest.current;
    try {
      const loaded = await load();
      if (request !== latest.current) return;
      setData(loaded);
      setError(undefined);
    } catch (failure) {
      if (request === latest.current) setError(failureMessage(failure));
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}

/** Money changed hands: a bill was paid, a payment settled or was refunded. */
const MONEY_EVENTS = new Set(['ticket.paid', 'payment.settled', 'payment.refunded', 'payment.refund_undone']);

/** Reloads a report while it is shown whenever money changes hands, so the figures stay current. */
export function useReloadOnPayments(reload: () => Promise<void>): void {
  useLiveEvents(
    ['tickets', 'payments'],
    (event: LiveEvent) => {
      if (MONEY_EVENTS.has(event.type)) void reload();
    },
    () => void reload(),
  );
}

/**
 * Runs one change (create, save, delete) and keeps its outcome: the server's message on refusal.
 * `run` resolves true when the change was accepted.
 */
export function useAction() {
  const failureMessage = useFailureMessage();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (change: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      await change();
      setError(undefined);
      return true;
    } catch (failure) {
      setError(failureMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, clear: () => setError(undefined) };
}

/** A delete from a list: the list is loaded again once the server accepted it. */
export function useRemoval(reload: () => Promise<void>) {
  const action = useAction();
  const remove = async (change: () => Promise<unknown>) => {
    if (await action.run(change)) await reload();
  };
  return { error: action.error, busy: action.busy, remove };
}

/**
 * The form that adds records: `added` loads the list again and gives the form a new `newKey`, so it
 * comes back empty for the next record.
 */
export function useNewRecord(reload: () => Promise<void>) {
  const [addedCount, setAddedCount] = useState(0);
  const added = async () => {
    setAddedCount((count) => count + 1);
    await reload();
  };
  return { newKey: `new-${addedCount}`, added };
}

/** The record whose edit form is open; `saved` closes the form and loads the list again. */
export function useEditing<T>(reload: () => Promise<void>) {
  const [editing, setEditing] = useState<T>();
  const close = () => setEditing(undefined);
  const saved = async () => {
    close();
    await reload();
  };
  return { editing, edit: (record: T) => setEditing(record), close, saved, ...useNewRecord(reload) };
}

/**
 * An edit form opens below its list: its first field takes the focus (and scrolls into view) so a
 * tap on "Edit" on a phone lands on the form. New-record forms pass false and keep the page still.
 */
export function useFocusWhenShown<T extends HTMLElement>(shouldFocus: boolean) {
  const ref = useRef<T>(null);
  // Once, when the form is shown.
  useEffect(() => {
    if (!shouldFocus || !ref.current) return;
    ref.current.focus();
    ref.current.scrollIntoView({ block: 'center' });
  }, []);
  return ref;
}

/** What the list hands a record form: what to do once it saved, and how to close it when it edits. */
export type RecordFormProps = { onSaved: () => Promise<void>; onCancel?: (() => void) | undefined };

/** The collections whose records the manager's forms add (POST) and edit (PUT on `{collection}/{id}`). */
type Collection = '/categories' | '/ingredients' | '/products' | '/dishes' | '/modifier-groups';

/**
 * What every record form of the manager starts from: the record's name and its field (which takes
 * the focus when an edit opens), the shell's title and buttons (`RecordForm`: "New dish" and "Add dish" for a new
 * record, "Edit dish: Tamal" and "Save" for an existing one) and `save`, which sends the record once
 * (PUT to `{collection}/{id}`, or POST with the write's key) and tells the list it was saved.
 * A new record's form is emptied by the list (`useNewRecord`), not here.
 */
export function useRecordForm<C extends Collection>(
  record: { id: string; name: string } | undefined,
  collection: C,
  /** The ids' stem: `dish` names the fields `dish-new-…` or `dish-edit-…`. */
  idStem: string,
  [newTitle, editTitle, addLabel]: readonly [string, string, string],
  { onSaved, onCancel }: RecordFormProps,
) {
  const common = useCommonStrings();
  const action = useAction();
  const prefix = `${idStem}-${record ? 'edit' : 'new'}`;
  const [name, setName] = useState(record?.name ?? '');
  const first = useFocusWhenShown<HTMLInputElement>(record !== undefined);
  /** The record's name field, which takes the focus when an edit opens. */
  const nameField = (label: string) => (
    <NameField prefix={prefix} label={label} value={name} onInput={setName} inputRef={first} />
  );
  const shell = {
    prefix,
    title: record ? editTitle : newTitle,
    recordName: record?.name,
    submitLabel: record ? common.save : addLabel,
    busy: action.busy,
    error: action.error,
    onCancel,
  };
  // Each collection takes the same body on POST and PUT; the paths are typed by the caller's
  // `collection`, so the generic calls below are cast once here.
  const send = (body: Body<C, 'post'>) => (key: string) =>
    record
      ? api.PUT(`${collection}/{id}` as never, { params: { path: { id: record.id } }, body } as never)
      : api.POST(collection as never, { params: { header: { 'idempotency-key': key } }, body } as never);
  const save = async (body: Body<C, 'post'>) => {
    if (await action.run(() => writeOnce(send(body)))) await onSaved();
  };
  return { prefix, name, nameField, shell, save };
}

/** A record's name, up to 100 characters; `inputRef` takes the focus when an edit form opens. */
export function NameField({
  prefix,
  label,
  value,
  onInput,
  inputRef,
}: {
  prefix: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}) {
  return (
    <Field id={`${prefix}-name`} label={label}>
      <input
        ref={inputRef}
        id={`${prefix}-name`}
        required
        maxLength={100}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
    </Field>
  );
}

/** A checkbox with its label after it. */
export function Check({
  id,
  checked,
  onChange,
  children,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ComponentChildren;
}) {
  return (
    <div class="check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <label for={id}>{children}</label>
    </div>
  );
}

/** One figure of a report: its name above its value. */
export function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div class={strong ? 'figure strong' : 'figure'}>
      <dt>{label}</dt>
      <dd class="num">{value}</dd>
    </div>
  );
}

/** A button whose accessible name says what it acts on: "Delete Mains". */
export function RowButton({
  label,
  target,
  onClick,
  kind,
  disabled,
}: {
  label: string;
  target: string;
  onClick: () => void;
  kind?: 'danger' | 'ghost';
  disabled?: boolean;
}) {
  return (
    <button type="button" class={kind} onClick={onClick} disabled={disabled}>
      {label}
      <span class="visually-hidden"> {target}</span>
    </button>
  );
}

/**
 * Delete in two taps, so a slip of the finger on a tablet deletes nothing: "Delete Mains", then
 * "Confirm delete Mains" (or "Keep Mains").
 */
export function DeleteButton({
  target,
  onConfirm,
  disabled,
}: {
  target: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const t = useStrings(strings);
  const [confirming, setConfirming] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirm.current?.focus();
  }, [confirming]);
  if (!confirming) {
    return (
      <RowButton
        label={t.delete}
        target={target}
        kind="danger"
        disabled={disabled}
        onClick={() => setConfirming(true)}
      />
    );
  }
  return (
    <>
      <button
        ref={confirm}
        type="button"
        class="danger"
        disabled={disabled}
        onClick={() => {
          setConfirming(false);
          onConfirm();
        }}
      >
        {t.confirmDelete}
        <span class="visually-hidden"> {target}</span>
      </button>
      <RowButton label={t.keep} target={target} kind="ghost" onClick={() => setConfirming(false)} />
    </>
  );
}

/** A row's Edit and two-tap Delete, each left out when the row cannot have it. */
export function RowActions({
  target,
  onEdit,
  onDelete,
  busy,
}: {
  target: string;
  onEdit?: () => void;
  onDelete?: () => void;
  busy: boolean;
}) {
  const t = useStrings(strings);
  return (
    <div class="row-actions">
      {onEdit && <RowButton label={t.edit} target={target} onClick={onEdit} />}
      {onDelete && <DeleteButton target={target} disabled={busy} onConfirm={onDelete} />}
    </div>
  );
}

/** A column of a RecordTable: its header, the cell of each record, and a class for both. */
export type Column<T> = { header: string; cell: (record: T) => ComponentChildren; class?: string };

/**
 * The list a manager section shows of its records: a scrolling table with the given columns and an
 * Edit / two-tap Delete cell per row (a record without `onEdit` or `onDelete` shows no such button).
 */
export function RecordTable<T extends { id: string }>({
  label,
  caption,
  records,
  columns,
  busy,
  actionsOf,
}: {
  label: string;
  caption?: string;
  records: T[];
  columns: Column<T>[];
  busy: boolean;
  actionsOf: (record: T) => { target: string; onEdit?: () => void; onDelete?: () => void };
}) {
  const t = useStrings(strings);
  return (
    <TableScroll label={label}>
      <table class="list">
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" class={column.class}>
                {column.header}
              </th>
            ))}
            <th scope="col">{t.actions}</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record) => (
            <tr key={record.id}>
              {columns.map((column) => (
                <td key={column.header} class={column.class}>
                  {column.cell(record)}
                </td>
              ))}
              <td>
                <RowActions busy={busy} {...actionsOf(record)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A wide table that scrolls sideways on a phone instead of widening the page. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}

/** Cents as a price input shows them: 1250 → "12.50". */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Today's date (YYYY-MM-DD) in an IANA zone: the restaurant's day, not the browser's. */
export function todayIn(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
  } catch {
    return new Intl.DateTimeFormat('en-CA').format(new Date());
  }
}
