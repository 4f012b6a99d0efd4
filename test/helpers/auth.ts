import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/core/db/database';
import { cookieHeader } from './app';
import { insertUser, type UserFixture } from './factories';

/** Logs in through the API and returns the cookie header to send with later requests. */
export async function login(app: FastifyInstance, name: string, pin: string): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/auth/login', payload: { name, pin } });
  assert.equal(response.statusCode, 200, response.body);
  return cookieHeader(response);
}

/** A new user of that role, logged in: `{ user, cookies }`. */
export async function loggedInUser(
  app: FastifyInstance,
  db: Db,
  role = 'admin',
): Promise<{ user: UserFixture; cookies: string }> {
  const user = await insertUser(db, { role });
  return { user, cookies: await login(app, user.name, user.pin) };
}
