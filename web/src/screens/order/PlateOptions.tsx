import { useEffect, useRef, useState } from 'preact/hooks';
import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import {
  cents,
  type MenuDish,
  type ModifierGroup,
  type OrderDish,
  type PlateChoice,
  strings,
} from './order-screen';
import { SoldOutBadge } from './SoldOutBadge';

const MAX_QUANTITY = 99;
const COURSES = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Required groups first (the waiter cannot add without them), otherwise the dish's own order. */
function orderedGroups(dish: MenuDish): ModifierGroup[] {
  return [...dish.modifier_groups].sort((a, b) => Number(b.min_select > 0) - Number(a.min_select > 0));
}

/** The plate's options by group, as the panel holds them; an option the dish no longer offers drops out. */
function chosenOf(groups: ModifierGroup[], plate: OrderDish): Record<string, string[]> {
  const held = new Set(plate.modifiers.map((modifier) => modifier.option_id));
  return Object.fromEntries(
    groups.map((group) => [
      group.id,
      group.options.filter((option) => held.has(option.id)).map((option) => option.id),
    ]),
  );
}

/**
 * The options panel of one dish: its modifier groups, quantity, seat, course and note, as a modal
 * dialog (focus moves into it and returns on closing). Adds nothing until every group is answered.
 * Given a pending `plate`, it changes that one plate instead: its choice prefilled, no quantity.
 */
