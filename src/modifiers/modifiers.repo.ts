import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../core/db/database';
import { forUpdate } from '../core/db/locks';
import { prepared } from '../core/db/prepared';
import type { Database } from '../core/db/schema';
import { outOfStock } from '../inventory/inventory.api';

export type GroupRow = Selectable<Database['modifier_groups']>;
export type OptionRow = Selectable<Database['modifier_options']> & { out_of_stock: number };

export function listLiveGroups(db: Db): Promise<GroupRow[]> {
  return db
    .selectFrom('modifier_groups')
    .selectAll()
    .where('is_deleted', '=', sql.lit(0))
    .orderBy('name')
    .execute();
}

export function findLiveGroup(db: Db, id: string): Promise<GroupRow | undefined> {
  return db
    .selectFrom('modifier_groups')
    .selectAll()
    .where('id', '=', id)
    .where('is_deleted', '=', sql.lit(0))
    .executeTakeFirst();
}

/**
 * Locks the live groups among these ids until commit (PostgreSQL; SQLite's one writer already is
 * exclusive) and answers which they are: a dish linking them and a delete of one are serialised.
 */
export async function lockLiveGroups(db: Db, ids: string[]): Promise<GroupRow[]> {
  if (ids.length === 0) return [];
  return forUpdate(
    db,
    db
      .selectFrom('modifier_groups')
      .selectAll()
      .where('id', 'in', ids)
      .where('is_deleted', '=', sql.lit(0))
      .orderBy('id'),
  ).execute();
}

/** The live (not retired) options of these groups, in each group's order. */
export async function findLiveOptions(db: Db, groupIds: string[]): Promise<OptionRow[]> {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('modifier_options')
    .selectAll()
    .select(outOfStock('option_id', 'modifier_options.id').as('out_of_stock'))
    .where('group_id', 'in', groupIds)
    .where('retired_at', 'is', null)
    .orderBy('group_id')
    .orderBy('position')
    .execute();
}

export async function insertGroup(db: Db, row: Insertable<Database['modifier_groups']>): Promise<void> {
  await db.insertInto('modifier_groups').values(row).execute();
}

export async function updateGroup(
  db: Db,
  id: string,
  changes: { name: string; min_select: number; max_select: number; updated_at: number },
): Promise<void> {
  await db.updateTable('modifier_groups').set(changes).where('id', '=', id).execute();
}

export async function softDeleteGroup(db: Db, id: string, now: number): Promise<void> {
  await db
    .updateTable('modifier_groups')
    .set({ is_deleted: 1, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function insertOptions(db: Db, rows: Insertable<Database['modifier_options']>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('modifier_options').values(rows).execute();
}

export async function updateOption(
  db: Db,
  id: string,
  changes: Partial<Pick<OptionRow, 'name' | 'price_delta_cents' | 'is_available' | 'position'>> & {
    updated_at: number;
  },
): Promise<void> {
  await db.updateTable('modifier_options').set(changes).where('id', '=', id).execute();
}

export async function retireOptions(db: Db, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('modifier_options')
    .set({ retired_at: now, updated_at: now })
    .where('id', 'in', ids)
    .execute();
}

/** Whether a live dish offers the group. */
export async function isGroupLinkedByLiveDish(db: Db, groupId: string): Promise<boolean> {
  const row = await db
    .selectFrom('dish_modifier_groups')
    .innerJoin('dishes', 'dishes.id', 'dish_modifier_groups.dish_id')
    .select('dishes.id')
    .where('dish_modifier_groups.group_id', '=', groupId)
    .where('dishes.is_deleted', '=', sql.lit(0))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

const linksOfDishes = prepared((db, { dishIds }: { dishIds: string[] }) =>
  db
    .selectFrom('dish_modifier_groups')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'dish_modifier_groups.group_id')
    .selectAll('modifier_groups')
    .select('dish_modifier_groups.dish_id')
    .where('modifier_groups.is_deleted', '=', sql.lit(0))
    .where('dish_modifier_groups.dish_id', 'in', dishIds)
    .orderBy('dish_modifier_groups.dish_id')
    .orderBy('dish_modifier_groups.position'),
);

/**
 * The groups of these dishes, in each dish's order (live groups only). Every order entry reads them,
 * so the list of ids is a prepared query (built and compiled once per length).
 */
export function findDishGroupLinks(
  db: Db,
  dishIds: string[] | 'all live',
): Promise<(GroupRow & { dish_id: string })[]> {
  if (dishIds !== 'all live') {
    return dishIds.length === 0 ? Promise.resolve([]) : linksOfDishes.all(db, { dishIds });
  }
  return db
    .selectFrom('dish_modifier_groups')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'dish_modifier_groups.group_id')
    .innerJoin('dishes', 'dishes.id', 'dish_modifier_groups.dish_id')
    .selectAll('modifier_groups')
    .select('dish_modifier_groups.dish_id')
    .where('modifier_groups.is_deleted', '=', sql.lit(0))
    .where('dishes.is_deleted', '=', sql.lit(0))
    .orderBy('dish_modifier_groups.dish_id')
    .orderBy('dish_modifier_groups.position')
    .execute();
}

const optionsByIds = prepared((db, { ids }: { ids: string[] }) =>
  db
    .selectFrom('modifier_options')
    .innerJoin('modifier_groups', 'modifier_groups.id', 'modifier_options.group_id')
    .selectAll('modifier_options')
    .select('modifier_groups.name as group_name')
    .select(outOfStock('option_id', 'modifier_options.id').as('out_of_stock'))
    .where('modifier_options.id', 'in', ids),
);

/** Options by id, retired or not, with their group's name: what an order line names. */
export async function findOptionsByIds(
  db: Db,
  ids: string[],
): Promise<(OptionRow & { group_name: string })[]> {
  if (ids.length === 0) return [];
  return optionsByIds.all(db, { ids });
}

export async function replaceDishGroupLinks(db: Db, dishId: string, groupIds: string[]): Promise<void> {
  await db.deleteFrom('dish_modifier_groups').where('dish_id', '=', dishId).execute();
  if (groupIds.length === 0) return;
  await db
    .insertInto('dish_modifier_groups')
    .values(groupIds.map((groupId, position) => ({ dish_id: dishId, group_id: groupId, position })))
    .execute();
}
