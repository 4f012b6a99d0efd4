import { isPlatform, PLATFORM_NAMES } from '../../components/delivery/delivery-orders';
import { PlatformBadge } from '../../components/delivery/PlatformBadge';
import { format, formatTable, useLocale, useStrings } from '../../core/i18n';
import { shortCode } from '../../core/short-code';
import { type OrderCard as Card, clock, type PlateLine, type Shown } from './kitchen-queue';
import { strings } from './strings';

/** Past this, a plate is late: shown in red and labelled so. */
const LATE_AFTER_SECONDS = 10 * 60;

/** One order's card: the table and order on top, a line per group of like plates below. */
export function OrderCard({
  card,
  secondsOf,
  moving,
  onAdvance,
  onBump,
  on86,
}: {
  card: Card;
  secondsOf: (plate: Shown) => number;
  moving: ReadonlySet<string>;
  onAdvance: (line: PlateLine) => void;
  onBump: (line: PlateLine) => void;
  /** The line's 86 button, when this user may 86 and its dish is on sale; undefined: none. */
  on86: (line: PlateLine) => (() => void) | undefined;
}) {
  const t = useStrings(strings);
  const locale = useLocale();
  const platform = isPlatform(card.channel) ? card.channel : undefined;
  // A delivery order goes by the code the courier says and the customer's name, not a table.
  const where = platform
    ? [PLATFORM_NAMES[platform], card.channel_code, card.customer_first_name].filter(Boolean).join(' · ')
    : card.table_name === null
      ? t.counter
      : formatTable(t.table, { name: card.table_name });
  const order = platform
    ? format(t.order, { code: card.channel_code ?? shortCode(card.order_id) })
    : format(t.order, { code: shortCode(card.order_id) });
  const pickup =
    card.pickup_at &&
    format(t.pickup, {
      time: new Date(card.pickup_at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }),
    });
  return (
    <li
      class={`kitchen-order${platform ? ` kitchen-delivery` : ''}`}
      data-order-id={card.order_id}
      data-course={card.course}
      data-channel={card.channel}
    >
      <h2 class="kitchen-order-head">
        {platform ? (
          <span class="kitchen-delivery-head">
            <PlatformBadge channel={platform} />{' '}
            <span class="kitchen-delivery-code">{card.channel_code}</span>{' '}
            {card.customer_first_name && (
              <span class="kitchen-delivery-customer">{card.customer_first_name}</span>
            )}
          </span>
        ) : (
          <span>{where}</span>
        )}
        {!platform && <span class="kitchen-order-code">{order}</span>}
      </h2>
      <p class="kitchen-order-waiter">
        <span class="badge neutral kitchen-course">{format(t.course, { n: card.course })}</span>{' '}
        {platform ? (pickup ?? t.delivery) : format(t.waiter, { name: card.waiter })}
      </p>
      <ul class="kitchen-lines" aria-label={`${where}, ${order}, ${format(t.course, { n: card.course })}`}>
        {card.lines.map((line) => (
          <Line
            key={line.key}
            line={line}
            seconds={Math.max(...line.plates.map(secondsOf))}
            isMoving={line.plates.some((plate) => moving.has(plate.id))}
            onAdvance={() => onAdvance(line)}
            onBump={() => onBump(line)}
            on86={on86(line)}
          />
        ))}
      </ul>
    </li>
  );
}

function Line({
  line,
  seconds,
  isMoving,
  onAdvance,
  onBump,
  on86,
}: {
  line: PlateLine;
  seconds: number;
  isMoving: boolean;
  onAdvance: () => void;
  onBump: () => void;
  on86: (() => void) | undefined;
}) {
  const t = useStrings(strings);
  const isReady = line.status === 'ready';
  const isLate = seconds > LATE_AFTER_SECONDS && !isReady;
  const statusLabel = isReady ? t.ready : line.status === 'preparing' ? t.preparing : t.sent;
  const badge = isReady ? 'ok' : line.status === 'preparing' ? 'warn' : 'new';
  const count = `${line.plates.length} ×`;
  const body = (
    <>
      <span class="dish-top">
        <span>
          <span class="dish-count num">{count}</span> <span class="dish-name">{line.dish_name}</span>
        </span>
        <span class={`badge ${badge}`}>{statusLabel}</span>
      </span>
      {line.options.map((option) => (
        <strong key={option} class="dish-option">
          {option}
        </strong>
      ))}
      {line.seat !== null && <span class="dish-seat">{format(t.seat, { n: line.seat })}</span>}
      {line.notes && <span class="dish-notes">{line.notes}</span>}
      <span class="dish-time">
        <span class="num">{format(t.waiting, { time: clock(seconds) })}</span>
        {isLate && <span class="badge danger">{t.late}</span>}
      </span>
      <span class="dish-hint">
        {line.status === 'sent'
          ? t.tapToStart
          : line.status === 'preparing'
            ? t.tapWhenReady
            : t.waitingForService}
      </span>
    </>
  );
  return (
    <li
      class={`kitchen-dish status-${line.status}${isLate ? ' late' : ''}`}
      data-ids={line.plates.map((plate) => plate.id).join(' ')}
      data-count={line.plates.length}
      data-status={line.status}
      aria-busy={isMoving}
    >
      {isReady ? (
        <div class="dish-advance">{body}</div>
      ) : (
        <button type="button" class="dish-advance" disabled={isMoving} onClick={onAdvance}>
          {body}
        </button>
      )}
      {isReady && (
        <button type="button" class="dish-bump" onClick={onBump}>
          {t.bump}
          <span class="visually-hidden"> {`${count} ${line.dish_name}`}</span>
        </button>
      )}
      {on86 && (
        <button
          type="button"
          class="dish-86"
          aria-label={format(t.eightySixFor, { dish: line.dish_name })}
          onClick={on86}
        >
          {t.eightySix}
        </button>
      )}
    </li>
  );
}
