import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../src/core/db/database';
import { closeGracefully } from '../src/core/shutdown';

/** Sends a request and hangs up as soon as it is on the wire, as a tablet losing Wi-Fi would. */
function sendAndHangUp(port: number, path: string): void {
  const outgoing = request({ host: '127.0.0.1', port, path, method: 'POST' });
  outgoing.on('error', () => {});
  outgoing.end(() => setImmediate(() => outgoing.destroy()));
}

/** Resolves once the server's side of a connection is closed, whatever the reason (an error included). */
const whenClosed = (socket: Socket): Promise<void> =>
  socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once('close', () => resolve()));

/**
 * Resolves once the onClose hooks registered from now on have started: an async hook runs up to its
 * first await on the call, so by then closeGracefully's has either closed the database or begun to
 * wait for the running handlers.
 */
function whenOnCloseHooksStarted(app: FastifyInstance): Promise<void> {
  let started: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const addHook = app.addHook.bind(app) as (name: string, hook: (...args: unknown[]) => unknown) => unknown;
  (app as { addHook: typeof addHook }).addHook = (name, hook) =>
    addHook(
      name,
      name === 'onClose'
        ? function (this: unknown, ...args: unknown[]) {
            const result = hook.apply(this, args);
            started();
            return result;
          }
        : hook,
    );
  return promise;
}

test('the database stays open until a handler whose client hung up has finished', async () => {
  const database = openDatabase('sqlite::memory:');
  let databaseClosed = false;
  const app = Fastify();
  const closeHookStarted = whenOnCloseHooksStarted(app);
  closeGracefully(app, {
    ...database,
    close: () => {
      databaseClosed = true;
      return database.close();
    },
  });
  let releaseHandler: () => void = () => {};
  const handlerGate = new Promise<void>((resolve) => {
    releaseHandler = resolve;
  });
  let handlerStarted: (socketClosed: Promise<unknown>) => void = () => {};
  const started = new Promise<Promise<unknown>>((resolve) => {
    handlerStarted = resolve;
  });
  let handlerOutcome: string | undefined;
  app.post('/slow-write', async (request) => {
    handlerStarted(whenClosed(request.raw.socket));
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
  const clientGone = await started;
  await clientGone;
  const closed = app.close();
  await closeHookStarted;
  assert.equal(databaseClosed, false, 'the database waits for the handler');
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
  let requestArrived: (socket: Socket) => void = () => {};
  const arrived = new Promise<Socket>((resolve) => {
    requestArrived = resolve;
  });
  app.addHook('onRequest', async (request) => requestArrived(request.raw.socket));
  await app.listen({ port: 0, host: '127.0.0.1' });

  const socket = connect((app.server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  socket.write(
    'POST /orders HTTP/1.1\r\nHost: pos\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  );
  const serverSide = await arrived;
  const serverSideClosed = whenClosed(serverSide);
  socket.destroy();
  await serverSideClosed;

  const closed = app.close().then(() => 'closed');
  const stuck = sleep(5000, undefined, { ref: false }).then(() => 'still open after 5 s');
  assert.equal(await Promise.race([closed, stuck]), 'closed');
});
