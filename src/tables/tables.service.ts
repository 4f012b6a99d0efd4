import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { findLiveSpace, lockUsableSpace } from '../spaces/spaces.api';
import { recordTableEvent } from './table-events';
import { toTableView } from './table-views';
import * as tables from './tables.repo';
import type { CreateTableBody, TableView, UpdateTableBody } from './tables.schemas';

export const TABLE_MESSAGES = {
  deleteWithActiveOrder: 'Cannot delete table - it has an active order',
  unknownOrder: 'order_id must name an existing order',
  notTheActiveOrder: 'order_id must be null or the active order of this table',
  orderIsFixed: 'Cannot change order_id - the table has an active order',
  mustStayOccupied: 'Cannot change status - the table has an active order',
} as const;

export async function listTables(ctx: AppContext): Promise<TableView[]> {
  return (await tables.listLiveTables(ctx.db)).map(toTableView);
}

export async function listTablesOfSpace(ctx: AppContext, spaceId: string): Promise<TableView[]> {
  if (!(await findLiveSpace(ctx.db, spaceId))) throw new NotFoundError();
  return (await tables.listLiveTables(ctx.db, spaceId)).map(toTableView);
}

export async function getTable(ctx: AppContext, id: string): Promise<TableView> {
  const row = await tables.findLiveTable(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toTableView(row);
}

/** The space stays locked until commit, so it cannot be deleted under the new table. */
export function createTable(
  ctx: AppContext,
  input: CreateTableBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    await lockUsableSpace(trx, input.space_id);
    // A table that does not exist yet has no active order, so only null fits.
    if (input.order_id) await assertOrderIdFits(trx, input.order_id, undefined);
    const row = await tables.insertTable(trx, {
      id,
      name: input.name.trim(),
      status: input.status ?? 'available',
      space_id: input.space_id,
      order_id: null,
      created_at: now,
      updated_at: now,
    });
    await recordTableEvent(trx, 'table.created', row, now);
    return id;
  });
}

/**
 * `status` and `order_id` mirror the table's active order, which the orders service maintains: while
 * one is active the table stays `occupied` with that `order_id`; without one, `order_id` stays null.
 */
export async function updateTable(ctx: AppContext, id: string, input: UpdateTableBody): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await tables.lockLiveTable(trx, id);
    if (!row) throw new NotFoundError();
    await lockUsableSpace(trx, input.space_id);
    const activeOrderId = await tables.findActiveOrderId(trx, row);
    if (input.order_id !== undefined) await assertOrderIdFits(trx, input.order_id, activeOrderId);
    if (activeOrderId && input.status !== undefined && input.status !== 'occupied') {
      throw new BadRequestError(TABLE_MESSAGES.mustStayOccupied);
    }
    const updated = await tables.updateTable(trx, id, {
      name: input.name.trim(),
      space_id: input.space_id,
      ...(input.status !== undefined && { status: input.status }),
      ...(input.order_id !== undefined && { order_id: input.order_id }),
      updated_at: now,
    });
    await recordTableEvent(trx, 'table.updated', updated, now);
  });
}

/** The table row is locked first, so an order being opened on it waits for (and then sees) the delete. */
export async function deleteTable(ctx: AppContext, id: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await tables.lockLiveTable(trx, id);
    if (!row) throw new NotFoundError();
    if (await tables.findActiveOrderId(trx, row))
      throw new BadRequestError(TABLE_MESSAGES.deleteWithActiveOrder);
    const deleted = await tables.updateTable(trx, id, { is_deleted: 1, updated_at: now });
    await recordTableEvent(trx, 'table.deleted', deleted, now);
  });
}

async function assertOrderIdFits(
  db: Db,
  orderId: string | null,
  activeOrderId: string | undefined,
): Promise<void> {
  if (activeOrderId !== undefined) {
    if (orderId !== activeOrderId) throw new BadRequestError(TABLE_MESSAGES.orderIsFixed);
    return;
  }
  if (orderId === null) return;
  if (!(await tables.orderExists(db, orderId))) throw new BadRequestError(TABLE_MESSAGES.unknownOrder);
  throw new BadRequestError(TABLE_MESSAGES.notTheActiveOrder);
}
