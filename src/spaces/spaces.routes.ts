import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { authErrors, errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import { SpaceBody, SpaceView } from './spaces.schemas';
import * as service from './spaces.service';

const idMessage = (message: string) =>
  Type.Object(IdMessageReply.properties, {
    example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', message },
  });

export const spacesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/spaces',
    {
      schema: {
        tags: ['Spaces'],
        operationId: 'listSpaces',
        summary: 'List spaces',
        description: 'Live spaces, by name. None: 204 with no body.',
        response: { 200: Type.Array(SpaceView), 204: NoContent, ...authErrors() },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listSpaces(ctx)),
  );

  app.get(
    '/spaces/:id',
    {
      schema: {
        tags: ['Spaces'],
        operationId: 'getSpace',
        summary: 'Get a space',
        params: IdParams,
        response: { 200: SpaceView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getSpace(ctx, request.params.id),
  );

  app.post(
    '/spaces',
    {
      schema: {
        tags: ['Spaces'],
        operationId: 'createSpace',
        summary: 'Create a space',
        headers: IdempotencyHeaders,
        body: SpaceBody,
        response: { 201: idMessage('Space added successfully'), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const id = await service.createSpace(ctx, request.body, idempotencyClaimOf(ctx, request));
      return reply.code(201).send({ id, message: 'Space added successfully' });
    },
  );

  app.put(
    '/spaces/:id',
    {
      schema: {
        tags: ['Spaces'],
        operationId: 'updateSpace',
        summary: 'Rename a space',
        params: IdParams,
        body: roundTripBody(SpaceView, SpaceBody),
        response: { 200: idMessage('Space updated successfully'), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.updateSpace(ctx, request.params.id, request.body);
      return { id: request.params.id, message: 'Space updated successfully' };
    },
  );

  app.delete(
    '/spaces/:id',
    {
      schema: {
        tags: ['Spaces'],
        operationId: 'deleteSpace',
        summary: 'Delete a space',
        description: `Logical delete. A space with live tables: 400 \`${service.SPACE_HAS_TABLES}\`.`,
        params: IdParams,
        response: {
          200: idMessage('Space deleted successfully'),
          400: Type.Union([
            errors(400)[400],
            Type.Object({ message: Type.String({ example: service.SPACE_HAS_TABLES }) }),
          ]),
          ...errors(401, 403, 404),
        },
      },
    },
    async (request) => {
      await service.deleteSpace(ctx, request.params.id);
      return { id: request.params.id, message: 'Space deleted successfully' };
    },
  );
};
