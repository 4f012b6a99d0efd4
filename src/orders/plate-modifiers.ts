import type { Db } from '../core/db/database';
import { BadRequestError } from '../core/errors';
import {
  findDishGroupLinks,
  findOptionsByIds,
  type GroupRow,
  type OptionRow,
} from '../modifiers/modifiers.api';

/** A chosen option as the plate keeps it: copied, so a later menu edit changes no history. */
export type ModifierChoice = {
  option_id: string;
  group_name: string;
  name: string;
  price_delta_cents: number;
};

export const PRICE_MISMATCH = 'price_at_order does not match the dish and its modifiers';
export const NEGATIVE_PLATE = 'A plate cannot cost less than 0';

/** The rules of order entries, for the OpenAPI descriptions of the routes that take them. */
export const ENTRY_RULES =
  '`quantity: n` adds n plates, each with its own id (all in `ids`); `seat` (1–99 or null) and `course` ' +
  "(1–9, default 1) go on each. `modifiers` are option ids of the dish's groups: each must be a live option " +
  'of a group the dish links (else 400 `Option <id> does not belong to this dish`), available (400 ' +
  '`Option is not available: <name>`), and each group needs between its `min_select` and `max_select` ' +
  '(400 `Choose at least <n> in <group name>` / `Choose at most <n> in <group name>`). A sold-out dish: 400 ' +
  '`Dish is not available: <name>`. With modifiers the server computes `price_at_order` (dish price + the ' +
  `deltas); a different one sent: 400 \`${PRICE_MISMATCH}\`; a plate below 0: 400 \`${NEGATIVE_PLATE}\`. ` +
  'At most 200 plates per request. All or nothing.';

/**
 * What the modifier rules need to know about some dishes, read in two queries whatever their number:
 * each dish's live groups in order, and the options the request names.
 */
export type ModifierMenu = {
  groupsOf(dishId: string): GroupRow[];
  option(id: string): (OptionRow & { group_name: string }) | undefined;
};

export async function loadModifierMenu(
  db: Db,
  dishIds: string[],
  optionIds: string[],
): Promise<ModifierMenu> {
  const [links, options] = await Promise.all([
    findDishGroupLinks(db, [...new Set(dishIds)]),
    findOptionsByIds(db, [...new Set(optionIds)]),
  ]);
  const groupsByDish = new Map<string, GroupRow[]>();
  for (const { dish_id, ...group } of links)
    groupsByDish.set(dish_id, [...(groupsByDish.get(dish_id) ?? []), group]);
  const optionsById = new Map(options.map((option) => [option.id, option]));
  return { groupsOf: (dishId) => groupsByDish.get(dishId) ?? [], option: (id) => optionsById.get(id) };
}

/**
 * Checks a plate's chosen options against its dish's groups and answers them as the plate keeps
 * them, in the dish's group order then each group's option order. Every option must be a live option
 * of a group the dish links, be available, and each group's count must lie within its bounds.
 */
export function chooseModifiers(
  menu: ModifierMenu,
  dishId: string,
  optionIds: readonly string[],
): ModifierChoice[] {
  const groups = menu.groupsOf(dishId);
  const groupIds = new Set(groups.map((group) => group.id));
  const chosen = optionIds.map((id) => {
    const option = menu.option(id);
    if (!option || option.retired_at !== null || !groupIds.has(option.group_id)) {
      throw new BadRequestError(`Option ${id} does not belong to this dish`);
    }
    return option;
  });
  for (const option of chosen) {
    if (Number(option.is_available) !== 1 || Number(option.out_of_stock) === 1)
      throw new BadRequestError(`Option is not available: ${option.name}`);
  }
  for (const group of groups) {
    const count = chosen.filter((option) => option.group_id === group.id).length;
    if (count < Number(group.min_select)) {
      throw new BadRequestError(`Choose at least ${group.min_select} in ${group.name}`);
    }
    if (count > Number(group.max_select)) {
      throw new BadRequestError(`Choose at most ${group.max_select} in ${group.name}`);
    }
  }
  const groupOrder = new Map(groups.map((group, index) => [group.id, index]));
  return chosen
    .sort(
      (a, b) =>
        (groupOrder.get(a.group_id) ?? 0) - (groupOrder.get(b.group_id) ?? 0) ||
        Number(a.position) - Number(b.position),
    )
    .map((option) => ({
      option_id: option.id,
      group_name: option.group_name,
      name: option.name,
      price_delta_cents: Number(option.price_delta_cents),
    }));
}

/** The price of a plate with options: the dish's price and every option's delta, never below 0. */
export function priceWithModifiers(dishPriceCents: number, modifiers: readonly ModifierChoice[]): number {
  const cents = modifiers.reduce((sum, modifier) => sum + modifier.price_delta_cents, dishPriceCents);
  if (cents < 0) throw new BadRequestError(NEGATIVE_PLATE);
  return cents;
}
