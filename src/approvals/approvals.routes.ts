import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { errors } from '../core/schemas';
import { ApprovalBody, ApprovalReply } from './approvals.schemas';
import * as service from './approvals.service';

export const approvalsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/auth/approvals',
    {
      schema: {
        tags: ['Auth'],
        operationId: 'approveAction',
        summary: "A manager's approval, on the signed-in user's tablet",
        description:
          'A manager types their name and PIN on the tablet of the signed-in user (a waiter, a cashier) to ' +
          'let them do, once, what their role does not allow: void a plate (`dishes.void`) or discount a ' +
          "bill (`tickets.discount`). The answer's `approval` goes in the `X-Manager-Approval` header of " +
          'that request, within 2 minutes; it is spent by the request it allows (a second use, another ' +
          "user's, an expired one: 403) and not by one that fails, nor by a caller whose role already " +
          'allows it. Wrong name or PIN: 401 `Invalid credentials`, counted in the same failure limits as ' +
          '`POST /auth/login` (429 with Retry-After); a manager whose role lacks the permission: 403. The ' +
          'void or the bill records who approved it (`voided_approved_by`, `discount_approved_by`).',
        body: ApprovalBody,
        response: { 201: ApprovalReply, ...errors(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const approval = await service.issueApproval(ctx, principalOf(request), request.body, request.ip);
      return reply.code(201).send(approval);
    },
  );
};
