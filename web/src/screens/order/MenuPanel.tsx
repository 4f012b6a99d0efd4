import { format, useStrings } from '../../core/i18n';
import { useMoney } from '../../core/money';
import { cents, type MenuCategory, type MenuDish, strings } from './order-screen';
import { SoldOutBadge } from './SoldOutBadge';

/**
 * The menu by category: a tap adds a plain dish at once (the quick path) or opens the options of a
 * dish with modifier groups; "…" sets quantity, seat and course of a plain one. Sold-out dishes are
 * greyed and cannot be tapped: marked 86 when the kitchen said so, "Out of stock" when the stock of
 * their recipe ran out (which comes back by itself with the next delivery).
 */
export function MenuPanel({
  menu,
  open,
  note,
  onNote,
  onTap,
  onMore,
}: {
  menu: MenuCategory[];
  open: boolean;
  note: string;
  onNote: (note: string) => void;
  onTap: (dish: MenuDish) => void;
  onMore: (dish: MenuDish) => void;
}) {
  const t = useStrings(strings);
  const money = useMoney();
  const categories = menu.filter((category) => category.dishes.length > 0);
  return (
    <section class="order-menu card" aria-labelledby="menu-title">
      <h2 id="menu-title">{t.menu}</h2>
      <div class="order-note">
        <label for="dish-note">{t.note}</label>
        <input
          id="dish-note"
          type="text"
          maxLength={500}
          value={note}
          aria-describedby="dish-note-help"
          onInput={(event) => onNote(event.currentTarget.value)}
        />
        <span id="dish-note-help" class="muted">
          {t.noteHelp}
        </span>
      </div>
      {categories.length === 0 && <p class="muted">{t.emptyMenu}</p>}
      {categories.map((category) => (
        <section key={category.id} aria-labelledby={`category-${category.id}`}>
          <h3 id={`category-${category.id}`}>{category.name}</h3>
          <ul class="grid menu-dishes">
            {category.dishes.map((dish) => (
              <li key={dish.id} class={`menu-dish-cell${dish.available ? '' : ' sold-out'}`}>
                <button
                  type="button"
                  class="tile menu-dish"
                  disabled={!open || !dish.available}
                  data-dish-id={dish.id}
                  onClick={() => onTap(dish)}
                >
                  <span class="visually-hidden">{t.addPrefix} </span>
                  <span class="menu-dish-name">{dish.name}</span>{' '}
                  <span class="menu-dish-price num">{money(cents(dish.price))}</span>
                  {dish.modifier_groups.length > 0 && <span class="menu-dish-more">{t.options}</span>}
                  <SoldOutBadge
                    available={dish.available}
                    outOfStock={dish.out_of_stock}
                    class="menu-dish-86"
                  />
                </button>
                {dish.modifier_groups.length === 0 && dish.available && (
                  <button
                    type="button"
                    class="menu-dish-extra"
                    disabled={!open}
                    aria-label={format(t.optionsFor, { dish: dish.name })}
                    onClick={() => onMore(dish)}
                  >
                    …
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
