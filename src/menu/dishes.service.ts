import { recordAudit } from '../audit/audit.api';
import { lockUsableCategory } from '../categories/categories.api';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, NotFoundError } from '../core/errors';
import { inIdempotentTransaction } from '../core/idempotency';
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
import { findDishGroupLinks, lockLiveGroups, replaceDishGroupLinks } from '../modifiers/modifiers.api';
import { type ChannelPriceRow, findChannelPrices, writeChannelPrices } from './channel-prices.repo';
import * as repo from './dishes.repo';
import type { ChannelPricesBody, DishBody, DishView } from './dishes.schemas';
import type { MenuItemService } from './menu-items.service';

export const GROUPS_NOT_LIVE = 'modifier_group_ids must name live modifier groups';

function toDishView(
  row: repo.DishRow,
  groupIds: string[],
  recipe: RecipeLineRow[],
  channelPrices: ChannelPriceRow[],
): DishView {
  return {
    id: row.id,
    name: row.name,
    price: fromCents(Number(row.price_cents)),
    category_id: row.category_id,
    description: row.description,
    available: Number(row.is_available) === 1,
    modifier_group_ids: groupIds,
    recipe: toRecipeView(recipe),
    out_of_stock: Number(row.out_of_stock) === 1,
    channel_prices: Object.fromEntries(
      channelPrices.map((price) => [price.channel, fromCents(Number(price.price_cents))]),
    ),
  };
}

/** A body's channel prices in cents, null (remove) kept as it is. */
function channelPricesInCents(prices: ChannelPricesBody | undefined) {
  return Object.fromEntries(
    Object.entries(prices ?? {}).map(([channel, price]) => [channel, price === null ? null : toCents(price)]),
  );
}

async function channelPricesByDish(db: Db): Promise<Map<string, ChannelPriceRow[]>> {
  const byDish = new Map<string, ChannelPriceRow[]>();
  for (const price of await findChannelPrices(db, 'all')) {
    byDish.set(price.dish_id, [...(byDish.get(price.dish_id) ?? []), price]);
  }
  return byDish;
}

async function recipesByDish(db: Db, dishIds: string[]): Promise<Map<string, RecipeLineRow[]>> {
  const byDish = new Map<string, RecipeLineRow[]>();
  for (const line of await findRecipeLines(db, 'dish_id', dishIds)) {
    const dishId = line.dish_id as string;
    byDish.set(dishId, [...(byDish.get(dishId) ?? []), line]);
  }
  return byDish;
}

async function groupIdsByDish(db: Db, dishIds: string[] | 'all live'): Promise<Map<string, string[]>> {
  const byDish = new Map<string, string[]>();
  for (const link of await findDishGroupLinks(db, dishIds)) {
    byDish.set(link.dish_id, [...(byDish.get(link.dish_id) ?? []), link.id]);
  }
  return byDish;
}

/** Holds the groups a dish will link until commit: a concurrent delete of one waits, then sees the link. */
async function lockLinkedGroups(trx: Db, groupIds: string[]): Promise<void> {
  if ((await lockLiveGroups(trx, groupIds)).length !== groupIds.length) {
    throw new BadRequestError(GROUPS_NOT_LIVE);
  }
}

/**
 * The announcement of a dish's new availability, with the event in the change's transaction. `manual`:
 * someone pressed the button (stock running out will be the other reason).
 */
async function recordAvailabilityChange(
  trx: Db,
  principal: Principal,
  dish: { id: string; name: string },
  isAvailable: boolean,
  now: number,
): Promise<void> {
  const data = { dish_id: dish.id, available: isAvailable, reason: 'manual' };
  await recordEvent(trx, { type: 'dish.availability_changed', data, at: now });
  await recordAudit(trx, {
    at: now,
    actor: principal,
    action: 'dish.availability_changed',
    target: { type: 'dish', id: dish.id },
    before: { name: dish.name, available: !isAvailable },
    after: { name: dish.name, available: isAvailable },
  });
}

