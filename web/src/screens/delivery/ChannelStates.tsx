import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, keyHeader, ok, writeOnce } from '../../api/client';
import { Alert } from '../../components/Alert';
import { PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PlatformBadge } from '../../components/delivery/PlatformBadge';
import { format, useLocale, useStrings } from '../../core/i18n';
import { messageOf, useServerText } from '../../core/server-text';
import { useCan } from '../../core/session';
import type { ChannelView } from './delivery-model';
import { strings } from './strings';

/** A pause ends by itself, and a platform's error may clear: the states are read again this often. */
const REFRESH_MS = 30_000;
const PAUSE_MINUTES = 20;

/**
 * Each delivery app's state at the top of the delivery orders: online, paused until when, or the
 * error it last answered; who holds `channels.write` pauses it for 20 minutes or resumes it.
 */
export function ChannelStates() {
  const t = useStrings(strings);
  const locale = useLocale();
  const serverText = useServerText();
  const mayWrite = useCan('channels.write');
  const [channels, setChannels] = useState<ChannelView[]>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<string>();

  const load = useCallback(async () => {
    try {
      setChannels((await ok(api.GET('/channels'))) ?? []);
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
  }, [t.unreachable]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const change = async (channel: ChannelView['channel'], action: 'pause' | 'resume') => {
    setBusy(channel);
    try {
      await writeOnce((key) =>
        action === 'pause'
          ? api.POST('/channels/{channel}/pause', {
              params: { path: { channel } },
              headers: keyHeader(key),
              body: { minutes: PAUSE_MINUTES },
            })
          : api.POST('/channels/{channel}/resume', {
              params: { path: { channel } },
              headers: keyHeader(key),
            }),
      );
      await load();
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(undefined);
    }
  };

  const time = (iso: string) =>
    new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const stateOf = (channel: ChannelView) => {
    if (channel.status === 'paused' && channel.paused_until)
      return { text: format(t.pausedUntil, { time: time(channel.paused_until) }), badge: 'warn' };
    if (channel.status === 'error')
      return { text: format(t.failing, { message: serverText(channel.last_error ?? '') }), badge: 'danger' };
    if (channel.status === 'offline') return { text: t.offline, badge: 'neutral' };
    return { text: t.online, badge: 'ok' };
  };

  return (
    <section class="delivery-channels" aria-labelledby="delivery-channels-title">
      <h2 id="delivery-channels-title" class="visually-hidden">
        {t.platforms}
      </h2>
      <Alert message={error} />
      {channels?.length === 0 && <p class="muted">{t.noPlatforms}</p>}
      <ul class="delivery-channel-list">
        {channels?.map((channel) => {
          const state = stateOf(channel);
          const name = PLATFORM_NAMES[channel.channel];
          const isPaused = channel.status === 'paused';
          return (
            <li key={channel.channel} class="delivery-channel" data-channel={channel.channel}>
              <PlatformBadge channel={channel.channel} />
              <span class={`badge ${state.badge} delivery-channel-state`}>{state.text}</span>
              {mayWrite && (
                <button
                  type="button"
                  disabled={busy === channel.channel}
                  onClick={() => void change(channel.channel, isPaused ? 'resume' : 'pause')}
                >
                  {isPaused ? t.resume : t.pause}
                  <span class="visually-hidden"> {name}</span>
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
