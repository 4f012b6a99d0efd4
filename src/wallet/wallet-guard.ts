import type { FastifyRequest } from 'fastify';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { COOKIE_NAMES } from '../core/cookies';
import { assertWalletAccess } from './wallet-access.service';

/**
 * onRequest hook for the admin wallet routes. It runs after the global auth guard, so a non-admin
 * has already been answered 403; an admin then also needs a live walletAccessToken of this login.
 */
export function requireWalletAccess(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    await assertWalletAccess(ctx, principalOf(request), request.cookies[COOKIE_NAMES.wallet]);
  };
}
