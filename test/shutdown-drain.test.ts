import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db/database';
import { closeGracefully } from '../src/core/shutdown';

/** Sends a request and hangs up as soon as it is on the wire, as a tablet losing Wi-Fi would. */
function sendAndHangUp(port: number, path: string): void {
  const outgoing = request({ host: '127.0.0.1', port, path, method: 'POST' });
  outgoing.on('error', () => {});
  outgoing.end(() => setImmediate(() => outgoing.destroy()));
}

test('the database stays open until a handler whose client hung up has finished', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = Fastify();
  closeGracefully(app, database);
  let releaseHandler: () => void = () => {};
  const handlerGate = new Promise<void>((resolve) => {
    releaseHandler = resolve;
  });
  let handlerStarted = false;
  let handlerOutcome: string | undefined;
  app.post('/slow-write', async () => {
    handlerStarted = true;
    await handlerGate;
    try {
      await sql`select 1 as one`.execute(database.db);
      handlerOutcome = 'queried';
    } catch (error) {
      handlerOutcome = `failed: ${(error as Error).message}`;
    }
    return { ok: true };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });

  sendAndHangUp((app.server.address() as AddressInfo).port, '/slow-write');
  while (!handlerStarted) await sleep(5);
  await sleep(50);
  const closed = app.close();
  await sleep(50);
  assert.equal(handlerOutcome, undefined, 'the handler is still waiting');
  releaseHandler();
  await closed;

  assert.equal(handlerOutcome, 'queried');
  await assert.rejects(sql`select 1`.execute(database.db), 'closed once the handler was done');
});