export function PlateOptions({
  dish,
  plate,
  seats,
  note,
  onDone,
  onClose,
}: {
  dish: MenuDish;
  plate?: OrderDish;
  seats: number;
  note: string;
  onDone: (choice: PlateChoice) => void;
  onClose: () => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const dialog = useRef<HTMLDialogElement>(null);
  const groups = orderedGroups(dish);
  const [chosen, setChosen] = useState<Record<string, string[]>>(() =>
    plate ? chosenOf(groups, plate) : {},
  );
  const [quantity, setQuantity] = useState(1);
  const [seat, setSeat] = useState<number | null>(plate?.seat ?? null);
  const [course, setCourse] = useState(plate?.course ?? 1);
  const [notes, setNotes] = useState(note);
  // A plate already on a seat past the guest count keeps its seat on offer.
  const seatCount = Math.max(seats, plate?.seat ?? 0);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const picked = (group: ModifierGroup) => chosen[group.id] ?? [];
  const unanswered = groups.filter(
    (group) => picked(group).length < group.min_select || picked(group).length > group.max_select,
  );
  const optionIds = groups.flatMap(picked);
  const options = groups.flatMap((group) => group.options);
  const deltas = optionIds.reduce(
    (sum, id) => sum + cents(options.find((option) => option.id === id)?.price_delta ?? 0),
    0,
  );
  const held = plate && new Set(plate.modifiers.map((modifier) => modifier.option_id));
  const keepsOptions = held?.size === optionIds.length && optionIds.every((id) => held.has(id));
  // The server reprices a plate only for a new choice: kept options keep its price, whatever the menu says now.
  const price = plate && keepsOptions ? cents(plate.price_at_order) : cents(dish.price) + deltas;

  const toggle = (group: ModifierGroup, optionId: string, on: boolean) => {
    const current = picked(group);
    const next =
      group.max_select === 1
        ? on && optionId
          ? [optionId]
          : []
        : on
          ? [...current, optionId]
          : current.filter((id) => id !== optionId);
    setChosen({ ...chosen, [group.id]: next });
  };

  const submit = (event: Event) => {
    event.preventDefault();
    if (unanswered.length > 0) return;
    onDone({ modifiers: optionIds, quantity, seat, course, notes: notes.trim() });
  };

  return (
    <dialog ref={dialog} class="plate-options" aria-labelledby="plate-options-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="plate-options-title">{dish.name}</h2>
        {groups.map((group) => (
          <fieldset key={group.id} class="plate-group">
            <legend>
              {group.name}{' '}
              <span class={`badge ${group.min_select > 0 ? 'warn' : 'neutral'}`}>
                {group.min_select > 0 ? t.required : t.optional}
              </span>{' '}
              <span class="muted">
                {group.max_select === 1
                  ? t.chooseOne
                  : group.min_select > 0
                    ? format(t.chooseBetween, { min: group.min_select, max: group.max_select })
                    : format(t.chooseUpTo, { n: group.max_select })}
              </span>
            </legend>
            {group.max_select === 1 && group.min_select === 0 && (
              <label class="plate-option">
                <input
                  type="radio"
                  name={group.id}
                  checked={picked(group).length === 0}
                  onChange={() => toggle(group, '', false)}
                />
                {t.none}
              </label>
            )}
            {group.options.map((option) => {
              const isOn = picked(group).includes(option.id);
              const isFull = group.max_select > 1 && !isOn && picked(group).length >= group.max_select;
              return (
                <label key={option.id} class={`plate-option${option.available ? '' : ' sold-out'}`}>
                  <input
                    type={group.max_select === 1 ? 'radio' : 'checkbox'}
                    name={group.id}
                    checked={isOn}
                    // A sold-out option the plate already has can still be taken off it.
                    disabled={(!option.available && !isOn) || isFull}
                    onChange={(event) => toggle(group, option.id, event.currentTarget.checked)}
                  />
                  <span>{option.name}</span>
                  {option.price_delta !== 0 && (
                    <span class="num muted">
                      {option.price_delta > 0 ? '+' : '−'}
                      {money(Math.abs(cents(option.price_delta)))}
                    </span>
                  )}
                  <SoldOutBadge available={option.available} outOfStock={option.out_of_stock} />
                </label>
              );
            })}
          </fieldset>
        ))}
        <div class="plate-fields">
          {!plate && (
            <fieldset class="plate-field stepper-field">
              <legend id="plate-quantity-label">{t.quantity}</legend>
              <div class="stepper">
                <button
                  type="button"
                  class="stepper-step"
                  aria-label={t.fewer}
                  disabled={quantity <= 1}
                  onClick={() => setQuantity(quantity - 1)}
                >
                  −
                </button>
                <input
                  type="number"
                  class="stepper-count"
                  min={1}
                  max={MAX_QUANTITY}
                  value={quantity}
                  aria-labelledby="plate-quantity-label"
                  onInput={(event) => {
                    const value = Number(event.currentTarget.value);
                    if (Number.isInteger(value)) setQuantity(Math.min(MAX_QUANTITY, Math.max(1, value)));
                  }}
                />
                <button
                  type="button"
                  class="stepper-step"
                  aria-label={t.more}
                  disabled={quantity >= MAX_QUANTITY}
                  onClick={() => setQuantity(quantity + 1)}
                >
                  +
                </button>
              </div>
            </fieldset>
          )}
          <label class="plate-field">
            {t.seat}
            <select
              value={seat ?? ''}
              onChange={(event) =>
                setSeat(event.currentTarget.value ? Number(event.currentTarget.value) : null)
              }
            >
              <option value="">{t.noSeat}</option>
              {Array.from({ length: seatCount }, (_, index) => (
                <option key={index} value={index + 1}>
                  {format(t.seatN, { n: index + 1 })}
                </option>
              ))}
            </select>
          </label>
          <label class="plate-field">
            {t.course}
            <select value={course} onChange={(event) => setCourse(Number(event.currentTarget.value))}>
              {COURSES.map((n) => (
                <option key={n} value={n}>
                  {format(t.courseN, { n })}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label class="plate-field">
          {t.plateNote}
          <input
            type="text"
            maxLength={500}
            value={notes}
            onInput={(event) => setNotes(event.currentTarget.value)}
          />
        </label>
        <p class="plate-price">
          {t.linePrice}: <strong class="num">{money(price)}</strong>
        </p>
        <p class={unanswered.length > 0 ? 'notice' : 'visually-hidden'} aria-live="polite">
          {unanswered.length > 0 &&
            format(t.answer, { groups: unanswered.map((group) => group.name).join(', ') })}
        </p>
        <div class="actions plate-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            {t.cancel}
          </button>
          <button type="submit" class="primary" disabled={unanswered.length > 0}>
            {plate ? t.save : format(t.addPlates, { n: quantity, dish: dish.name })}
          </button>
        </div>
      </form>
    </dialog>
  );
}
