import type { AppContext } from '../core/context';
import { BadRequestError, GatewayTimeoutError, ServiceUnavailableError } from '../core/errors';
import {
  LightningLimitedAccessError,
  type LightningNode,
  LightningOutcomeUnknownError,
  LightningRequestError,
  LightningUnavailableError,
} from '../core/lightning-node';
import { PAYMENT_OUTCOME_UNKNOWN } from '../core/payment-once';

export const NOT_CONFIGURED = 'Lightning node is not configured';
export const UNAVAILABLE = 'Lightning node is unavailable';
export const LIMITED_PASSWORD =
  'The Lightning node refuses payments with this password: PHOENIXD_PASSWORD is phoenixd’s ' +
  'http-password-limited-access, which cannot pay; set it to http-password from phoenix.conf';

/**
 * Runs one call against the node and turns the client's failures into our typed errors: no node
 * configured or none answering is a 503 (naming the password when it may not pay); a request the
 * node refused is the caller's 400; a payment
 * sent without an answer is a 504, never the 503 that tells a client a retry is safe.
 */
export async function callNode<T>(ctx: AppContext, call: (node: LightningNode) => Promise<T>): Promise<T> {
  if (!ctx.lightning) throw new ServiceUnavailableError(NOT_CONFIGURED);
  try {
    return await call(ctx.lightning);
  } catch (error) {
    throw toAppError(error);
  }
}

/** The client's error stays attached as `cause`, for the log; the answer itself stays generic. */
function toAppError(error: unknown): unknown {
  if (error instanceof LightningUnavailableError) {
    return Object.assign(new ServiceUnavailableError(UNAVAILABLE), { cause: error });
  }
  if (error instanceof LightningLimitedAccessError) {
    return Object.assign(new ServiceUnavailableError(LIMITED_PASSWORD), { cause: error });
  }
  if (error instanceof LightningOutcomeUnknownError) {
    return Object.assign(new GatewayTimeoutError(PAYMENT_OUTCOME_UNKNOWN), { cause: error });
  }
  if (error instanceof LightningRequestError) return new BadRequestError(error.message);
  return error;
}
