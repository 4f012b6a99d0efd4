import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { COOKIE_NAMES, clearTokenCookie, setTokenCookie } from '../core/cookies';
import { errors, MessageReply } from '../core/schemas';
import { Pin } from '../users/users.schemas';
import * as service from './wallet-access.service';

const WalletPassword = (description: string) =>
  Type.String({ minLength: 8, maxLength: 200, description, example: 'correct horse battery' });

const WalletAuthBody = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

const ChangeWalletPasswordBody = Type.Object(
  {
    current_password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The current wallet password. Required when one is set; ignored otherwise.',
      }),
    ),
    pin: Type.Optional(
      Pin('Your login PIN. Required to set a first wallet password (none set yet); ignored otherwise.'),
    ),
    new_password: WalletPassword('At least 8 characters'),
  },
  { additionalProperties: false },
);

export const walletAccessRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const secure = ctx.config.cookieSecure;

  app.post(
    '/wallet/auth',
    {
      schema: {
        tags: ['Wallet'],
        operationId: 'unlockWallet',
        summary: 'Unlock the wallet with the wallet password',
        description:
          'Administrators. Sets the HttpOnly cookie walletAccessToken (5 minutes), bound to this user and ' +
          'this login session; every wallet route except createinvoice needs it. Wrong passwords are limited ' +
          'per administrator (429 with Retry-After), sharing the budget of PUT /users/me/wallet-password.',
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
      schema: {
        tags: ['Wallet'],
        operationId: 'lockWallet',
        summary: 'Lock the wallet',
        description:
          'Clears the walletAccessToken cookie and revokes that token on the server, so a copy of it is refused too.',
        response: { 200: Type.Object({ status: Type.String({ example: 'ok' }) }), ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await service.revokeWalletAccess(ctx, principalOf(request), request.cookies[COOKIE_NAMES.wallet]);
      clearTokenCookie(reply, 'wallet', secure);
      return { status: 'ok' };
    },
  );

  app.put(
    '/users/me/wallet-password',
    {
      schema: {
        tags: ['Wallet'],
        operationId: 'setWalletPassword',
        summary: 'Set or change my wallet password',
        description:
          'Administrators, for their own account. Needs proof: `current_password` once a wallet password is ' +
          'set, or `pin` (the login PIN) to set the first one; the missing proof answers 400, a wrong one 401 ' +
          'Invalid credentials. Wrong proofs share the rate limit of POST /wallet/auth (429 with ' +
          'Retry-After). Wallet tokens already issued stay valid until they expire (5 minutes at most).',
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
