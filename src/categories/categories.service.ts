import type { AppContext } from '../core/context';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import * as categories from './categories.repo';
import type { CategoryBody, CategoryType, CategoryUpdateBody, CategoryView } from './categories.schemas';

export const CATEGORY_MESSAGES = {
  malformedType: 'Missing or malformed type',
  malformedIdOrType: 'Missing or malformed ID/type',
  createFailed: 'Failed to create category',
  malformedIdempotencyKey: 'Malformed Idempotency-Key header',
  updateFailed: 'Failed to update category',
  cannotDelete: 'Cannot delete category - it may be in use or not found',
  notFound: (id: string) => `Category with ID: ${id} not found`,
  stationOfDishesOnly: 'Only dish categories have a station',
} as const;

function toCategoryView(row: categories.CategoryRow): CategoryView {
  return { id: row.id, name: row.name, ...(row.type === 'dish' && { station: row.station }) };
}

function assertStationFits(input: { station?: string | undefined }, type: CategoryType): void {
  if (input.station !== undefined && type !== 'dish') {
    throw new BadRequestError(CATEGORY_MESSAGES.stationOfDishesOnly);
  }
}

export async function listCategories(ctx: AppContext, type: CategoryType): Promise<CategoryView[]> {
  return (await categories.listLiveCategories(ctx.db, type)).map(toCategoryView);
}

export async function getCategory(ctx: AppContext, id: string, type: CategoryType): Promise<CategoryView> {
  const row = await categories.findLiveCategory(ctx.db, id, type);
  if (!row) throw new NotFoundError();
  return toCategoryView(row);
}

/** The unique index on live (type, name) decides between two concurrent creates of one name. */
export async function createCategory(
  ctx: AppContext,
  input: CategoryBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  assertStationFits(input, input.type);
  const id = newId();
  const now = ctx.clock.now();
  try {
    return await inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      await categories.insertCategory(trx, {
        id,
        name: input.name.trim(),
        type: input.type,
        ...(input.station !== undefined && { station: input.station }),
        created_at: now,
        updated_at: now,
      });
      return id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(CATEGORY_MESSAGES.createFailed);
    throw error;
  }
}

/**
 * The type identifies the category (it never changes type): from the body, or from the query as in the
 * other category routes, so a client can send the `{id, name}` it read back to the URL it read it from.
 * When both name one, they must agree.
 */
export async function updateCategory(
  ctx: AppContext,
  id: string,
  input: CategoryUpdateBody,
  typeInQuery: CategoryType | undefined,
): Promise<void> {
  const type = input.type ?? typeInQuery;
  if (type === undefined || (typeInQuery !== undefined && type !== typeInQuery)) {
    throw new BadRequestError(CATEGORY_MESSAGES.malformedIdOrType);
  }
  assertStationFits(input, type);
  let isFound: boolean;
  try {
    isFound = await categories.updateCategory(ctx.db, id, type, {
      name: input.name.trim(),
      ...(input.station !== undefined && { station: input.station }),
      updated_at: ctx.clock.now(),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new BadRequestError(CATEGORY_MESSAGES.updateFailed);
    throw error;
  }
  if (!isFound) throw new NotFoundError(CATEGORY_MESSAGES.notFound(id));
}

/**
 * The category row stays locked from the usage check to the delete; creating or moving a record into
 * a category locks the same row, so no live record can end up pointing at a deleted category.
 */
export async function deleteCategory(ctx: AppContext, id: string, type: CategoryType): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await categories.lockLiveCategory(trx, id, type);
    if (!row || (await categories.isCategoryInUse(trx, id, type))) {
      throw new BadRequestError(CATEGORY_MESSAGES.cannotDelete);
    }
    await categories.softDeleteCategory(trx, id, ctx.clock.now());
  });
}

/** For the records that use categories: the category must be live, of their type, and stay so until commit. */
export async function lockUsableCategory(
  db: AppContext['db'],
  id: string,
  type: CategoryType,
): Promise<void> {
  if (!(await categories.lockLiveCategory(db, id, type))) {
    throw new BadRequestError(`category_id must name an existing ${type} category`);
  }
}
