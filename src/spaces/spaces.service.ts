import type { AppContext } from '../core/context';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import * as spaces from './spaces.repo';
import type { SpaceBody, SpaceView } from './spaces.schemas';

export const SPACE_HAS_TABLES = 'Cannot delete space - it has tables';

function toSpaceView(row: spaces.SpaceRow): SpaceView {
  return { id: row.id, name: row.name };
}

export async function listSpaces(ctx: AppContext): Promise<SpaceView[]> {
  return (await spaces.listLiveSpaces(ctx.db)).map(toSpaceView);
}

export async function getSpace(ctx: AppContext, id: string): Promise<SpaceView> {
  const row = await spaces.findLiveSpace(ctx.db, id);
  if (!row) throw new NotFoundError();
  return toSpaceView(row);
}

export function createSpace(
  ctx: AppContext,
  input: SpaceBody,
  claim: IdempotencyClaim | undefined,
): Promise<string> {
  const id = newId();
  const now = ctx.clock.now();
  return inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
    await spaces.insertSpace(trx, { id, name: input.name.trim(), created_at: now, updated_at: now });
    return id;
  });
}

export async function updateSpace(ctx: AppContext, id: string, input: SpaceBody): Promise<void> {
  const isFound = await spaces.renameLiveSpace(ctx.db, id, input.name.trim(), ctx.clock.now());
  if (!isFound) throw new NotFoundError();
}

/**
 * The space row stays locked from the check to the delete; adding or moving a table into a space
 * locks the same row, so a space is never deleted with a live table in it.
 */
export async function deleteSpace(ctx: AppContext, id: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await spaces.lockLiveSpace(trx, id))) throw new NotFoundError();
    if (await spaces.hasLiveTables(trx, id)) throw new BadRequestError(SPACE_HAS_TABLES);
    await spaces.softDeleteSpace(trx, id, ctx.clock.now());
  });
}

/** For tables: the space must be live, and stay so until the caller's transaction commits. */
export async function lockUsableSpace(db: AppContext['db'], id: string): Promise<void> {
  if (!(await spaces.lockLiveSpace(db, id)))
    throw new BadRequestError('space_id must name an existing space');
}
