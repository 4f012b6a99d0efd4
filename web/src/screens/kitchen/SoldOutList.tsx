import { useStrings } from '../../core/i18n';
import type { StationDish } from './kitchen-menu';
import { strings } from './strings';

/** The station's 86'd dishes, each with a button that offers it again. */
export function SoldOutList({
  dishes,
  onBackOn,
}: {
  dishes: StationDish[];
  onBackOn: (dish: StationDish) => void;
}) {
  const t = useStrings(strings);
  const soldOut = dishes.filter((dish) => !dish.available);
  if (soldOut.length === 0) return null;
  return (
    <section class="kitchen-sold-out" aria-labelledby="sold-out-title">
      <h2 id="sold-out-title">{t.soldOut}</h2>
      <ul>
        {soldOut.map((dish) => (
          <li key={dish.id}>
            <span class="kitchen-sold-out-name">{dish.name}</span>
            <button type="button" onClick={() => onBackOn(dish)}>
              {t.backOn}
              <span class="visually-hidden"> {dish.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
