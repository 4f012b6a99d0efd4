import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { COOKIE_NAMES, clearTokenCookie, setTokenCookie } from '../core/cookies';
import { errors, MessageReply } from '../core/schemas';
import { Pin, UserView } from '../users/users.schemas';
import * as service from './auth.service';

const LoginBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, example: 'Ana' }), pin: Pin() },
  { additionalProperties: false },
);

const LoginReply = Type.Object({ message: Type.String({ example: 'Login successful' }), user: UserView });

export const authRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const secure = ctx.config.cookieSecure;
  const setSessionCookies = (reply: FastifyReply, tokens: service.SessionTokens) => {
    setTokenCookie(reply, 'access', tokens.access, secure);
    setTokenCookie(reply, 'refresh', tokens.refresh, secure);
  };

  app.get(
    '/auth/staff',
    {
      config: { public: true },
      schema: {
        tags: ['Auth'],
        operationId: 'listStaffNames',
        summary: 'The names of the staff, for the login screen',
        description:
          'Public, like the list of names a till shows before a PIN is typed: the names of every live user, ' +
          'sorted, each with the number of digits of its PIN so the PIN pad logs in as the last one is tapped ' +
          '(`null` for a PIN set before the length was kept). Nothing else about them. The length narrows a ' +
          'guess no more than the pad itself shows; wrong PINs stay limited per name and client address.',
        response: {
          200: Type.Array(
            Type.Object({
              name: Type.String({ example: 'Ana' }),
              pin_length: Type.Union([Type.Integer({ minimum: 4, maximum: 12 }), Type.Null()], {
                example: 4,
              }),
            }),
          ),
        },
      },
    },
    () => service.listStaffNames(ctx),
  );

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: {
        tags: ['Auth'],
        operationId: 'loginUser',
        summary: 'Log in with name and PIN',
        description:
          'Sets the HttpOnly cookies accessToken (1 minute) and refreshToken (30 days). Each login is its own ' +
          'session. The name is matched ignoring case, Unicode form and surrounding spaces. Failed attempts are ' +
          'limited per name and client address, and more loosely per address across names (429 with ' +
          'Retry-After); successful logins never count.',
        body: LoginBody,
        response: { 200: LoginReply, ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { user, tokens } = await service.login(ctx, request.body, request.ip);
      setSessionCookies(reply, tokens);
      return { message: 'Login successful', user };
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { public: true },
      schema: {
        tags: ['Auth'],
        operationId: 'refreshSession',
        summary: 'Renew the access token',
        description:
          'Needs the refreshToken cookie. Answers a new accessToken and a rotated refreshToken. The refresh ' +
          'token just replaced, presented again within 10 s of its rotation (two tabs, a retry after a lost ' +
          'answer), gets the same new cookies again; presenting an already rotated refresh token later ' +
          'revokes the whole session. A 401 says why in `reason`; every reason here means logging in again.',
        response: { 200: MessageReply, ...errors(401) },
      },
    },
    async (request, reply) => {
      const tokens = await service.refresh(ctx, request.cookies[COOKIE_NAMES.refresh]);
      setSessionCookies(reply, tokens);
      return { message: 'Token refreshed successfully' };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { public: true },
      schema: {
        tags: ['Auth'],
        operationId: 'logoutUser',
        summary: 'Log out this device',
        description: 'Revokes the session named by the access or refresh token and clears the cookies.',
        response: { 200: MessageReply },
      },
    },
    async (request, reply) => {
      await service.logout(ctx, {
        accessToken: request.cookies[COOKIE_NAMES.access],
        refreshToken: request.cookies[COOKIE_NAMES.refresh],
      });
      clearTokenCookie(reply, 'access', secure);
      clearTokenCookie(reply, 'refresh', secure);
      clearTokenCookie(reply, 'wallet', secure);
      return { message: 'Logout successful' };
    },
  );
};
