import { useState } from 'preact/hooks';
import { Alert } from '../../components/Alert';
import type { DeliveryOrder } from '../../components/delivery/delivery-orders';
import { format, useStrings } from '../../core/i18n';
import type { MenuCategory } from './delivery-model';
import { strings } from './strings';

type Unmapped = NonNullable<DeliveryOrder['unmapped_items']>[number];
const REASONS = new Set(['unknown_dish', 'unknown_option', 'unavailable']);

/**
 * A held order's items that map to nothing on our menu, each named with why, and a dish picker for
 * each: the ones chosen are sent together; the order waits for acceptance once every one maps.
 */
export function HeldItems({
  order,
  menu,
  mayMap,
  busy,
  onMap,
}: {
  order: DeliveryOrder;
  menu: MenuCategory[];
  mayMap: boolean;
  busy: boolean;
  onMap: (items: { index: number; dish_id: string }[]) => Promise<void>;
}) {
  const t = useStrings(strings);
  const [chosen, setChosen] = useState<Record<number, string>>({});
  const [invalid, setInvalid] = useState<string>();
  const items = order.unmapped_items ?? [];
  const why = (item: Unmapped) => (REASONS.has(item.reason) ? t[item.reason as 'unknown_dish'] : item.reason);
  const label = (item: Unmapped) => `${item.quantity} × ${item.name}`;

  const submit = (event: Event) => {
    event.preventDefault();
    const mapped = items.flatMap((item) => {
      const dishId = chosen[item.index];
      return dishId ? [{ index: item.index, dish_id: dishId }] : [];
    });
    if (mapped.length === 0) return setInvalid(t.chooseOne);
    setInvalid(undefined);
    void onMap(mapped);
  };

  return (
    <form class="delivery-held stack" onSubmit={submit} aria-label={t.unmappedTitle}>
      <p class="delivery-held-title">{t.unmappedTitle}</p>
      <ul class="delivery-unmapped">
        {items.map((item) => {
          const id = `map-${order.id}-${item.index}`;
          return (
            <li key={item.index}>
              <span>
                <strong>{label(item)}</strong> <span class="muted">({why(item)})</span>
              </span>
              {mayMap && (
                <select
                  id={id}
                  aria-label={format(t.dishFor, { item: item.name })}
                  value={chosen[item.index] ?? ''}
                  onChange={(event) => {
                    const { value } = event.currentTarget;
                    setChosen((current) => ({ ...current, [item.index]: value }));
                  }}
                >
                  <option value="">{t.chooseDish}</option>
                  {menu.map((category) => (
                    <optgroup key={category.name} label={category.name}>
                      {category.dishes.map((dish) => (
                        <option key={dish.id} value={dish.id} disabled={!dish.available}>
                          {dish.name}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </select>
              )}
            </li>
          );
        })}
      </ul>
      <Alert message={invalid} />
      {mayMap && (
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t.map}
          </button>
        </div>
      )}
    </form>
  );
}
