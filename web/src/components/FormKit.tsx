import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { type Strings, useStrings } from '../core/i18n';
import { Alert } from './Alert';

/*
 * The shell every record form of the manager shares (a category, an ingredient, a product, a dish,
 * a modifier group): its title, its fields, its refusal and its buttons. Each form keeps only what
 * is its own: its fields and what it sends.
 */

const strings: Strings<'cancel'> = { en: { cancel: 'Cancel' }, es: { cancel: 'Cancelar' } };

/** A labelled field: the label above its control, tied by `for`. */
export function Field({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

/** A form's buttons: Cancel when it edits a record, then its submit button. */
export function FormActions({
  submitLabel,
  busy,
  onCancel,
}: {
  submitLabel: string;
  busy: boolean;
  onCancel?: (() => void) | undefined;
}) {
  const t = useStrings(strings);
  return (
    <div class="actions">
      {onCancel && (
        <button type="button" class="ghost" onClick={onCancel}>
          {t.cancel}
        </button>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {submitLabel}
      </button>
    </div>
  );
}

/** What a form just did ("Saved", "3 counts recorded"), announced without moving the focus. */
export function Notice({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="notice" role="status">
      {message}
    </p>
  );
}

/**
 * A form that adds a record or edits one: "New dish" or "Edit dish: Tamal" over its fields (the
 * children), then what else it holds (`after`), the refusal and the buttons. `prefix` names its
 * elements' ids.
 */
export function RecordForm({
  prefix,
  title,
  recordName,
  onSubmit,
  children,
  after,
  invalid,
  error,
  submitLabel,
  busy,
  onCancel,
}: {
  prefix: string;
  title: string;
  /** The edited record's name; none for a new one. */
  recordName?: string | undefined;
  onSubmit: () => Promise<void>;
  children: ComponentChildren;
  after?: ComponentChildren;
  /** What the form itself found wrong before sending; shown over the server's refusal (`error`). */
  invalid?: string | undefined;
  error: string | undefined;
  submitLabel: string;
  busy: boolean;
  onCancel?: (() => void) | undefined;
}) {
  const submit = (event: Event) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <form class="manager-form" aria-labelledby={`${prefix}-title`} onSubmit={submit}>
      <h3 id={`${prefix}-title`}>
        {title}
        {recordName !== undefined && `: ${recordName}`}
      </h3>
      <div class="fields">{children}</div>
      {after}
      <Alert message={invalid ?? error} />
      <FormActions submitLabel={submitLabel} busy={busy} onCancel={onCancel} />
    </form>
  );
}

/**
 * A one-line text field, its id `${prefix}-${name}`: `input` carries what else the input needs
 * (`inputMode`, `required`, a placeholder), in one object a form may share between its fields.
 */
export function TextField({
  prefix,
  name,
  label,
  value,
  onInput,
  input = {},
  help,
}: {
  prefix: string;
  name: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  input?: JSX.IntrinsicElements['input'];
  /** A hint below the input, which the input names with aria-describedby (id `${prefix}-${name}-help`). */
  help?: string | undefined;
}) {
  const id = `${prefix}-${name}`;
  const helpId = help ? `${id}-help` : undefined;
  return (
    <Field id={id} label={label}>
      <input
        {...input}
        id={id}
        aria-describedby={helpId}
        value={value}
        onInput={(event) => onInput(event.currentTarget.value)}
      />
      {help && (
        <small id={helpId} class="muted">
          {help}
        </small>
      )}
    </Field>
  );
}

/** A price as typed: the field every priced record has (core/cents reads what is typed). */
export function PriceField(props: {
  prefix: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  placeholder: string;
}) {
  const input = { inputMode: 'decimal', required: true, placeholder: props.placeholder } as const;
  return <TextField {...props} name="price" input={input} />;
}

type Category = { id: string; name: string };
type CategoryChoice = { categories: Category[]; chosen: string; choose: (id: string) => void };

/**
 * The category a form files its record under: the one chosen while it still exists (another screen
 * may delete it), else the first.
 */
export function useCategoryChoice(categories: Category[], initial: string | undefined): CategoryChoice {
  const [categoryId, choose] = useState(initial ?? categories[0]?.id ?? '');
  const chosen = categories.some((category) => category.id === categoryId)
    ? categoryId
    : (categories[0]?.id ?? '');
  return { categories, chosen, choose };
}

/** The select of a record's category. */
export function CategoryField({
  prefix,
  label,
  choice,
}: {
  prefix: string;
  label: string;
  choice: CategoryChoice;
}) {
  return (
    <Field id={`${prefix}-category`} label={label}>
      <select
        id={`${prefix}-category`}
        value={choice.chosen}
        onChange={(event) => choice.choose(event.currentTarget.value)}
      >
        {choice.categories.map((category) => (
          <option key={category.id} value={category.id}>
            {category.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
