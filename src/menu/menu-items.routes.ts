import type { FastifyInstance } from 'fastify';
import { type Static, type TObject, Type } from 'typebox';
import type { CategoryType } from '../categories/categories.schemas';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { authErrors, errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import type { MenuItemService } from './menu-items.service';

export type MenuItemResource<Body extends TObject, View extends TObject> = {
  path: `/${string}`;
  tag: 'Dishes' | 'Ingredients' | 'Products';
  /** `Dish`, as in `Dish added successfully`. */
  noun: string;
  categoryType: CategoryType;
  Body: Body;
  View: View;
  /** Rules of this kind beyond the shared ones, for the OpenAPI descriptions. */
  extraRules?: string;
  service: MenuItemService<Static<Body>, Static<View>>;
};

/** The five routes dishes, ingredients and products share: list, get, create, update, logical delete. */
export function registerMenuItemRoutes<Body extends TObject, View extends TObject>(
  // Typed per route below: the TypeBox provider cannot infer through this function's type parameters,
  // so bodies (validated against `resource.Body` before the handler runs) are cast to its static type.
  app: FastifyInstance,
  ctx: AppContext,
  resource: MenuItemResource<Body, View>,
): void {
  const { path, tag, noun, service } = resource;
  const lowerNoun = noun.toLowerCase();
  const categoryRule =
    `\`category_id\` must name a live category of type ${resource.categoryType}; otherwise 400 ` +
    `\`category_id must name an existing ${resource.categoryType} category\`.`;
  const writeRules = [categoryRule, resource.extraRules].filter(Boolean).join(' ');
  const IdMessage = (message: string) =>
    Type.Object(IdMessageReply.properties, {
      example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', message },
    });

  app.get(
    path,
    {
      schema: {
        tags: [tag],
        operationId: `list${tag}`,
        summary: `List ${lowerNoun} records`,
        description: 'Live records, by name. None: 204 with no body.',
        response: { 200: Type.Array(resource.View), 204: NoContent, ...authErrors() },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.list(ctx)),
  );

  app.get<{ Params: IdParams }>(
    `${path}/:id`,
    {
      schema: {
        tags: [tag],
        operationId: `get${noun}`,
        summary: `Get a ${lowerNoun}`,
        params: IdParams,
        response: { 200: resource.View, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.get(ctx, request.params.id),
  );

  app.post(
    path,
    {
      schema: {
        tags: [tag],
        operationId: `create${noun}`,
        summary: `Create a ${lowerNoun}`,
        description: writeRules,
        headers: IdempotencyHeaders,
        body: resource.Body,
        response: { 201: IdMessage(`${noun} added successfully`), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const id = await service.create(
        ctx,
        request.body as Static<Body>,
        idempotencyClaimOf(ctx, request),
        principalOf(request),
      );
      return reply.code(201).send({ id, message: `${noun} added successfully` });
    },
  );

  app.put<{ Params: IdParams }>(
    `${path}/:id`,
    {
      schema: {
        tags: [tag],
        operationId: `update${noun}`,
        summary: `Update a ${lowerNoun}`,
        description: `Replaces every field. ${writeRules} A missing or deleted ${lowerNoun}: 404.`,
        params: IdParams,
        body: roundTripBody(resource.View, resource.Body),
        response: { 200: IdMessage(`${noun} updated successfully`), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.update(ctx, request.params.id, request.body as Static<Body>, principalOf(request));
      return { id: request.params.id, message: `${noun} updated successfully` };
    },
  );

  app.delete<{ Params: IdParams }>(
    `${path}/:id`,
    {
      schema: {
        tags: [tag],
        operationId: `delete${noun}`,
        summary: `Delete a ${lowerNoun}`,
        description:
          'Logical delete; the record is no longer listed and no longer keeps its category in use.',
        params: IdParams,
        response: { 200: IdMessage(`${noun} deleted successfully`), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.remove(ctx, request.params.id);
      return { id: request.params.id, message: `${noun} deleted successfully` };
    },
  );
}
