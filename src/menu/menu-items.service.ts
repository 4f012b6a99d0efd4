import { lockUsableCategory } from '../categories/categories.api';
import type { CategoryType } from '../categories/categories.schemas';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import type { StockItemType } from '../core/db/schema';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { isUsedByLiveRecipe, lockItem, moveStock } from '../inventory/inventory.api';

export const ITEM_IN_RECIPE = 'Item is used by a recipe';

/** The stored columns a request decides; the service adds ids, times and the deleted flag. */
type Stamps = { id: string; created_at: number; updated_at: number };

/** What dishes, ingredients and products each provide: their SQL and their mapping to and from the API. */
export type MenuItemKind<Body extends { category_id: string }, Columns, Row, View> = {
  categoryType: CategoryType;
  repo: {
    listLive(db: Db): Promise<Row[]>;
    findLive(db: Db, id: string): Promise<Row | undefined>;
    insert(db: Db, row: Columns & Stamps): Promise<void>;
    updateLive(db: Db, id: string, changes: Columns & { updated_at: number }): Promise<boolean>;
    softDeleteLive(db: Db, id: string, now: number): Promise<boolean>;
  };
  toColumns(body: Body): Columns;
  toView(row: Row): View;
  /** The answer when a unique index refuses the write (products: a taken SKU). */
  uniqueViolationMessage?: string;
  /**
   * Ingredients and products are stock: the `quantity` of a create or an edit is reached by a stock
   * movement (`count` for a new item's opening stock, `adjustment` for an edit), never written over.
   */
  stock?: { itemType: StockItemType; quantityOf(body: Body): number };
};

export type MenuItemService<Body, View> = {
  list(ctx: AppContext): Promise<View[]>;
  get(ctx: AppContext, id: string): Promise<View>;
  create(
    ctx: AppContext,
    body: Body,
    claim: IdempotencyClaim | undefined,
    principal: Principal,
  ): Promise<string>;
  /** `principal`: who edits, for the kinds whose edits are audited (a dish's availability). */
  update(ctx: AppContext, id: string, body: Body, principal: Principal): Promise<void>;
  remove(ctx: AppContext, id: string): Promise<void>;
};

/** Moves an item's stock to `quantity` (base units) with one movement of the difference, under its lock. */
type StockMovementStamp = { reason: 'count' | 'adjustment'; note: string; userId: string; now: number };

async function setStock(
  trx: Db,
  stock: { itemType: StockItemType; id: string; quantity: number },
  movement: StockMovementStamp,
): Promise<void> {
  const item = await lockItem(trx, stock.itemType, stock.id);
  const delta = stock.quantity - (item?.stock ?? 0);
  if (delta === 0) return;
  await moveStock(trx, [{ itemType: stock.itemType, itemId: stock.id, delta, ...movement }]);
}

/**
 * The rules the three kinds share. Every write that points a record at a category holds that
 * category's row locked until commit, so a concurrent category delete either sees the record and
 * refuses, or commits first and makes this write fail.
 */
export function menuItemService<Body extends { category_id: string }, Columns, Row, View>(
  kind: MenuItemKind<Body, Columns, Row, View>,
): MenuItemService<Body, View> {
  const { repo } = kind;

  async function withUniqueAnswer<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (kind.uniqueViolationMessage && isUniqueViolation(error)) {
        throw new BadRequestError(kind.uniqueViolationMessage);
      }
      throw error;
    }
  }

  /** A stock item's `quantity` from the body, reached by a movement; nothing for a dish. */
  async function reachQuantity(trx: Db, id: string, body: Body, movement: StockMovementStamp): Promise<void> {
    if (!kind.stock) return;
    await setStock(
      trx,
      { itemType: kind.stock.itemType, id, quantity: kind.stock.quantityOf(body) },
      movement,
    );
  }

  return {
    list: async (ctx) => (await repo.listLive(ctx.db)).map(kind.toView),

    get: async (ctx, id) => {
      const row = await repo.findLive(ctx.db, id);
      if (!row) throw new NotFoundError();
      return kind.toView(row);
    },

    create: (ctx, body, claim, principal) => {
      const id = newId();
      const now = ctx.clock.now();
      return withUniqueAnswer(() =>
        inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
          await lockUsableCategory(trx, body.category_id, kind.categoryType);
          await repo.insert(trx, { ...kind.toColumns(body), id, created_at: now, updated_at: now });
          await reachQuantity(trx, id, body, {
            reason: 'count',
            note: 'Opening stock',
            userId: principal.id,
            now,
          });
          return id;
        }),
      );
    },

    update: (ctx, id, body, principal) =>
      withUniqueAnswer(() =>
        ctx.db.transaction().execute(async (trx) => {
          // A missing record is a 404 even when the category is wrong too.
          if (!(await repo.findLive(trx, id))) throw new NotFoundError();
          await lockUsableCategory(trx, body.category_id, kind.categoryType);
          const now = ctx.clock.now();
          const isFound = await repo.updateLive(trx, id, { ...kind.toColumns(body), updated_at: now });
          if (!isFound) throw new NotFoundError();
          await reachQuantity(trx, id, body, {
            reason: 'adjustment',
            note: 'Edited',
            userId: principal.id,
            now,
          });
        }),
      ),

    remove: (ctx, id) =>
      ctx.db.transaction().execute(async (trx) => {
        // The delete takes the row's lock first: a recipe written at the same moment has either
        // committed (and is seen below) or waits and then finds the item gone.
        const isFound = await repo.softDeleteLive(trx, id, ctx.clock.now());
        if (!isFound) throw new NotFoundError();
        if (kind.stock && (await isUsedByLiveRecipe(trx, kind.stock.itemType, id))) {
          throw new BadRequestError(ITEM_IN_RECIPE);
        }
      }),
  };
}
