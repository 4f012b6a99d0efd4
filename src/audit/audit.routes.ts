import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { BadRequestError } from '../core/errors';
import { listOrNoContent } from '../core/replies';
import { errors, IdParams, NoContent } from '../core/schemas';
import {
  AcknowledgeBreakBody,
  AuditPageReply,
  AuditQuery,
  AuditVerifyQuery,
  AuditVerifyReply,
} from './audit.schemas';
import * as service from './audit.service';
import { AUDIT_ACTIONS } from './record-audit';

export const auditRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/audit',
    {
      schema: {
        tags: ['Audit'],
        operationId: 'listAuditEntries',
        summary: 'The audit log',
        description:
          'Sensitive actions with actor, time, target and the record before and after. Newest first, ' +
          '`limit` (default 100, max 1000) and `offset`; X-Total-Count carries the count of all matches. ' +
          '`actor` matches the user id or the name (a failed login records the name tried). None: 204. ' +
          `Actions: ${AUDIT_ACTIONS.map((action) => `\`${action}\``).join(', ')}.`,
        querystring: AuditQuery,
        response: { 200: AuditPageReply, 204: NoContent, ...errors(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const page = await service.listAudit(ctx, principalOf(request), request.query);
      reply.header('X-Total-Count', String(page.totalCount));
      return listOrNoContent(reply, page.items);
    },
  );

  app.get(
    '/audit/verify',
    {
      schema: {
        tags: ['Audit'],
        operationId: 'verifyAuditLog',
        summary: 'Check that the audit log is intact',
        description:
          'Recomputes the hash chain from the first entry. Intact: `{"ok":true,"entries":n}`. Otherwise ' +
          '`{"ok":false,"broken_at":{…},"reason":"…"}` naming the first entry that was changed, or that ' +
          'follows a deleted one. A head published outside the database (the anchor file beside it, ' +
          'written each minute and at each shift close, or `seq` and `hash` given here from a printed Z ' +
          'report) must still be in the chain: otherwise the newest entries were deleted and an older ' +
          'head put back.',
        querystring: AuditVerifyQuery,
        response: { 200: AuditVerifyReply, ...errors(400, 401, 403) },
      },
    },
    (request) => {
      const { seq, hash } = request.query;
      if ((seq === undefined) !== (hash === undefined))
        throw new BadRequestError('Send seq and hash together');
      const printed = seq !== undefined && hash !== undefined ? { seq, hash } : undefined;
      return service.verifyAudit(ctx, principalOf(request), printed);
    },
  );

  app.post(
    '/audit/breaks/:id/acknowledge',
    {
      schema: {
        tags: ['Audit'],
        operationId: 'acknowledgeAuditBreak',
        summary: 'Acknowledge a break the audit chain recorded',
        description:
          'When an audited action finds that the chain no longer ends where its signed head says (its ' +
          'newest entries deleted, the head removed or changed), it first appends an ' +
          '`audit.chain_broken` entry, and `GET /audit/verify` fails on it until an administrator ' +
          'acknowledges it here with a note. Recorded as `audit.break_acknowledged`. 204; an entry ' +
          'that records no break, or one already acknowledged: 400.',
        params: IdParams,
        body: AcknowledgeBreakBody,
        response: { 204: NoContent, ...errors(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.acknowledgeBreak(ctx, principalOf(request), request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );
};
