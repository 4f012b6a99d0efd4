import type { AppContext } from '../core/context';
import { isUniqueViolation } from '../core/db/locks';
import { BadRequestError, NotFoundError } from '../core/errors';
import { type IdempotencyClaim, inIdempotentTransaction } from '../core/idempotency';
import { newId } from '../core/ids';
import { toPaymentMethodView } from './payment-views';
import * as payments from './payments.repo';
import type { PaymentMethodBody, PaymentMethodUpdateBody, PaymentMethodView } from './payments.schemas';

export async function listPaymentMethods(ctx: AppContext): Promise<PaymentMethodView[]> {
  return (await payments.listPaymentMethods(ctx.db)).map(toPaymentMethodView);
}

/** Codes are unique; the unique index decides between two admins adding the same code at once. */
export async function createPaymentMethod(
  ctx: AppContext,
  input: PaymentMethodBody,
  claim: IdempotencyClaim | undefined,
): Promise<{ id: string }> {
  const now = ctx.clock.now();
  const id = newId();
  try {
    return await inIdempotentTransaction(ctx.db, { claim, statusCode: 201, now }, async (trx) => {
      await payments.insertPaymentMethod(trx, {
        id,
        code: input.code,
        name: input.name,
        created_at: now,
        updated_at: now,
      });
      return { id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new BadRequestError(`Payment method with code: ${input.code} already exists`);
    }
    throw error;
  }
}

/** Renames or (de)activates; a deactivated method keeps its past payments and takes no new ones. */
export async function updatePaymentMethod(
  ctx: AppContext,
  id: string,
  input: PaymentMethodUpdateBody,
): Promise<void> {
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.is_active !== undefined && { is_active: input.is_active ? 1 : 0 }),
    updated_at: ctx.clock.now(),
  };
  if (!(await payments.updatePaymentMethod(ctx.db, id, changes))) throw new NotFoundError();
}
