import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { fromCents, toCents } from '../core/money';
import { recordEvent } from '../events/events.api';
import {
  findRecipeLines,
  lockRecipe,
  type RecipeLineRow,
  replaceRecipe,
  toRecipeView,
} from '../inventory/inventory.api';
import * as repo from './modifiers.repo';
import type { ModifierGroupBody, ModifierGroupView, ModifierOptionView } from './modifiers.schemas';

export const GROUP_NAME_TAKEN = 'A modifier group with this name already exists';
export const GROUP_IN_USE = 'Modifier group is in use';
export const MIN_ABOVE_MAX = 'min_select cannot be more than max_select';
export const OPTION_NAMES_TWICE = 'Option names must be unique in the group';
export const optionNotInGroup = (id: string) => `Option ${id} does not belong to this group`;

export function toOptionView(row: repo.OptionRow, recipe: RecipeLineRow[] = []): ModifierOptionView {
  return {
    id: row.id,
    name: row.name,
    price_delta: fromCents(Number(row.price_delta_cents)),
    available: Number(row.is_available) === 1,
    out_of_stock: Number(row.out_of_stock) === 1,
    recipe: toRecipeView(recipe),
  };
}

/** Groups with their live options and the options' recipes: one query for each. */
async function withOptions(db: Db, groups: repo.GroupRow[]): Promise<ModifierGroupView[]> {
  const options = await repo.findLiveOptions(
    db,
    groups.map((group) => group.id),
  );
  const recipes = await findRecipeLines(
    db,
    'option_id',
    options.map((option) => option.id),
  );
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    min_select: Number(group.min_select),
    max_select: Number(group.max_select),
    options: options
      .filter((option) => option.group_id === group.id)
      .map((option) =>
        toOptionView(
          option,
          recipes.filter((line) => line.option_id === option.id),
        ),
      ),
  }));
}

/** Sets the recipes the body gives its options; an option without one keeps what it has. */
async function writeOptionRecipes(
  trx: Db,
  options: { id: string; recipe?: ModifierGroupBody['options'][number]['recipe'] }[],
): Promise<void> {
  for (const option of options) {
    if (option.recipe === undefined) continue;
    await replaceRecipe(trx, { optionId: option.id }, await lockRecipe(trx, option.recipe));
  }
}

/**
 * The group as GET /modifier-groups/{id} shows it, in the change's transaction: the order screens read
 * the menu again on it, so an option taken off sale is greyed out without a reload.
 */
async function recordGroupEvent(
  trx: Db,
  type: 'modifier_group.created' | 'modifier_group.updated' | 'modifier_group.deleted',
  id: string,
  now: number,
): Promise<void> {
  const group = await repo.findLiveGroup(trx, id);
  const [view] = await withOptions(trx, group ? [group] : []);
  await recordEvent(trx, { type, data: view, at: now });
}

export async function listGroups(ctx: AppContext): Promise<ModifierGroupView[]> {
  return withOptions(ctx.db, await repo.listLiveGroups(ctx.db));
}

export async function getGroup(ctx: AppContext, id: string): Promise<ModifierGroupView> {
  const group = await repo.findLiveGroup(ctx.db, id);
  if (!group) throw new NotFoundError();
  const [view] = await withOptions(ctx.db, [group]);
  return view as ModifierGroupView;
}

export function createGroup(
  ctx: AppContext,
  body: ModifierGroupBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  assertGroupRules(body);
  const unknownId = body.options.find((option) => option.id !== undefined)?.id;
  if (unknownId) throw new BadRequestError(optionNotInGroup(unknownId));
  const id = newId();
  const now = ctx.clock.now();
  return withGroupNameAnswer(() =>
    inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      await repo.insertGroup(trx, { id, ...groupColumns(body), created_at: now, updated_at: now });
      const options = body.options.map((option) => ({ ...option, id: newId() }));
      await repo.insertOptions(
        trx,
        options.map((option, position) => ({
          id: option.id,
          group_id: id,
          ...optionColumns(option, position),
          created_at: now,
          updated_at: now,
        })),
      );
      await writeOptionRecipes(trx, options);
      await recordGroupEvent(trx, 'modifier_group.created', id, now);
      return id;
    }),
  );
}

