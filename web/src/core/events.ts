import { useEffect, useRef } from 'preact/hooks';
import { refreshSession, serverReachable } from '../api/client';

export type Topic = 'orders' | 'kitchen' | 'tables' | 'tickets' | 'payments' | 'inventory' | 'printers';
/** One event of GET /events: its type, when it happened, and the record as its GET shows it. */
export type LiveEvent = { type: string; at: string; data: unknown };

const EVENT_TYPES = [
  'order.created',
  'order.updated',
  'order.deleted',
  'order.dishes_changed',
  'dish.status_changed',
  'dish.availability_changed',
  'modifier_group.created',
  'modifier_group.updated',
  'modifier_group.deleted',
  'stock.moved',
  'stock.low',
  'table.created',
  'table.updated',
  'table.deleted',
  'ticket.created',
  'ticket.paid',
  'ticket.canceled',
  'payment.pending',
  'payment.settled',
  'payment.expired',
  'payment.updated',
  'payment.failed',
  'payment.canceled',
  'payment.refunded',
  'printer.status_changed',
];
const RECONNECT_DELAY_MS = 1000;

/**
 * Follows the live stream while the screen is shown. `onEvent` gets each change; `onReset` is called
 * when events may have been missed (first connection, a gap past retention, a reconnect), so the
 * screen reloads what it shows. When the stream is refused (the 60 s access token expired), the
 * session is refreshed and the stream resumes from the last event it saw.
 */
export function useLiveEvents(
  topics: Topic[],
  onEvent: (event: LiveEvent) => void,
  onReset: () => void,
): void {
  const handlers = useRef({ onEvent, onReset });
  handlers.current = { onEvent, onReset };
  const topicList = topics.join(',');

  useEffect(() => {
    let source: EventSource | undefined;
    let lastEventId: string | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const deliver = (message: MessageEvent<string>) => {
      lastEventId = message.lastEventId || lastEventId;
      handlers.current.onEvent(JSON.parse(message.data) as LiveEvent);
    };
    const connect = () => {
      const query = new URLSearchParams({ topics: topicList });
      if (lastEventId) query.set('last_event_id', lastEventId);
      source = new EventSource(`/events?${query}`);
      source.onopen = () => serverReachable.set(true);
      for (const type of EVENT_TYPES) source.addEventListener(type, deliver);
      source.addEventListener('reset', () => handlers.current.onReset());
      source.onerror = () => {
        // Still connecting: the browser retries by itself, and the server is out of reach meanwhile.
        if (source?.readyState === EventSource.CONNECTING) serverReachable.set(false);
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        retry = setTimeout(async () => {
          await refreshSession();
          if (!stopped) connect();
        }, RECONNECT_DELAY_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [topicList]);
}
