import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../core/context';
import { IdempotencyHeaders, idempotencyClaimOf } from '../core/idempotency';
import { listOrNoContent } from '../core/replies';
import { authErrors, errors, IdMessageReply, IdParams, NoContent, roundTripBody } from '../core/schemas';
import { ModifierGroupBody, ModifierGroupView } from './modifiers.schemas';
import * as service from './modifiers.service';

const tags = ['Modifier groups'];
const RULES =
  `\`0 ≤ min_select ≤ max_select\` (else 400 \`${service.MIN_ABOVE_MAX}\`), at most 50 options, option ` +
  `names unique in the group (400 \`${service.OPTION_NAMES_TWICE}\`). Group names are unique among live ` +
  `groups: 400 \`${service.GROUP_NAME_TAKEN}\`. An option sent with its \`id\` keeps it and is updated; ` +
  'an `id` that is not a live option of this group: 400 `Option <id> does not belong to this group`. ' +
  'Live options left out are retired: plates that chose them keep their snapshot, the menu no longer ' +
  'offers them. `available: false` keeps an option listed but refused on new plates.';
const announced = (type: string) =>
  ` The change is announced on the live stream's \`kitchen\` topic (\`${type}\`, data: the group as ` +
  'GET shows it, a deleted one as it was), so the order screens read the menu again.';

const IdMessage = (message: string) =>
  Type.Object(IdMessageReply.properties, {
    example: { id: '3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e', message },
  });

/** Modifier groups ("Tortilla: corn or flour", "Extras") and their options, which dishes link. */
export const modifiersRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/modifier-groups',
    {
      schema: {
        tags,
        operationId: 'listModifierGroups',
        summary: 'List modifier groups',
        description: 'Live groups by name, each with its live options in order. None: 204 with no body.',
        response: { 200: Type.Array(ModifierGroupView), 204: NoContent, ...authErrors() },
      },
    },
    async (_request, reply) => listOrNoContent(reply, await service.listGroups(ctx)),
  );

  app.get(
    '/modifier-groups/:id',
    {
      schema: {
        tags,
        operationId: 'getModifierGroup',
        summary: 'Get a modifier group',
        params: IdParams,
        response: { 200: ModifierGroupView, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => service.getGroup(ctx, request.params.id),
  );

  app.post(
    '/modifier-groups',
    {
      schema: {
        tags,
        operationId: 'createModifierGroup',
        summary: 'Create a modifier group',
        description: RULES + announced('modifier_group.created'),
        headers: IdempotencyHeaders,
        body: ModifierGroupBody,
        response: { 201: IdMessage('Modifier group added successfully'), ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const id = await service.createGroup(ctx, request.body, idempotencyClaimOf(ctx, request));
      return reply.code(201).send({ id, message: 'Modifier group added successfully' });
    },
  );

  app.put(
    '/modifier-groups/:id',
    {
      schema: {
        tags,
        operationId: 'updateModifierGroup',
        summary: 'Update a modifier group',
        description:
          `Replaces the group and its options. ${RULES} A missing or deleted group: 404.` +
          announced('modifier_group.updated'),
        params: IdParams,
        body: roundTripBody(ModifierGroupView, ModifierGroupBody),
        response: { 200: IdMessage('Modifier group updated successfully'), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.updateGroup(ctx, request.params.id, request.body);
      return { id: request.params.id, message: 'Modifier group updated successfully' };
    },
  );

  app.delete(
    '/modifier-groups/:id',
    {
      schema: {
        tags,
        operationId: 'deleteModifierGroup',
        summary: 'Delete a modifier group',
        description:
          `Logical delete. A group a live dish links: 400 \`${service.GROUP_IN_USE}\`.` +
          announced('modifier_group.deleted'),
        params: IdParams,
        response: { 200: IdMessage('Modifier group deleted successfully'), ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.deleteGroup(ctx, request.params.id);
      return { id: request.params.id, message: 'Modifier group deleted successfully' };
    },
  );
};
