import { useState } from 'preact/hooks';
import { api, type Body, createOnce } from '../../api/client';
import {
  type ApprovalInput,
  approvalHeaders,
  isApprovalComplete,
  ManagerApproval,
  NO_APPROVAL,
} from '../../components/ManagerApproval';
import { fromCents, splitEvenly, toCents } from '../../core/cents';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { useCan } from '../../core/session';
import { checkoutStrings } from './checkout-strings';
import { DiscountFields, discountOf, NO_DISCOUNT } from './DiscountFields';
import { strings } from './strings';
import type { OrderDish } from './till-model';

type BillBody = Body<'/orders/{id}/tickets', 'post'>;

/** `approval`: a manager's name and PIN, asked for this bill's discount when the user's role cannot give it. */
async function createBill(
  orderId: string,
  body: BillBody,
  approval?: ApprovalInput,
): Promise<{ id: string; ids?: string[] }> {
  const target = { order_id: orderId, ...(body.order_dish_ids && { order_dish_ids: body.order_dish_ids }) };
  const headers = body.discount ? await approvalHeaders('tickets.discount', approval, target) : {};
  return createOnce((key) =>
    api.POST('/orders/{id}/tickets', {
      params: { header: { 'idempotency-key': key }, path: { id: orderId } },
      body,
      headers,
    }),
  );
}

const MAX_PARTS = 20;

/** Makes bills from what is not billed yet: all of it, one per seat, chosen dishes, or N even shares. */
export function BillMaker({
  orderId,
  unbilledCents,
  unbilledDishes,
  onCreated,
  onError,
}: {
  orderId: string;
  unbilledCents: number;
  unbilledDishes: OrderDish[];
  onCreated: (firstBillId: string) => void;
  onError: (failure: unknown) => void;
}) {
  const t = useStrings(strings);
  const checkout = useStrings(checkoutStrings);
  const money = useMoney();
  const canDiscount = useCan('tickets.discount');
  const [discountInput, setDiscountInput] = useState(NO_DISCOUNT);
  const [approvalInput, setApprovalInput] = useState(NO_APPROVAL);
  const { discount, problem: discountProblem } = discountOf(discountInput);
  // Without `tickets.discount` a discount is a manager's to approve, on this same tablet.
  const approval = discount && !canDiscount ? approvalInput : undefined;
  const problem = discountProblem ?? (approval && !isApprovalComplete(approval) ? 'approval' : undefined);
  // An amount off each of N shares would multiply it: an even split takes a percent only.
  const canSplitEvenly = discount?.type !== 'amount';
  // The server bills by seat only whole plates; a seat on any plate is what makes it worth offering.
  const hasSeats = unbilledDishes.some((dish) => dish.seat !== null);
  const [parts, setParts] = useState('2');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const partCount = Number.parseInt(parts, 10);
  const isValidCount = Number.isInteger(partCount) && partCount >= 2 && partCount <= MAX_PARTS;
  const shares = isValidCount ? splitEvenly(unbilledCents, partCount) : [];

  const run = async (make: () => Promise<string>) => {
    setBusy(true);
    try {
      const firstId = await make();
      setDiscountInput(NO_DISCOUNT);
      setApprovalInput(NO_APPROVAL);
      onCreated(firstId);
    } catch (failure) {
      setApprovalInput((typed) => ({ ...typed, pin: '' }));
      onError(failure);
    } finally {
      setBusy(false);
    }
  };
  const withDiscount = (body: BillBody): BillBody => (discount ? { ...body, discount } : body);
  const billAll = () => run(async () => (await createBill(orderId, withDiscount({}), approval)).id);
  const billBySeat = () =>
    run(async () => (await createBill(orderId, withDiscount({ by_seat: true }), approval)).id);
  const billChosen = () =>
    run(async () => {
      const { id } = await createBill(orderId, withDiscount({ order_dish_ids: [...chosen] }), approval);
      setChosen(new Set());
      return id;
    });
  // One bill after the other: each share is taken from what is left, so they add up to the cent.
  const billEvenly = () =>
    run(async () => {
      const ids: string[] = [];
      for (const cents of shares)
        ids.push((await createBill(orderId, withDiscount({ amount: fromCents(cents) }), approval)).id);
      return ids[0] as string;
    });
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  return (
    <div class="card stack bill-maker">
      <h2>{t.makeBills}</h2>
      <p>
        {t.unbilled}: <strong class="num">{money(unbilledCents)}</strong>
      </p>
      <DiscountFields input={discountInput} onChange={setDiscountInput} />
      {approval && <ManagerApproval id="bill-approval" input={approvalInput} onChange={setApprovalInput} />}
      <button
        type="button"
        class="primary"
        disabled={busy || problem !== undefined}
        onClick={() => void billAll()}
      >
        {format(t.billWhole, { amount: money(unbilledCents) })}
      </button>

      <div class="stack split-evenly">
        <h3>{t.splitEvenly}</h3>
        <div class="row">
          <label for="split-parts">{t.parts}</label>
          <input
            id="split-parts"
            type="number"
            inputMode="numeric"
            min={2}
            max={MAX_PARTS}
            value={parts}
            onInput={(event) => setParts(event.currentTarget.value)}
          />
          <button
            type="button"
            disabled={busy || !isValidCount || problem !== undefined || !canSplitEvenly}
            onClick={() => void billEvenly()}
          >
            {t.splitEvenlyAction}
          </button>
        </div>
        {!canSplitEvenly && <p class="muted">{checkout.discountEvenlyPercent}</p>}
        {isValidCount && (
          <p class="muted">
            {shares.map((cents, index) => (index === 0 ? '' : ' + ') + money(cents)).join('')}
          </p>
        )}
      </div>

      {hasSeats && (
        <div class="stack bill-by-seat">
          <button
            type="button"
            disabled={busy || problem !== undefined || !canSplitEvenly}
            onClick={() => void billBySeat()}
          >
            {t.billBySeat}
          </button>
          {!canSplitEvenly && <p class="muted">{t.billBySeatPercent}</p>}
        </div>
      )}

      {unbilledDishes.length > 0 && (
        <fieldset class="stack split-dishes">
          <legend>{t.splitByDishes}</legend>
          {unbilledDishes.map((dish) => (
            <label key={dish.id} class="dish-choice">
              <input type="checkbox" checked={chosen.has(dish.id)} onChange={() => toggle(dish.id)} />
              <span>{dish.dish_name}</span>
              <span class="num">{money(toCents(dish.price_at_order))}</span>
            </label>
          ))}
          <button
            type="button"
            disabled={busy || chosen.size === 0 || problem !== undefined}
            onClick={() => void billChosen()}
          >
            {format(t.billChosen, { count: chosen.size })}
          </button>
        </fieldset>
      )}
    </div>
  );
}
