import type { FastifyReply } from 'fastify';

/** The spec answers an empty list with 204 (and HTTP allows no body on a 204). */
// biome-ignore lint/suspicious/noExplicitAny: accepts the reply of any typed route.
export function listOrNoContent<T>(reply: FastifyReply<any, any, any, any, any, any, any, any>, items: T[]) {
  return items.length === 0 ? reply.code(204).send() : items;
}
