import assert from 'node:assert/strict';
import { it } from 'node:test';
import { PRINT_JOBS } from '../src/printing/print-queue';
import { OUT_OF_PAPER } from '../src/printing/printer-socket';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { loggedInUser } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { FakePrinter, switchedOffPort } from './helpers/fake-printer';
import { type Caller, callerFor } from './helpers/orders-factories';
import { listeningTestApp, openStream } from './helpers/sse-client';

type Built = Awaited<ReturnType<typeof buildTestApp>>;

/** A receipt printer at `port` and a bill whose receipt can be queued for it. */
async function receiptSetUp({ app, db }: Built, port: number) {
  const { call, admin, orderId } = await billableOrder(app, db);
  const created = await admin('POST', '/printers', {
    name: 'Caja',
    host: '127.0.0.1',
    port,
    role: 'receipt',
    width: 32,
  });
  assert.equal(created.statusCode, 201, created.body);
  const ticketId = await createBill(call, orderId, {});
  const print = async () => assert.equal((await call('POST', `/tickets/${ticketId}/print`)).statusCode, 202);
  return { call, admin, printerId: created.json().id as string, print };
}

async function statusOf(call: Caller) {
  const response = await call('GET', '/printers/status');
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}

describeEachDatabase('printer status', (target) => {
  it('lets the kitchen, the till, the floor and the manager read it, and nobody else', async (t) => {
    const built = await buildTestApp(t, target);
    const { app, db } = built;
    const { admin } = await receiptSetUp(built, await switchedOffPort());
    const storeroom = await admin('POST', '/roles', { name: 'storeroom', permissions: ['inventory.read'] });
    assert.equal(storeroom.statusCode, 201, storeroom.body);
    const expected: [string, number][] = [
      ['kitchen', 200],
      ['cashier', 200],
      ['waiter', 200],
      ['manager', 200],
      ['admin', 200],
      ['storeroom', 403],
    ];
    const seen: [string, number][] = [];
    for (const [role] of expected) {
      const { cookies } = await loggedInUser(app, db, role);
      seen.push([role, (await callerFor(app, cookies)('GET', '/printers/status')).statusCode]);
    }
    assert.deepEqual(seen, expected);
    assert.equal((await app.inject({ method: 'GET', url: '/printers/status' })).statusCode, 401);
  });

  it('says a printer that is off is failing while its tickets wait, and ok once they print', async (t) => {
    const built = await buildTestApp(t, target);
    const { app, db, clock } = built;
    const port = await switchedOffPort();
    const { call, printerId, print } = await receiptSetUp(built, port);
    const { cookies } = await loggedInUser(app, db, 'kitchen');
    const kitchen = callerFor(app, cookies);
    const ok = {
      id: printerId,
      name: 'Caja',
      role: 'receipt',
      station: null,
      state: 'ok',
      problem: null,
      last_error: null,
    };
    assert.deepEqual(await statusOf(kitchen), [{ ...ok, pending_jobs: 0, since: null }]);
    await print();
    assert.deepEqual(await statusOf(kitchen), [{ ...ok, pending_jobs: 1, since: null }], 'not yet tried');

    const madeAt = new Date(clock.now()).toISOString();
    clock.advance(1000);
    await print();
    await app.jobs.run(PRINT_JOBS);
    const [failing] = await statusOf(kitchen);
    assert.match(failing.last_error, /ECONNREFUSED/);
    assert.deepEqual(
      { ...failing, last_error: 'ECONNREFUSED' },
      {
        ...ok,
        state: 'failing',
        problem: 'unreachable',
        last_error: 'ECONNREFUSED',
        pending_jobs: 2,
        since: madeAt,
      },
    );

    const printer = await FakePrinter.start(port);
    t.after(() => printer.stop());
    clock.advance(2000);
    await app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 2);
    assert.deepEqual(await statusOf(call), [{ ...ok, pending_jobs: 0, since: null }]);
  });

  it('tells a printer out of paper, keeps its job, and prints it once paper is in', async (t) => {
    const built = await buildTestApp(t, target);
    const { app, clock } = built;
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    printer.isOutOfPaper = true;
    const { call, print } = await receiptSetUp(built, printer.port);
    await print();
    await app.jobs.run(PRINT_JOBS);
    assert.deepEqual(printer.jobs, [], 'nothing printed on no paper');
    const [failing] = await statusOf(call);
    assert.deepEqual(
      [failing.state, failing.problem, failing.last_error, failing.pending_jobs],
      ['failing', 'out_of_paper', OUT_OF_PAPER, 1],
    );

    printer.isOutOfPaper = false;
    clock.advance(2000);
    await app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 1);
    const [back] = await statusOf(call);
    assert.deepEqual([back.state, back.problem, back.pending_jobs], ['ok', null, 0]);
  });

  it('says failing when a job waits after a failure, though a job of the same millisecond printed', async (t) => {
    const built = await buildTestApp(t, target);
    const { app } = built;
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { call, print } = await receiptSetUp(built, printer.port);
    // The clock stands still: both jobs are made in the same millisecond, so their order is the ids'.
    for (let tries = 0; tries < 6; tries++) {
      await print();
      await app.jobs.run(PRINT_JOBS);
      printer.isOutOfPaper = true;
      await print();
      await app.jobs.run(PRINT_JOBS);
      const [status] = await statusOf(call);
      assert.deepEqual([status.state, status.problem], ['failing', 'out_of_paper'], `try ${tries + 1}`);
      printer.isOutOfPaper = false;
    }
  });

  it('announces each change of state on the live stream at once, to the roles that may read it', async (t) => {
    const built = await listeningTestApp(t, target);
    const { app, db, clock, base } = built;
    const port = await switchedOffPort();
    const { admin, print } = await receiptSetUp(built, port);
    assert.equal(
      (await admin('POST', '/roles', { name: 'storeroom', permissions: ['inventory.read'] })).statusCode,
      201,
    );
    const storeroom = await loggedInUser(app, db, 'storeroom');
    const refused = await fetch(`${base}/events?topics=printers`, { headers: { cookie: storeroom.cookies } });
    assert.equal(refused.status, 403);
    await refused.body?.cancel();
    const kitchen = await openStream(
      base,
      (await loggedInUser(app, db, 'kitchen')).cookies,
      '/events?topics=printers',
    );
    const byDefault = await openStream(base, (await loggedInUser(app, db, 'waiter')).cookies);
    const notFollowing = await openStream(base, storeroom.cookies);
    const kitchenCaller = callerFor(app, (await loggedInUser(app, db, 'kitchen')).cookies);
    const announced = () =>
      kitchen.events().map((frame) => {
        const { data } = JSON.parse(frame.data as string);
        return [frame.event, data.state, data.problem, data.pending_jobs];
      });

    await print();
    await app.jobs.run(PRINT_JOBS);
    await kitchen.until(() => kitchen.events().length === 1);
    const [failing] = kitchen.events().map((frame) => JSON.parse(frame.data as string).data);
    assert.deepEqual(
      failing,
      (await statusOf(kitchenCaller))[0],
      'the event holds the status as GET shows it',
    );
    // Still off: another failed attempt changes nothing worth announcing.
    clock.advance(2000);
    await app.jobs.run(PRINT_JOBS);

    const printer = await FakePrinter.start(port);
    t.after(() => printer.stop());
    printer.isOutOfPaper = true;
    clock.advance(4000);
    await app.jobs.run(PRINT_JOBS);
    await kitchen.until(() => kitchen.events().length === 2);
    printer.isOutOfPaper = false;
    await print();
    clock.advance(8000);
    await app.jobs.run(PRINT_JOBS);
    await kitchen.until(() => kitchen.events().length === 3);
    assert.equal(printer.jobs.length, 2);
    // Printing on: nothing more to say.
    await print();
    await app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 3);

    await byDefault.until(() => byDefault.events().length === 3);
    assert.deepEqual(announced(), [
      ['printer.status_changed', 'failing', 'unreachable', 1],
      ['printer.status_changed', 'failing', 'out_of_paper', 1],
      // Back as its first waiting job printed, the second still in the queue.
      ['printer.status_changed', 'ok', null, 1],
    ]);
    assert.deepEqual(
      byDefault.events().map((frame) => frame.id),
      kitchen.events().map((frame) => frame.id),
    );
    assert.deepEqual(notFollowing.events(), []);
    for (const stream of [kitchen, byDefault, notFollowing]) await stream.cancel();
  });
});
