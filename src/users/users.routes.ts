import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { authErrors, errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import { CreateUserBody, CurrentUserView, UpdateUserBody, UserView } from './users.schemas';
import * as service from './users.service';

export const usersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/users/me',
    {
      schema: {
        tags: ['Users'],
        operationId: 'getCurrentUser',
        summary: 'The logged-in user',
        response: { 200: CurrentUserView, ...errors(401) },
      },
    },
    (request) => service.getCurrentUser(ctx, principalOf(request)),
  );

  app.get(
    '/users',
    {
      schema: {
        tags: ['Users'],
        operationId: 'listUsers',
        summary: 'List users',
        response: { 200: Type.Array(UserView), 204: NoContent, ...authErrors() },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listUsers(ctx)),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['Users'],
        operationId: 'getUser',
        summary: 'Get a user',
        params: IdParams,
        response: { 200: UserView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getUser(ctx, request.params.id),
  );

  app.post(
    '/users',
    {
      schema: {
        tags: ['Users'],
        operationId: 'createUser',
        summary: 'Create a user',
        description:
          'Names are unique among live users, ignoring case, Unicode form and surrounding spaces. The role ' +
          'defaults to staff.',
        headers: IdempotencyHeaders,
        body: CreateUserBody,
        response: { 201: IdMessageReply, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const user = await service.createUser(ctx, request.body, idempotencyClaimOf(ctx, request), {
        actor: principalOf(request),
        action: 'user.created',
      });
      return reply.code(201).send({ id: user.id, message: 'User added successfully' });
    },
  );

  app.put(
    '/users/:id',
    {
      schema: {
        tags: ['Users'],
        operationId: 'updateUser',
        summary: 'Update a user',
        description:
          'Renaming requires a PIN, because the stored PIN hash is salted with the name. Names are unique ' +
          'ignoring case, Unicode form and surrounding spaces. A new PIN or role logs the user out of every ' +
          'session (an admin editing their own account keeps the current one).',
        params: IdParams,
        body: roundTripBody(UserView, UpdateUserBody),
        response: { 200: IdMessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const user = await service.updateUser(ctx, principalOf(request), request.params.id, request.body);
      return { id: user.id, message: 'User updated successfully' };
    },
  );

  app.delete(
    '/users/:id',
    {
      schema: {
        tags: ['Users'],
        operationId: 'deleteUser',
        summary: 'Delete a user',
        description: 'Logical delete; the user is logged out everywhere. The last admin cannot be removed.',
        params: IdParams,
        response: { 200: IdMessageReply, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.deleteUser(ctx, principalOf(request), request.params.id);
      return { id: request.params.id, message: 'User deleted successfully' };
    },
  );
};
