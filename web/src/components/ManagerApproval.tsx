import { api, ok } from '../api/client';
import { type Strings, useStrings } from '../core/i18n';

/** What a manager approves on another user's tablet (POST /auth/approvals). */
export type ApprovablePermission = 'dishes.void' | 'tickets.discount';
export type ApprovalInput = { name: string; pin: string };
export const NO_APPROVAL: ApprovalInput = { name: '', pin: '' };

const strings: Strings<'title' | 'hint' | 'name' | 'pin'> = {
  en: {
    title: 'Manager approval',
    hint: 'Your role cannot do this: a manager types their name and PIN here.',
    name: "Manager's name",
    pin: "Manager's PIN",
  },
  es: {
    title: 'Autorización de un gerente',
    hint: 'Tu rol no puede hacer esto: un gerente escribe aquí su nombre y su PIN.',
    name: 'Nombre del gerente',
    pin: 'PIN del gerente',
  },
};

export function isApprovalComplete(input: ApprovalInput): boolean {
  return input.name.trim() !== '' && /^\d{4,12}$/.test(input.pin);
}

/** What the approved request acts on: the order, and the plates it voids or bills. */
export type ApprovalTarget = { order_id: string; order_dish_ids?: string[] };

/**
 * The header that lets the next request do what the signed-in user's role does not: a manager's
 * approval asked for just before it, for that order and those plates alone, since each is spent by
 * one request and lasts two minutes. None when `input` is undefined (the user's own role may). A
 * wrong PIN rejects with the server's refusal.
 */
export async function approvalHeaders(
  permission: ApprovablePermission,
  input: ApprovalInput | undefined,
  target: ApprovalTarget,
): Promise<Record<string, string>> {
  if (!input) return {};
  const body = { name: input.name.trim(), pin: input.pin, permission, ...target };
  const { approval } = await ok(api.POST('/auth/approvals', { body }));
  return { 'X-Manager-Approval': approval };
}

/** A manager's name and PIN, in the same dialog as the action they approve: no second device. */
export function ManagerApproval({
  id,
  input,
  onChange,
}: {
  /** Prefix of the fields' ids, unique on the screen. */
  id: string;
  input: ApprovalInput;
  onChange: (input: ApprovalInput) => void;
}) {
  const t = useStrings(strings);
  return (
    <fieldset class="stack manager-approval">
      <legend>{t.title}</legend>
      <p class="muted">{t.hint}</p>
      <label for={`${id}-name`}>{t.name}</label>
      <input
        id={`${id}-name`}
        type="text"
        autoComplete="off"
        maxLength={100}
        value={input.name}
        onInput={(event) => onChange({ ...input, name: event.currentTarget.value })}
      />
      <label for={`${id}-pin`}>{t.pin}</label>
      <input
        id={`${id}-pin`}
        type="password"
        inputMode="numeric"
        autoComplete="off"
        maxLength={12}
        value={input.pin}
        onInput={(event) => onChange({ ...input, pin: event.currentTarget.value.replace(/\D/g, '') })}
      />
    </fieldset>
  );
}
