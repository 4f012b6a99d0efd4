import { useEffect, useState } from 'preact/hooks';
import { api, keyHeader, type Ok, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PlatformBadge } from '../../components/delivery/PlatformBadge';
import { Notice } from '../../components/FormKit';
import { format, type Strings, useLocale, useStrings } from '../../core/i18n';
import { useServerText } from '../../core/server-text';
import { useCan } from '../../core/session';
import { useAction, useLoaded } from './shared';

type Channel = Ok<'/channels', 'get'>[number];

const strings: Strings<
  | 'none'
  | 'state'
  | 'online'
  | 'offline'
  | 'paused'
  | 'failing'
  | 'lastError'
  | 'noError'
  | 'lastOrder'
  | 'never'
  | 'store'
  | 'autoAccept'
  | 'commission'
  | 'save'
  | 'saved'
  | 'publish'
  | 'published'
  | 'readOnly'
> = {
  en: {
    none: 'No delivery app is set up. Uber Eats and Rappi are set up with the POS_UBEREATS_* and POS_RAPPI_* variables (see the deployment guide).',
    state: 'State',
    online: 'Online',
    offline: 'Offline',
    paused: 'Paused until {time}',
    failing: 'With errors',
    lastError: 'Last error',
    noError: 'None',
    lastOrder: 'Last order',
    never: 'None yet',
    store: 'Store',
    autoAccept: 'Accept orders automatically',
    commission: 'Commission (%)',
    save: 'Save commission',
    saved: 'Saved',
    publish: 'Publish menu',
    published: 'Menu queued for publishing',
    readOnly: 'Only a manager changes these settings.',
  },
  es: {
    none: 'No hay plataformas de entrega configuradas. Uber Eats y Rappi se configuran con las variables POS_UBEREATS_* y POS_RAPPI_* (ve la guía de instalación).',
    state: 'Estado',
    online: 'En línea',
    offline: 'Fuera de línea',
    paused: 'En pausa hasta las {time}',
    failing: 'Con errores',
    lastError: 'Último error',
    noError: 'Ninguno',
    lastOrder: 'Último pedido',
    never: 'Aún ninguno',
    store: 'Tienda',
    autoAccept: 'Aceptar pedidos automáticamente',
    commission: 'Comisión (%)',
    save: 'Guardar comisión',
    saved: 'Guardado',
    publish: 'Publicar menú',
    published: 'Menú en cola para publicarse',
    readOnly: 'Solo un gerente cambia estos ajustes.',
  },
};

/**
 * "Plataformas de entrega": each configured delivery app with its state and last error, whether its
 * orders are accepted automatically, its commission, and publishing the menu to it.
 */
export function DeliveryAppsSection() {
  const t = useStrings(strings);
  const channels = useLoaded(async () => (await ok(api.GET('/channels'))) ?? []);
  return (
    <div class="stack">
      <Alert message={channels.error} />
      {channels.data?.length === 0 && <p class="muted">{t.none}</p>}
      {channels.data?.map((channel) => (
        <PlatformCard key={channel.channel} channel={channel} onChanged={channels.reload} />
      ))}
    </div>
  );
}

function PlatformCard({ channel, onChanged }: { channel: Channel; onChanged: () => Promise<void> }) {
  const t = useStrings(strings);
  const locale = useLocale();
  const serverText = useServerText();
  const mayWrite = useCan('channels.write');
  const action = useAction();
  const [commission, setCommission] = useState(String(channel.commission_percent));
  const [notice, setNotice] = useState<string>();
  useEffect(() => setCommission(String(channel.commission_percent)), [channel.commission_percent]);
  const name = PLATFORM_NAMES[channel.channel];
  const prefix = `channel-${channel.channel}`;
  const when = (iso: string) =>
    new Date(iso).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
  const state =
    channel.status === 'paused' && channel.paused_until
      ? format(t.paused, {
          time: new Date(channel.paused_until).toLocaleTimeString(locale, {
            hour: '2-digit',
            minute: '2-digit',
          }),
        })
      : channel.status === 'error'
        ? t.failing
        : channel.status === 'offline'
          ? t.offline
          : t.online;

  const save = async (body: { auto_accept?: boolean; commission_percent?: number }, done: string) => {
    setNotice(undefined);
    const isSaved = await action.run(() =>
      writeOnce((key) =>
        api.PUT('/channels/{channel}/settings', {
          params: { path: { channel: channel.channel } },
          headers: keyHeader(key),
          body,
        }),
      ),
    );
    if (isSaved) {
      setNotice(done);
      await onChanged();
    }
  };
  const publish = async () => {
    setNotice(undefined);
    const isQueued = await action.run(() =>
      writeOnce((key) =>
        api.POST('/channels/{channel}/menu-sync', {
          params: { path: { channel: channel.channel } },
          headers: keyHeader(key),
        }),
      ),
    );
    if (isQueued) setNotice(t.published);
  };
  const submitCommission = (event: Event) => {
    event.preventDefault();
    void save({ commission_percent: Number(commission) }, t.saved);
  };

  return (
    <section
      class="card stack delivery-app"
      aria-labelledby={`${prefix}-title`}
      data-channel={channel.channel}
    >
      <h2 id={`${prefix}-title`}>
        <PlatformBadge channel={channel.channel} />
        <span class="visually-hidden">{name}</span>
      </h2>
      <dl class="delivery-app-facts">
        <div>
          <dt>{t.state}</dt>
          <dd>{state}</dd>
        </div>
        <div>
          <dt>{t.lastError}</dt>
          <dd>{channel.last_error ? serverText(channel.last_error) : t.noError}</dd>
        </div>
        <div>
          <dt>{t.lastOrder}</dt>
          <dd>{channel.last_order_at ? when(channel.last_order_at) : t.never}</dd>
        </div>
        <div>
          <dt>{t.store}</dt>
          <dd>{channel.store_id}</dd>
        </div>
      </dl>
      {mayWrite ? (
        <>
          <div class="check">
            <input
              id={`${prefix}-auto`}
              type="checkbox"
              role="switch"
              aria-checked={channel.auto_accept}
              checked={channel.auto_accept}
              disabled={action.busy}
              onChange={(event) => void save({ auto_accept: event.currentTarget.checked }, t.saved)}
            />
            <label for={`${prefix}-auto`}>{t.autoAccept}</label>
          </div>
          <form class="delivery-app-commission" onSubmit={submitCommission}>
            <div class="field">
              <label for={`${prefix}-commission`}>{t.commission}</label>
              <input
                id={`${prefix}-commission`}
                type="number"
                inputMode="decimal"
                min={0}
                max={100}
                step={0.01}
                required
                value={commission}
                onInput={(event) => setCommission(event.currentTarget.value)}
              />
            </div>
            <button type="submit" disabled={action.busy}>
              {t.save}
            </button>
          </form>
          <div class="actions">
            <button type="button" class="primary" disabled={action.busy} onClick={() => void publish()}>
              {t.publish}
              <span class="visually-hidden"> {name}</span>
            </button>
          </div>
        </>
      ) : (
        <p class="muted">{t.readOnly}</p>
      )}
      <Alert message={action.error} />
      <Notice message={notice} />
    </section>
  );
}
