import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
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

test('a client that hangs up halfway through its body does not hold the shutdown', async () => {
  const database = openDatabase('sqlite::memory:');
  const app = Fastify();
  closeGracefully(app, database);
  app.post('/orders', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });

  const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(
    'POST /orders HTTP/1.1\r\nHost: pos\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  );
  await sleep(50);
  socket.destroy();
  await sleep(50);

  const closed = app.close().then(() => 'closed');
  const stuck = sleep(5000, undefined, { ref: false }).then(() => 'still open after 5 s');
  assert.equal(await Promise.race([closed, stuck]), 'closed');
});
