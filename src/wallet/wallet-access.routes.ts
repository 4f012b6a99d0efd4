import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { clearTokenCookie, setTokenCookie } from '../core/cookies';
import { errors, MessageReply } from '../core/schemas';
import * as service from './wallet-access.service';

const WalletPassword = (description: string) =>
  Type.String({ minLength: 8, maxLength: 200, description, example: 'correct horse battery' });

const WalletAuthBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

const ChangeWalletPasswordBody = Type.Object(
  {
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    new_password: WalletPassword('At least 8 characters'),
  },
  { additionalProperties: false },
);

/** Password guesses are throttled per address and user, as logins are. */
const WALLET_PASSWORD_RATE_LIMIT = {
  max: 10,
  timeWindow: '1 minute',
  keyGenerator: (request: FastifyRequest) => `${request.ip}|wallet|${request.principal?.id ?? ''}`,
};

export const walletAccessRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const secure = ctx.config.cookieSecure;
  const config = { adminOnly: true, rateLimit: WALLET_PASSWORD_RATE_LIMIT };

  app.post(
    '/wallet/auth',
    {
      config,
      schema: {
        tags: ['Wallet'],
        operationId: 'unlockWallet',
        summary: 'Unlock the wallet with the wallet password',
        description:
          'Administrators. Sets the HttpOnly cookie walletAccessToken (5 minutes), bound to this user and ' +
          'this login session; every wallet route except createinvoice needs it.',
        body: WalletAuthBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const token = await service.grantWalletAccess(ctx, principalOf(request), request.body.password);
      setTokenCookie(reply, 'wallet', token, secure);
      return { message: 'Wallet access granted' };
    },
  );

  app.post(
    '/wallet/logout',
    {
      config: { adminOnly: true },
      schema: {
        tags: ['Wallet'],
        operationId: 'lockWallet',
        summary: 'Lock the wallet',
        description: 'Clears the walletAccessToken cookie.',
        response: { 200: Type.Object({ status: Type.String({ example: 'ok' }) }), ...errors(401, 403) },
      },
    },
    async (_request, reply) => {
      clearTokenCookie(reply, 'wallet', secure);
      return { status: 'ok' };
    },
  );

  app.put(
    '/users/me/wallet-password',
    {
      config,
      schema: {
        tags: ['Wallet'],
        operationId: 'setWalletPassword',
        summary: 'Set or change my wallet password',
        description:
          'Administrators, for their own account. `current_password` is required once a wallet password ' +
          'is set; a wrong one answers 401 Invalid credentials. Wallet tokens already issued stay valid ' +
          'until they expire (5 minutes at most).',
        body: ChangeWalletPasswordBody,
        response: { 200: MessageReply, ...errors(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      await service.changeWalletPassword(ctx, principalOf(request), request.body);
      return { message: 'Wallet password updated' };
    },
  );
};
