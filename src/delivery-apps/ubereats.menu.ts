import type { PlatformMenu } from '../core/delivery-platform';

/**
 * Uber's item ids for our records. Dishes and options are both "items" in Uber's menu, so each id
 * says which of ours it is; our own ids travel in `external_data` and come back on every order.
 */
export const uberIds = {
  dish: (id: string) => `dish-${id}`,
  option: (id: string) => `option-${id}`,
  group: (id: string) => `group-${id}`,
  category: (id: string) => `category-${id}`,
};

/** The language of every title: the POS serves restaurants in Mexico. */
const LANGUAGE = 'es_mx';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Uber ends a suspension at a time; ours lasts until the dish is back, which lifts it sooner. */
const SUSPENSION_MS = 365 * 24 * 60 * 60 * 1000;

const titled = (name: string) => ({ translations: { [LANGUAGE]: name } });

export function suspensionInfo(isAvailable: boolean, now: number) {
  if (isAvailable) return { suspension: null };
  return {
    suspension: { suspend_until: Math.floor((now + SUSPENSION_MS) / 1000), reason: 'Agotado' },
  };
}

/** Opening hours as `service_availability`; no hours at all means open every day, all day. */
function serviceAvailability(hours: PlatformMenu['hours']) {
  const periods =
    hours.length > 0 ? hours : WEEKDAYS.map((_, weekday) => ({ weekday, opens: '00:00', closes: '23:59' }));
  return WEEKDAYS.flatMap((day, weekday) => {
    const today = periods.filter((period) => period.weekday === weekday);
    if (today.length === 0) return [];
    return [
      {
        day_of_week: day,
        time_periods: today.map((period) => ({ start_time: period.opens, end_time: period.closes })),
      },
    ];
  });
}

/** The body of `PUT /v2/eats/stores/{store_id}/menus`: one menu, prices in the minor unit. */
export function uberMenu(menu: PlatformMenu, now: number) {
  const dishes = menu.dishes.map((dish) => ({
    id: uberIds.dish(dish.id),
    external_data: dish.id,
    title: titled(dish.name),
    ...(dish.description !== null && { description: titled(dish.description) }),
    ...(dish.photoUrl !== null && { image_url: dish.photoUrl }),
    price_info: { price: dish.priceCents },
    modifier_group_ids: { ids: dish.modifierGroupIds.map(uberIds.group) },
    ...(!dish.isAvailable && { suspension_info: suspensionInfo(false, now) }),
  }));
  const options = menu.modifierGroups.flatMap((group) =>
    group.options.map((option) => ({
      id: uberIds.option(option.id),
      external_data: option.id,
      title: titled(option.name),
      price_info: { price: option.priceCents },
      ...(!option.isAvailable && { suspension_info: suspensionInfo(false, now) }),
    })),
  );
  return {
    menus: [
      {
        id: 'menu',
        title: titled('Menú'),
        service_availability: serviceAvailability(menu.hours),
        category_ids: menu.categories.map((category) => uberIds.category(category.id)),
      },
    ],
    categories: menu.categories.map((category) => ({
      id: uberIds.category(category.id),
      title: titled(category.name),
      entities: category.dishIds.map((id) => ({ id: uberIds.dish(id), type: 'ITEM' })),
    })),
    items: [...dishes, ...options],
    modifier_groups: menu.modifierGroups.map((group) => ({
      id: uberIds.group(group.id),
      external_data: group.id,
      title: titled(group.name),
      quantity_info: { quantity: { min_permitted: group.minChoices, max_permitted: group.maxChoices } },
      modifier_options: group.options.map((option) => ({ id: uberIds.option(option.id), type: 'ITEM' })),
    })),
  };
}
