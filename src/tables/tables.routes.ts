import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import {
  authErrors,
  errors,
  IdMessageReply,
  IdParams,
  messageChoices,
  NoContent,
  roundTripBody,
} from '../core/schemas';
import { CreateTableBody, TableView, UpdateTableBody } from './tables.schemas';
import * as service from './tables.service';
import { TABLE_MESSAGES } from './tables.service';

const idMessage = (message: string) =>
  Type.Object(IdMessageReply.properties, {
    example: { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', message },
  });

/** A 400 that is either a schema failure or one of the named rule refusals. */
const refusal = (...messages: string[]) =>
  Type.Union([
    errors(400)[400],
    Type.Object({ message: Type.String({ example: messages[0], description: messageChoices(messages) }) }),
  ]);

const ORDER_RULES =
  '`status` and `order_id` mirror the active order (pending, preparing or ready) seated at the table, ' +
  'which the orders service keeps: opening an order sets `occupied` and its id, completing or ' +
  'cancelling it sets `available` and null. So `order_id` can only be null or that active order ' +
  `(an unknown order: 400 \`${TABLE_MESSAGES.unknownOrder}\`; another existing order: 400 ` +
  `\`${TABLE_MESSAGES.notTheActiveOrder}\`).`;

export const tablesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/tables',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'listTables',
        summary: 'List tables',
        description: 'Live tables, by name. None: 204 with no body.',
        response: { 200: Type.Array(TableView), 204: NoContent, ...authErrors() },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listTables(ctx)),
  );

  app.get(
    '/tables/by-space/:id',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'listSpaceTables',
        summary: 'List the tables of a space',
        description: 'A live space without tables: 204 with no body. A space that does not exist: 404.',
        params: Type.Object({ id: IdParams.properties.id }, { description: 'The space id' }),
        response: { 200: Type.Array(TableView), 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => listOrNoContent(reply, await service.listTablesOfSpace(ctx, request.params.id)),
  );

  app.get(
    '/tables/:id',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'getTable',
        summary: 'Get a table',
        params: IdParams,
        response: { 200: TableView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getTable(ctx, request.params.id),
  );

  app.post(
    '/tables',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'createTable',
        summary: 'Create a table',
        description:
          '`status` defaults to available. `space_id` must name a live space (else 400 ' +
          `\`space_id must name an existing space\`). ${ORDER_RULES} A new table has no order yet, so ` +
          '`order_id` must be null or omitted.',
        headers: IdempotencyHeaders,
        body: CreateTableBody,
        response: {
          201: idMessage('Table added successfully'),
          400: refusal(
            'space_id must name an existing space',
            TABLE_MESSAGES.unknownOrder,
            TABLE_MESSAGES.notTheActiveOrder,
          ),
          ...authErrors(),
        },
      },
    },
    async (request, reply) => {
      const id = await service.createTable(ctx, request.body, idempotencyClaimOf(ctx, request));
      return reply.code(201).send({ id, message: 'Table added successfully' });
    },
  );

  app.put(
    '/tables/:id',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'updateTable',
        summary: 'Update a table',
        description:
          '`name` and `space_id` are required; `status` and `order_id` are unchanged when omitted. ' +
          `${ORDER_RULES} While the table has an active order, a \`status\` other than occupied is refused ` +
          `(400 \`${TABLE_MESSAGES.mustStayOccupied}\`) and so is another \`order_id\` ` +
          `(400 \`${TABLE_MESSAGES.orderIsFixed}\`): end the order instead.`,
        params: IdParams,
        body: roundTripBody(TableView, UpdateTableBody),
        response: {
          200: idMessage('Table updated successfully'),
          400: refusal(
            TABLE_MESSAGES.mustStayOccupied,
            TABLE_MESSAGES.orderIsFixed,
            TABLE_MESSAGES.unknownOrder,
          ),
          ...errors(401, 403, 404),
        },
      },
    },
    async (request) => {
      await service.updateTable(ctx, request.params.id, request.body);
      return { id: request.params.id, message: 'Table updated successfully' };
    },
  );

  app.delete(
    '/tables/:id',
    {
      schema: {
        tags: ['Tables'],
        operationId: 'deleteTable',
        summary: 'Delete a table',
        description: `Logical delete. A table with an active order: 400 \`${TABLE_MESSAGES.deleteWithActiveOrder}\`.`,
        params: IdParams,
        response: {
          200: idMessage('Table deleted successfully'),
          400: refusal(TABLE_MESSAGES.deleteWithActiveOrder),
          ...errors(401, 403, 404),
        },
      },
    },
    async (request) => {
      await service.deleteTable(ctx, request.params.id);
      return { id: request.params.id, message: 'Table deleted successfully' };
    },
  );
};
