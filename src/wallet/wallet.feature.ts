import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../core/context';
import { invoiceRoutes, walletNodeRoutes } from './wallet.routes';
import { walletAccessRoutes } from './wallet-access.routes';
import { requireWalletAccess } from './wallet-guard';
import { walletPaymentsRoutes } from './wallet-payments.routes';
import { webhookRoutes } from './webhook.routes';
import type { SettleArrived } from './webhook.service';

/** The Lightning wallet: wallet sign-in, the routes proxied to phoenixd, and phoenixd's webhook. */
export const walletFeature: FastifyPluginAsync<{ ctx: AppContext; settleArrived: SettleArrived }> = async (
  app,
  { ctx, settleArrived },
) => {
  // The answer to an unreachable node (503) or an unanswered payment (504) is bare; the reason belongs in our log.
  app.addHook('onError', async (request, _reply, error) => {
    if ((error.statusCode === 503 || error.statusCode === 504) && error.cause)
      request.log.warn({ err: error.cause }, 'Lightning node call failed');
  });

  await app.register(walletAccessRoutes, { ctx });
  await app.register(invoiceRoutes, { ctx });
  await app.register(async (guarded) => {
    guarded.addHook('onRoute', (route) => {
      if (route.schema) route.schema.security = [{ accessToken: [], walletAccessToken: [] }];
    });
    guarded.addHook('onRequest', requireWalletAccess(ctx));
    await guarded.register(walletNodeRoutes, { ctx });
    await guarded.register(walletPaymentsRoutes, { ctx });
  });
  await app.register(webhookRoutes, { ctx, settleArrived });
};
