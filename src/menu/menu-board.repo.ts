import { sql } from 'kysely';
import type { Db } from '../core/db/database';
import { outOfStock } from '../inventory/inventory.api';

export function listDishCategories(db: Db) {
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'station'])
    .where('type', '=', 'dish')
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function listMenuDishes(db: Db) {
  return db
    .selectFrom('dishes')
    .select(['id', 'name', 'description', 'price_cents', 'is_available', 'category_id'])
    .select(outOfStock('dish_id', 'dishes.id').as('out_of_stock'))
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Every link of a live dish to a live group, with the group, in each dish's order. */
export function listMenuGroupLinks(db: Db) {
  return db
    .selectFrom('dish_modifier_groups')
    .innerJoin('dishes', 'dishes.id', 'dish_modifier_groups.dish_id')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'dish_modifier_groups.group_id')
    .select([
      'dish_modifier_groups.dish_id',
      'modifier_groups.id',
      'modifier_groups.name',
      'modifier_groups.min_select',
      'modifier_groups.max_select',
    ])
    .where('dishes.is_deleted', '=', sql.lit(0))
    .where('modifier_groups.is_deleted', '=', sql.lit(0))
    .orderBy('dish_modifier_groups.dish_id')
    .orderBy('dish_modifier_groups.position')
    .execute();
}

/** Every live option of every live group, in each group's order. */
export function listMenuOptions(db: Db) {
  return db
    .selectFrom('modifier_options')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'modifier_options.group_id')
    .selectAll('modifier_options')
    .select(outOfStock('option_id', 'modifier_options.id').as('out_of_stock'))
    .where('modifier_groups.is_deleted', '=', sql.lit(0))
    .where('modifier_options.retired_at', 'is', null)
    .orderBy('modifier_options.group_id')
    .orderBy('modifier_options.position')
    .execute();
}
