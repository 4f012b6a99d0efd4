import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf } from '../core/auth-guard';
import { listOrNoContent } from '../core/replies';
import type { OrderPage } from './order-queries.service';
import { orderViewFor } from './order-views';

/**
 * Sends one page of orders (204 when empty), as the caller may read them, with the count of all
 * matches in X-Total-Count.
 */
export function sendOrderPage(
  request: FastifyRequest,
  // biome-ignore lint/suspicious/noExplicitAny: accepts the reply of any typed route.
  reply: FastifyReply<any, any, any, any, any, any, any, any>,
  page: OrderPage,
) {
  reply.header('X-Total-Count', String(page.totalCount));
  const principal = principalOf(request);
  return listOrNoContent(
    reply,
    page.items.map((view) => orderViewFor(principal, view)),
  );
}
