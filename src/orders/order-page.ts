import type { FastifyReply } from 'fastify';
import { listOrNoContent } from '../core/replies';
import type { OrderPage } from './order-queries.service';

/** Sends one page of orders (204 when empty) with the count of all matches in X-Total-Count. */
// biome-ignore lint/suspicious/noExplicitAny: accepts the reply of any typed route.
export function sendOrderPage(reply: FastifyReply<any, any, any, any, any, any, any, any>, page: OrderPage) {
  reply.header('X-Total-Count', String(page.totalCount));
  return listOrNoContent(reply, page.items);
}
