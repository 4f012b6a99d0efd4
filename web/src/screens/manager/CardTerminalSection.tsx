import { useState } from 'preact/hooks';
import { ApiError, api, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { Notice } from '../../components/FormKit';
import { terminalName } from '../../core/card-terminal';
import { type Strings, useStrings } from '../../core/i18n';
import { useCan } from '../../core/session';
import { useAction, useLoaded } from './shared';

type Terminal = Ok<'/terminals', 'get'>[number];

/** The server's 503 when no access token is set: the section explains the set-up instead of an error. */
const NOT_CONFIGURED = 'The card terminal is not configured (POS_MP_ACCESS_TOKEN)';
const INTEGRATED = 'PDV';

const strings: Strings<
  | 'notConfigured'
  | 'none'
  | 'terminal'
  | 'mode'
  | 'integrated'
  | 'standalone'
  | 'defaultTerminal'
  | 'defaultHelp'
  | 'isDefault'
  | 'saved'
  | 'readOnly'
> = {
  en: {
    notConfigured:
      'The card terminal is not set up. Mercado Pago Point is set up with the POS_MP_ACCESS_TOKEN and POS_MP_WEBHOOK_SECRET variables, and the notification URL in Mercado Pago’s panel (see the deployment guide).',
    none: 'This Mercado Pago account has no terminals.',
    terminal: 'Terminal',
    mode: 'Mode',
    integrated: 'Integrated',
    standalone: 'Standalone: switch it to integrated mode in the Mercado Pago app',
    defaultTerminal: 'Default terminal',
    defaultHelp: 'The till charges on it unless a till has chosen its own terminal.',
    isDefault: 'Default',
    saved: 'Default terminal saved',
    readOnly: 'Only a manager chooses the default terminal.',
  },
  es: {
    notConfigured:
      'La terminal de tarjetas no está configurada. Mercado Pago Point se configura con las variables POS_MP_ACCESS_TOKEN y POS_MP_WEBHOOK_SECRET, y la URL de notificaciones en el panel de Mercado Pago (ve la guía de instalación).',
    none: 'Esta cuenta de Mercado Pago no tiene terminales.',
    terminal: 'Terminal',
    mode: 'Modo',
    integrated: 'Integrada',
    standalone: 'Independiente: cámbiala a modo integrado en la app de Mercado Pago',
    defaultTerminal: 'Terminal predeterminada',
    defaultHelp: 'La caja cobra en ella, salvo que una caja haya elegido su propia terminal.',
    isDefault: 'Predeterminada',
    saved: 'Terminal predeterminada guardada',
    readOnly: 'Solo un gerente elige la terminal predeterminada.',
  },
};

/**
 * "Terminal de tarjetas": the Mercado Pago account's terminals with each one's mode (only an integrated
 * one takes charges from the till), and the one the tills charge on by default.
 */
export function CardTerminalSection() {
  const t = useStrings(strings);
  const mayWrite = useCan('settings.write');
  const action = useAction();
  const [notice, setNotice] = useState<string>();
  // The terminal just chosen shows chosen while the server saves it; a refusal puts the saved one back.
  const [chosen, setChosen] = useState<string>();
  // null: no access token configured, which is a set-up to explain, not a failure.
  const terminals = useLoaded(async (): Promise<Terminal[] | null> => {
    try {
      return await ok(api.GET('/terminals'));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 503 && failure.message === NOT_CONFIGURED)
        return null;
      throw failure;
    }
  });
  const choose = async (id: string) => {
    setNotice(undefined);
    setChosen(id);
    const isSaved = await action.run(() =>
      writeOnce(() => api.PUT('/settings/terminals', { body: { default_terminal_id: id } })),
    );
    if (isSaved) {
      setNotice(t.saved);
      await terminals.reload();
    }
    setChosen(undefined);
  };

  if (terminals.data === null) return <p class="muted card-terminal-setup">{t.notConfigured}</p>;
  const integrated = terminals.data?.filter((terminal) => terminal.operating_mode === INTEGRATED) ?? [];
  const defaultId = chosen ?? integrated.find((terminal) => terminal.is_default)?.id;
  return (
    <div class="stack card-terminals">
      <Alert message={terminals.error} />
      {terminals.data?.length === 0 && <p class="muted">{t.none}</p>}
      {terminals.data && terminals.data.length > 0 && (
        <table class="list card-terminal-list">
          <thead>
            <tr>
              <th scope="col">{t.terminal}</th>
              <th scope="col">{t.mode}</th>
            </tr>
          </thead>
          <tbody>
            {terminals.data.map((terminal) => (
              <tr key={terminal.id} data-terminal={terminal.id}>
                <td>
                  {terminalName(terminal.id)}
                  {terminal.is_default && <span class="badge ok"> {t.isDefault}</span>}
                </td>
                <td data-label={t.mode}>
                  {terminal.operating_mode === INTEGRATED ? t.integrated : t.standalone}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {integrated.length > 0 &&
        (mayWrite ? (
          <fieldset class="card stack card-terminal-default" disabled={action.busy}>
            <legend>{t.defaultTerminal}</legend>
            <p class="muted">{t.defaultHelp}</p>
            {integrated.map((terminal) => (
              <div class="check" key={terminal.id}>
                <input
                  id={`terminal-${terminal.id}`}
                  type="radio"
                  name="default-terminal"
                  checked={terminal.id === defaultId}
                  onChange={() => void choose(terminal.id)}
                />
                <label for={`terminal-${terminal.id}`}>{terminalName(terminal.id)}</label>
              </div>
            ))}
          </fieldset>
        ) : (
          <p class="muted">{t.readOnly}</p>
        ))}
      <Alert message={action.error} />
      <Notice message={notice} />
    </div>
  );
}
