import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import {
  authErrors,
  BareText,
  errors,
  IdMessageReply,
  IdParams,
  NoContent,
  roundTripBody,
} from '../core/schemas';
import {
  CategoryBody,
  CategoryMessage,
  CategoryTypeQuery,
  CategoryUpdateBody,
  CategoryUpdateQuery,
  CategoryView,
} from './categories.schemas';
import * as service from './categories.service';
import { CATEGORY_MESSAGES as MESSAGES } from './categories.service';
import { createFailure, idOrTypeQueryFailure, updateFailure } from './categories.validation';

const MalformedTypeReply = CategoryMessage(MESSAGES.malformedType);
const MalformedIdOrTypeReply = Type.Union([BareText('Missing or malformed ID'), MalformedTypeReply], {
  description: 'A path id that is not a UUID (bare text), or a missing or unknown `type` query',
});

export const categoriesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/categories',
    {
      schemaErrorFormatter: idOrTypeQueryFailure,
      schema: {
        tags: ['Categories'],
        operationId: 'listCategories',
        summary: 'List the categories of one type',
        description: 'A missing or unknown `type`: 400 `Missing or malformed type`. No category: 204.',
        querystring: CategoryTypeQuery,
        response: { 200: Type.Array(CategoryView), 204: NoContent, 400: MalformedTypeReply, ...authErrors() },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listCategories(ctx, request.query.type)),
  );

  app.get(
    '/categories/:id',
    {
      schemaErrorFormatter: idOrTypeQueryFailure,
      schema: {
        tags: ['Categories'],
        operationId: 'getCategory',
        summary: 'Get a category',
        description:
          'A category that does not exist, is deleted or has another type: 404 `Resource not found`. ' +
          'A malformed id: 400 `Missing or malformed ID`; a missing or unknown `type`: 400 `Missing or malformed type`.',
        params: IdParams,
        querystring: CategoryTypeQuery,
        response: { 200: CategoryView, 400: MalformedIdOrTypeReply, ...errors(401, 403, 404) },
      },
    },
    (request) => service.getCategory(ctx, request.params.id, request.query.type),
  );

  app.post(
    '/categories',
    {
      schemaErrorFormatter: createFailure,
      schema: {
        tags: ['Categories'],
        operationId: 'createCategory',
        summary: 'Create a category',
        description:
          'Names are unique per type among live categories (a deleted name may be reused). A missing or ' +
          'unknown `type`: 400 `Missing or malformed type`. A missing or blank name, or a name already ' +
          'taken: 400 `Failed to create category`. A `station` on a category that is not a dish ' +
          'category: 400 `Only dish categories have a station`. An empty or oversized `Idempotency-Key`: ' +
          '400 `Malformed Idempotency-Key header`.',
        headers: IdempotencyHeaders,
        body: CategoryBody,
        response: {
          201: IdMessageReply,
          400: CategoryMessage(
            MESSAGES.malformedType,
            MESSAGES.createFailed,
            MESSAGES.stationOfDishesOnly,
            MESSAGES.malformedIdempotencyKey,
          ),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      const id = await service.createCategory(ctx, request.body, idempotencyClaimOf(ctx, request));
      return reply.code(201).send({ id, message: 'Category added successfully' });
    },
  );

  app.put(
    '/categories/:id',
    {
      schemaErrorFormatter: updateFailure,
      schema: {
        tags: ['Categories'],
        operationId: 'updateCategory',
        summary: 'Rename a category or move it to another station',
        description:
          'The `type`, in the body or the query (both: the same), identifies the category together with ' +
          'the id; a category never changes type. ' +
          'A malformed id or a missing or unknown `type`: 400 `Missing or malformed ID/type`. A missing or ' +
          'blank name, or a name already taken in that type: 400 `Failed to update category`. A `station` ' +
          'on a category that is not a dish category: 400 `Only dish categories have a station`. No live ' +
          'category with that id and type: 404 `Category with ID: <id> not found`.',
        params: IdParams,
        querystring: CategoryUpdateQuery,
        body: roundTripBody(CategoryView, CategoryUpdateBody),
        response: {
          200: IdMessageReply,
          400: CategoryMessage(
            MESSAGES.malformedIdOrType,
            MESSAGES.updateFailed,
            MESSAGES.stationOfDishesOnly,
          ),
          404: CategoryMessage(MESSAGES.notFound('3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e')),
          ...authErrors(),
        },
      },
    },
    async (request) => {
      await service.updateCategory(ctx, request.params.id, request.body, request.query.type);
      return { id: request.params.id, message: 'Category updated successfully' };
    },
  );

  app.delete(
    '/categories/:id',
    {
      schemaErrorFormatter: idOrTypeQueryFailure,
      schema: {
        tags: ['Categories'],
        operationId: 'deleteCategory',
        summary: 'Delete a category',
        description:
          'Logical delete, answered with 204 and no body. A category used by a live record of its type ' +
          '(dish, ingredient or product), or with no live category of that id and type: 400 ' +
          '`Cannot delete category - it may be in use or not found`.',
        params: IdParams,
        querystring: CategoryTypeQuery,
        response: {
          204: NoContent,
          400: Type.Union([MalformedIdOrTypeReply, CategoryMessage(MESSAGES.cannotDelete)]),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      await service.deleteCategory(ctx, request.params.id, request.query.type);
      return reply.code(204).send(null);
    },
  );
};