/**
 * Replaces the group: options sent with their id keep it, new ones get one, and the live options left
 * out are retired (plates that named them keep their snapshot; the option is no longer offered).
 */
export function updateGroup(ctx: AppContext, id: string, body: ModifierGroupBody): Promise<void> {
  assertGroupRules(body);
  const now = ctx.clock.now();
  return withGroupNameAnswer(() =>
    ctx.db.transaction().execute(async (trx) => {
      const [group] = await repo.lockLiveGroups(trx, [id]);
      if (!group) throw new NotFoundError();
      const current = new Map((await repo.findLiveOptions(trx, [id])).map((option) => [option.id, option]));
      for (const option of body.options) {
        if (option.id !== undefined && !current.has(option.id)) {
          throw new BadRequestError(optionNotInGroup(option.id));
        }
      }
      await repo.updateGroup(trx, id, { ...groupColumns(body), updated_at: now });
      const keptIds = new Set(body.options.flatMap((option) => (option.id === undefined ? [] : [option.id])));
      await repo.retireOptions(
        trx,
        [...current.keys()].filter((optionId) => !keptIds.has(optionId)),
        now,
      );
      // Two kept options swapping names would collide in the live-name index halfway through: the
      // renamed ones step aside under their own id first.
      const renamed = body.options.filter(
        (option) => option.id !== undefined && current.get(option.id)?.name !== option.name.trim(),
      );
      for (const option of renamed) {
        await repo.updateOption(trx, option.id as string, { name: option.id as string, updated_at: now });
      }
      for (const [position, option] of body.options.entries()) {
        if (option.id === undefined) continue;
        await repo.updateOption(trx, option.id, { ...optionColumns(option, position), updated_at: now });
      }
      const options = body.options.map((option) => ({
        ...option,
        isNew: option.id === undefined,
        id: option.id ?? newId(),
      }));
      await repo.insertOptions(
        trx,
        options.flatMap((option, position) =>
          option.isNew
            ? [
                {
                  id: option.id,
                  group_id: id,
                  ...optionColumns(option, position),
                  created_at: now,
                  updated_at: now,
                },
              ]
            : [],
        ),
      );
      await writeOptionRecipes(trx, options);
      await recordGroupEvent(trx, 'modifier_group.updated', id, now);
    }),
  );
}

/** A group a live dish offers stays; the lock on it holds off a dish linking it meanwhile. */
export async function deleteGroup(ctx: AppContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const [group] = await repo.lockLiveGroups(trx, [id]);
    if (!group) throw new NotFoundError();
    if (await repo.isGroupLinkedByLiveDish(trx, id)) throw new BadRequestError(GROUP_IN_USE);
    // Read before the delete hides it: the event shows the group as it was, as order.deleted does.
    await recordGroupEvent(trx, 'modifier_group.deleted', id, now);
    await repo.softDeleteGroup(trx, id, now);
  });
}

function assertGroupRules(body: ModifierGroupBody): void {
  if (body.min_select > body.max_select) throw new BadRequestError(MIN_ABOVE_MAX);
  const names = body.options.map((option) => option.name.trim());
  if (new Set(names).size !== names.length) throw new BadRequestError(OPTION_NAMES_TWICE);
  const ids = body.options.flatMap((option) => (option.id === undefined ? [] : [option.id]));
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new BadRequestError(`Option ${twice} is sent twice`);
}

function groupColumns(body: ModifierGroupBody) {
  return { name: body.name.trim(), min_select: body.min_select, max_select: body.max_select };
}

function optionColumns(option: ModifierGroupBody['options'][number], position: number) {
  return {
    name: option.name.trim(),
    price_delta_cents: toCents(option.price_delta),
    is_available: option.available === false ? 0 : 1,
    position,
  };
}

/** The partial unique index on live group names decides between two writes of one name. */
async function withGroupNameAnswer<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(GROUP_NAME_TAKEN);
    throw error;
  }
}
