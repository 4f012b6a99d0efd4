import type { CategoryType } from '../categories/categories.schemas';
import { lockUsableCategory } from '../categories/categories.service';
import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import type { Db } from '../core/db/database';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';

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
};

export type MenuItemService<Body, View> = {
  list(ctx: AppContext): Promise<View[]>;
  get(ctx: AppContext, id: string): Promise<View>;
  create(ctx: AppContext, body: Body, claim: IdempotencyClaim | undefined): Promise<string>;
  /** `principal`: who edits, for the kinds whose edits are audited (a dish's availability). */
  update(ctx: AppContext, id: string, body: Body, principal: Principal): Promise<void>;
  remove(ctx: AppContext, id: string): Promise<void>;
};

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

  return {
    list: async (ctx) => (await repo.listLive(ctx.db)).map(kind.toView),

    get: async (ctx, id) => {
      const row = await repo.findLive(ctx.db, id);
      if (!row) throw new NotFoundError();
      return kind.toView(row);
    },

    create: (ctx, body, claim) => {
      const id = newId();
      const now = ctx.clock.now();
      return withUniqueAnswer(() =>
        inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
          await lockUsableCategory(trx, body.category_id, kind.categoryType);
          await repo.insert(trx, { ...kind.toColumns(body), id, created_at: now, updated_at: now });
          return id;
        }),
      );
    },

    update: (ctx, id, body) =>
      withUniqueAnswer(() =>
        ctx.db.transaction().execute(async (trx) => {
          // A missing record is a 404 even when the category is wrong too.
          if (!(await repo.findLive(trx, id))) throw new NotFoundError();
          await lockUsableCategory(trx, body.category_id, kind.categoryType);
          const isFound = await repo.updateLive(trx, id, {
            ...kind.toColumns(body),
            updated_at: ctx.clock.now(),
          });
          if (!isFound) throw new NotFoundError();
        }),
      ),

    remove: async (ctx, id) => {
      const isFound = await repo.softDeleteLive(ctx.db, id, ctx.clock.now());
      if (!isFound) throw new NotFoundError();
    },
  };
}
