import { useEffect, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';

export type Terminal = Ok<'/terminals', 'get'>[number];
export type Payment = Ok<'/payments/{id}', 'get'>;

/** The payment method of charges on the terminal: the till charges it there, never records it by hand. */
export const CARD_TERMINAL = 'card_terminal';
/** Only a terminal in PDV (integrated) mode takes charges from the till. */
export const INTEGRATED = 'PDV';
const REMEMBERED = 'pos.terminal';

/**
 * The terminals this till may charge on; undefined while asking, or when the terminal is not configured
 * (503) or cannot be listed: then the till offers no terminal charge and the manual "Tarjeta" stays.
 */
export function useTerminals(): Terminal[] | undefined {
  const [terminals, setTerminals] = useState<Terminal[]>();
  useEffect(() => {
    ok(api.GET('/terminals'))
      .then((all) => setTerminals(all.filter((terminal) => terminal.operating_mode === INTEGRATED)))
      .catch(() => setTerminals(undefined));
  }, []);
  return terminals;
}

/** The terminal beside this till: the one chosen on this device, else the restaurant's default, else the first. */
export function preferredTerminal(terminals: Terminal[]): string | undefined {
  const remembered = localStorage.getItem(REMEMBERED);
  return (
    terminals.find((terminal) => terminal.id === remembered)?.id ??
    terminals.find((terminal) => terminal.is_default)?.id ??
    terminals[0]?.id
  );
}

export function rememberTerminal(id: string): void {
  localStorage.setItem(REMEMBERED, id);
}

/** Still waiting on the terminal: the charge may yet be paid, declined or canceled. */
export function isWaiting(payment: Payment | undefined): boolean {
  return payment?.status === 'pending' || payment?.status === 'action_required';
}
