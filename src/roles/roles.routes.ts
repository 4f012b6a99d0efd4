import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { authErrors, errors, IdMessageReply, IdParams, roundTripBody } from '../core/schemas';
import { PermissionView, RoleBody, RoleView } from './roles.schemas';
import * as service from './roles.service';

export const rolesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/permissions',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'listPermissions',
        summary: 'Every permission a role can hold',
        response: { 200: Type.Array(PermissionView), ...authErrors() },
      },
    },
    () => service.listPermissions(),
  );

  app.get(
    '/roles',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'listRoles',
        summary: 'List roles',
        response: { 200: Type.Array(RoleView), ...authErrors() },
      },
    },
    (request) => service.listRoles(ctx, principalOf(request)),
  );

  app.get(
    '/roles/:id',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'getRole',
        summary: 'Get a role',
        params: IdParams,
        response: { 200: RoleView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getRole(ctx, principalOf(request), request.params.id),
  );

  app.post(
    '/roles',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'createRole',
        summary: 'Create a role',
        description: `A name in use: 400 \`${service.ROLE_NAME_TAKEN}\`.`,
        headers: IdempotencyHeaders,
        body: RoleBody,
        response: { 201: RoleView, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const role = await service.createRole(
        ctx,
        principalOf(request),
        request.body,
        idempotencyClaimOf(ctx, request),
      );
      return reply.code(201).send(role);
    },
  );

  app.put(
    '/roles/:id',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'updateRole',
        summary: 'Change a role',
        description:
          'Replaces its name, description and permissions; its users have them from their next request. ' +
          `The admin role: 400 \`${service.ADMIN_ROLE_FIXED}\`; renaming a seeded role: 400 ` +
          `\`${service.SEEDED_ROLE_NAME_FIXED}\`.`,
        params: IdParams,
        body: roundTripBody(RoleView, RoleBody),
        response: { 200: RoleView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.updateRole(ctx, principalOf(request), request.params.id, request.body),
  );

  app.delete(
    '/roles/:id',
    {
      schema: {
        tags: ['Roles'],
        operationId: 'deleteRole',
        summary: 'Delete a role',
        description:
          `A seeded role: 400 \`${service.SEEDED_ROLE_KEPT}\`. A role any user has (deleted users ` +
          `included): 409 \`${service.ROLE_IN_USE}\`.`,
        params: IdParams,
        response: { 200: IdMessageReply, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      await service.deleteRole(ctx, principalOf(request), request.params.id);
      return { id: request.params.id, message: 'Role deleted successfully' };
    },
  );
};
