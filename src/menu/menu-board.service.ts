import type { AppContext } from '../core/context';
import { fromCents } from '../core/money';
import { toOptionView } from '../modifiers/modifiers.api';
import type { ModifierGroupView, ModifierOptionView } from '../modifiers/modifiers.schemas';
import * as repo from './menu-board.repo';
import type { MenuBoard, MenuDish } from './menu-board.schemas';

/**
 * The whole live menu for an order screen, read on every one of them: four queries whatever the
 * menu's size (categories, dishes, links with their groups, options), put together here in one pass
 * over each, so the cost grows with the rows and never with a query per dish or group.
 */
export async function getMenuBoard(ctx: AppContext): Promise<MenuBoard> {
  const [categories, dishes, links, options] = await Promise.all([
    repo.listDishCategories(ctx.db),
    repo.listMenuDishes(ctx.db),
    repo.listMenuGroupLinks(ctx.db),
    repo.listMenuOptions(ctx.db),
  ]);
  // What a waiter can order now: off by hand or out of stock, it is greyed either way.
  const optionsByGroup = groupBy(
    options,
    (option) => option.group_id,
    (option): ModifierOptionView => {
      const { recipe: _recipe, ...view } = toOptionView(option);
      return { ...view, available: view.available && !view.out_of_stock };
    },
  );
  const groupsByDish = groupBy(
    links,
    (link) => link.dish_id,
    (link): ModifierGroupView => ({
      id: link.id,
      name: link.name,
      min_select: Number(link.min_select),
      max_select: Number(link.max_select),
      options: optionsByGroup.get(link.id) ?? ([] as ModifierOptionView[]),
    }),
  );
  const dishesByCategory = groupBy(
    dishes,
    (dish) => dish.category_id,
    (dish): MenuDish => ({
      id: dish.id,
      name: dish.name,
      description: dish.description,
      price: fromCents(Number(dish.price_cents)),
      available: Number(dish.is_available) === 1 && Number(dish.out_of_stock) !== 1,
      out_of_stock: Number(dish.out_of_stock) === 1,
      modifier_groups: groupsByDish.get(dish.id) ?? [],
    }),
  );
  return {
    categories: categories.map((category) => ({
      id: category.id,
      name: category.name,
      station: category.station,
      dishes: dishesByCategory.get(category.id) ?? [],
    })),
  };
}

function groupBy<Row, Item>(
  rows: Row[],
  keyOf: (row: Row) => string,
  toItem: (row: Row) => Item,
): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const items = groups.get(key);
    if (items) items.push(toItem(row));
    else groups.set(key, [toItem(row)]);
  }
  return groups;
}