export const dishesService: MenuItemService<DishBody, DishView> & {
  setAvailability(ctx: AppContext, principal: Principal, id: string, isAvailable: boolean): Promise<DishView>;
} = {
  list: async (ctx) => {
    const rows = await repo.listLiveDishes(ctx.db);
    const groups = await groupIdsByDish(ctx.db, 'all live');
    const recipes = await recipesByDish(
      ctx.db,
      rows.map((row) => row.id),
    );
    const prices = await channelPricesByDish(ctx.db);
    return rows.map((row) =>
      toDishView(row, groups.get(row.id) ?? [], recipes.get(row.id) ?? [], prices.get(row.id) ?? []),
    );
  },

  get: async (ctx, id) => {
    const row = await repo.findLiveDish(ctx.db, id);
    if (!row) throw new NotFoundError();
    return toDishView(
      row,
      (await groupIdsByDish(ctx.db, [id])).get(id) ?? [],
      await findRecipeLines(ctx.db, 'dish_id', [id]),
      await findChannelPrices(ctx.db, [id]),
    );
  },

  create: (ctx, body, claim) => {
    const id = newId();
    const now = ctx.clock.now();
    return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      await lockUsableCategory(trx, body.category_id, 'dish');
      const groupIds = body.modifier_group_ids ?? [];
      await lockLinkedGroups(trx, groupIds);
      const recipe = await lockRecipe(trx, body.recipe ?? []);
      await repo.insertDish(trx, {
        id,
        name: body.name.trim(),
        price_cents: toCents(body.price),
        category_id: body.category_id,
        description: body.description ?? '',
        is_available: body.available === false ? 0 : 1,
        created_at: now,
        updated_at: now,
      });
      await replaceDishGroupLinks(trx, id, groupIds);
      await replaceRecipe(trx, { dishId: id }, recipe);
      await writeChannelPrices(trx, id, channelPricesInCents(body.channel_prices));
      return id;
    });
  },

  update: (ctx, id, body, principal) => {
    const now = ctx.clock.now();
    return ctx.db.transaction().execute(async (trx) => {
      // A missing dish is a 404 even when the category is wrong too.
      const current = await repo.findLiveDish(trx, id);
      if (!current) throw new NotFoundError();
      await lockUsableCategory(trx, body.category_id, 'dish');
      if (body.modifier_group_ids) await lockLinkedGroups(trx, body.modifier_group_ids);
      const recipe = body.recipe && (await lockRecipe(trx, body.recipe));
      const isAvailable = body.available ?? Number(current.is_available) === 1;
      const isFound = await repo.updateLiveDish(trx, id, {
        name: body.name.trim(),
        price_cents: toCents(body.price),
        category_id: body.category_id,
        ...(body.description !== undefined && { description: body.description }),
        is_available: isAvailable ? 1 : 0,
        updated_at: now,
      });
      if (!isFound) throw new NotFoundError();
      if (body.modifier_group_ids) await replaceDishGroupLinks(trx, id, body.modifier_group_ids);
      if (recipe) await replaceRecipe(trx, { dishId: id }, recipe);
      await writeChannelPrices(trx, id, channelPricesInCents(body.channel_prices));
      if (isAvailable !== (Number(current.is_available) === 1)) {
        await recordAvailabilityChange(trx, principal, { id, name: body.name.trim() }, isAvailable, now);
      }
    });
  },

  remove: async (ctx, id) => {
    const isFound = await repo.updateLiveDish(ctx.db, id, { is_deleted: 1, updated_at: ctx.clock.now() });
    if (!isFound) throw new NotFoundError();
  },

  setAvailability: async (ctx, principal, id, isAvailable) => {
    const now = ctx.clock.now();
    await ctx.db.transaction().execute(async (trx) => {
      const current = await repo.findLiveDish(trx, id);
      if (!current) throw new NotFoundError();
      if (await repo.switchAvailability(trx, id, isAvailable, now)) {
        await recordAvailabilityChange(trx, principal, current, isAvailable, now);
      }
    });
    return dishesService.get(ctx, id);
  },
};
