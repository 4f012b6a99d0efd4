import { useEffect, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { fromCents, toCents } from '../../core/cents';
import type { LiveEvent } from '../../core/events';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { messageOf } from '../../core/server-text';
import { CashForm } from './CashForm';
import { checkoutStrings } from './checkout-strings';
import { LightningPay } from './LightningPay';
import { type AmountInput, centsOfInput, PaymentAmount } from './PaymentAmount';
import { recordPayment } from './pay-requests';
import { strings } from './strings';
import { TerminalPay } from './TerminalPay';
import { CARD_TERMINAL, useTerminals } from './terminal-model';
import { terminalStrings } from './terminal-strings';
import { TICKET_PAID, type Ticket } from './till-model';

type Method = Ok<'/payment-methods', 'get'>[number];

/**
 * Paying one bill, all of it or a part, with a tip: cash with change, card (or another recorded method),
 * a charge on the card terminal, or Lightning.
 */
export function PayPanel({
  ticket,
  name,
  lastEvent,
  onPaid,
}: {
  ticket: Ticket;
  name: string;
  lastEvent: LiveEvent | undefined;
  onPaid: (notice?: string) => void;
}) {
  const t = useStrings(strings);
  const checkout = useStrings(checkoutStrings);
  const terminal = useStrings(terminalStrings);
  const money = useMoney();
  const terminals = useTerminals();
  // A charge sent to the terminal keeps its amount: the amount fields come back with another method.
  const [isTerminalCharging, setTerminalCharging] = useState(false);
  const [methods, setMethods] = useState<Method[]>();
  const [method, setMethod] = useState<string>();
  // The bill as it was when the terminal charge was paid: once it is read again (a new object), the
  // panel offers what is left, or says the bill is paid.
  const [settledOn, setSettledOn] = useState<Ticket>();
  if (settledOn && settledOn !== ticket) {
    setSettledOn(undefined);
    setTerminalCharging(false);
    setMethod(undefined);
  }
  const [error, setError] = useState<string>();
  // The amount and tip a Lightning invoice was asked for: the invoice stays as asked until it settles.
  const [lightningAsk, setLightningAsk] = useState<{ amountCents: number; tipCents: number }>();
  const balanceCents = toCents(ticket.balance);
  const [input, setInput] = useState<AmountInput>({ amount: fromCents(balanceCents).toFixed(2), tip: '' });
  // A part was paid (here or on another till): the next payment starts from what is still due. Done
  // while rendering, as CashForm does, so no late effect overwrites what was typed.
  const [inputFor, setInputFor] = useState(balanceCents);
  if (inputFor !== balanceCents) {
    setInputFor(balanceCents);
    setInput({ amount: fromCents(balanceCents).toFixed(2), tip: '' });
  }

  useEffect(() => {
    ok(api.GET('/payment-methods'))
      .then((all) => setMethods(all.filter((item) => item.is_active)))
      .catch((failure) => setError(messageOf(failure, t.unreachable)));
  }, [t.unreachable]);

  // The terminal's method is offered only while the terminal is configured and one is integrated.
  const offered = methods?.filter((item) => item.code !== CARD_TERMINAL || (terminals?.length ?? 0) > 0);
  const labelOf = (item: Method) =>
    item.code === CARD_TERMINAL
      ? terminal.method
      : item.code === 'cash'
        ? t.cash
        : item.code === 'card'
          ? t.card
          : item.code === 'lightning'
            ? t.lightning
            : item.name;
  const isPaid = ticket.status === TICKET_PAID;
  const { amountCents, tipCents } = centsOfInput(input, balanceCents);
  const isReady = amountCents !== undefined && tipCents !== undefined;
  const paid = (notice?: string) => {
    const leftCents = balanceCents - (amountCents ?? 0);
    const partNotice =
      leftCents > 0 ? format(checkout.partPaid, { balance: money(leftCents), name }) : undefined;
    onPaid([notice, partNotice].filter(Boolean).join(' ') || undefined);
  };

  return (
    <section class="card stack pay-panel" aria-labelledby="pay-title">
      <h2 id="pay-title">{format(t.payTitle, { name })}</h2>
      {!isPaid && (
        <p>
          {t.due}: <strong class="num">{money(balanceCents)}</strong>
        </p>
      )}
      {isPaid && method !== 'lightning' && (
        <p class="notice" role="status">
          {format(t.billPaid, { name })}
        </p>
      )}
      <Alert message={error} />
      {!isPaid && method !== 'lightning' && !isTerminalCharging && (
        <PaymentAmount balanceCents={balanceCents} input={input} onChange={setInput} />
      )}
      {!isPaid && !isTerminalCharging && (
        <fieldset class="pay-methods">
          <legend>{t.method}</legend>
          <div class="row">
            {offered?.map((item) => (
              <button
                key={item.code}
                type="button"
                aria-pressed={method === item.code}
                class={method === item.code ? 'primary' : undefined}
                disabled={!isReady}
                onClick={() => {
                  setError(undefined);
                  setMethod(item.code);
                  if (item.code === 'lightning' && isReady) setLightningAsk({ amountCents, tipCents });
                }}
              >
                {labelOf(item)}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {!isPaid && isReady && method === 'cash' && (
        <CashForm
          ticketId={ticket.id}
          amountCents={amountCents}
          tipCents={tipCents}
          onPaid={paid}
          onError={setError}
        />
      )}
      {!isPaid &&
        isReady &&
        method !== undefined &&
        method !== 'cash' &&
        method !== 'lightning' &&
        method !== CARD_TERMINAL && (
          <RecordedForm
            ticketId={ticket.id}
            method={method}
            amountCents={amountCents}
            tipCents={tipCents}
            label={format(t.charge, {
              amount: money(amountCents + tipCents),
              method: (() => {
                const chosen = methods?.find((item) => item.code === method);
                return chosen ? labelOf(chosen) : method;
              })(),
            })}
            onPaid={() => paid()}
            onError={setError}
          />
        )}
      {method === CARD_TERMINAL && terminals && (
        <TerminalPay
          ticketId={ticket.id}
          amountCents={amountCents}
          tipCents={tipCents}
          terminals={terminals}
          lastEvent={lastEvent}
          onStarted={setTerminalCharging}
          onSettled={(notice) => {
            setSettledOn(ticket);
            paid(notice);
          }}
          onOtherMethod={() => setMethod(undefined)}
        />
      )}
      {method === 'lightning' && lightningAsk && (
        <LightningPay
          ticket={ticket}
          amountCents={lightningAsk.amountCents}
          tipCents={lightningAsk.tipCents}
          lastEvent={lastEvent}
          onSettled={() => {
            // Part of the bill paid: the panel offers the rest; paid in full, it keeps saying so.
            if (lightningAsk.amountCents < balanceCents) setMethod(undefined);
            paid();
          }}
        />
      )}
    </section>
  );
}

function RecordedForm({
  ticketId,
  method,
  amountCents,
  tipCents,
  label,
  onPaid,
  onError,
}: {
  ticketId: string;
  method: string;
  amountCents: number;
  tipCents: number;
  label: string;
  onPaid: () => void;
  onError: (message: string | undefined) => void;
}) {
  const t = useStrings(strings);
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    setBusy(true);
    onError(undefined);
    try {
      await recordPayment(ticketId, { method, amountCents, tipCents });
      onPaid();
    } catch (failure) {
      onError(messageOf(failure, t.unreachable));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" class="primary" disabled={busy} onClick={() => void pay()}>
      {label}
    </button>
  );
}
