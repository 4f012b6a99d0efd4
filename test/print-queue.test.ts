import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildApp } from '../src/app';
import { escposOf } from '../src/printing/escpos';
import {
  FINISHED_JOB_RETENTION_MS,
  PRINT_JOBS,
  PRUNE_PRINT_JOBS,
  retryDelayMs,
} from '../src/printing/print-queue';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { databaseDigest } from './helpers/db-digest';
import { FakePrinter, switchedOffPort } from './helpers/fake-printer';
import type { Caller } from './helpers/orders-factories';

async function addReceiptPrinter(admin: Caller, port: number, width = 32): Promise<string> {
  const created = await admin('POST', '/printers', {
    name: 'Till',
    host: '127.0.0.1',
    port,
    role: 'receipt',
    width,
  });
  assert.equal(created.statusCode, 201, created.body);
  return created.json().id;
}

async function printBill(call: Caller, ticketId: string): Promise<string> {
  const queued = await call('POST', `/tickets/${ticketId}/print`);
  assert.equal(queued.statusCode, 202, queued.body);
  assert.equal(queued.json().message, 'Receipt queued for printing');
  return queued.json().id;
}

describeEachDatabase('print queue', (target) => {
  it('sends the exact ESC/POS bytes of a receipt to the printer over TCP', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { call, admin, orderId } = await billableOrder(app, db);
    const printerId = await addReceiptPrinter(admin, printer.port);
    const ticketId = await createBill(call, orderId, {});
    const jobId = await printBill(call, ticketId);
    const pending = await db.selectFrom('print_jobs').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [
        pending.id,
        pending.printer_id,
        pending.kind,
        pending.ticket_id,
        pending.state,
        Number(pending.attempts),
      ],
      [jobId, printerId, 'receipt', ticketId, 'pending', 0],
    );
    assert.deepEqual(printer.jobs, [], 'nothing is sent by the request itself');

    await app.jobs.run(PRINT_JOBS);
    const expected = (await call('GET', `/tickets/${ticketId}/receipt?width=32&format=escpos`)).rawPayload;
    assert.deepEqual(printer.jobs, [expected]);
    const jobs = await admin('GET', `/printers/${printerId}/jobs`);
    assert.equal(jobs.statusCode, 200);
    assert.equal(jobs.headers['x-total-count'], '1');
    assert.deepEqual(jobs.json(), [
      {
        id: jobId,
        printer_id: printerId,
        kind: 'receipt',
        ticket_id: ticketId,
        order_id: null,
        state: 'printed',
        attempts: 1,
        size: expected.length,
        next_attempt_at: null,
        last_error: null,
        created_at: '2026-11-22T18:00:00.000Z',
        printed_at: '2026-11-22T18:00:00.000Z',
      },
    ]);
    await app.jobs.run(PRINT_JOBS);
    assert.equal(printer.jobs.length, 1, 'a printed job is never sent again');
  });

  it('marks a receipt printed again for the bill as it stands as a reprint, and only then', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { call, admin, orderId } = await billableOrder(app, db);
    await addReceiptPrinter(admin, printer.port);
    const ticketId = await createBill(call, orderId, {});
    /** The receipt as previewed, with the reprint mark above the first rule when `reprint`. */
    const paper = async (reprint: boolean) => {
      const lines = (await call('GET', `/tickets/${ticketId}/receipt?width=32`)).body.trimEnd().split('\n');
      const rule = lines.indexOf('-'.repeat(32));
      const mark = reprint ? ['      *** REIMPRESIÓN ***'] : [];
      return Buffer.from(escposOf([...lines.slice(0, rule), ...mark, ...lines.slice(rule)], 32));
    };
    await printBill(call, ticketId);
    clock.advance(1);
    await printBill(call, ticketId);
    await app.jobs.run(PRINT_JOBS);
    assert.deepEqual(
      printer.jobs,
      [await paper(false), await paper(true)],
      'the guest check, then its reprint',
    );
    assert.ok(
      printer.jobs[1]?.includes(Buffer.from('REIMPRESI\x1bt\x02\xe0N', 'latin1')),
      'the Ó in a code page that holds it (850), not a question mark',
    );

    clock.advance(1000);
    const paid = await call('POST', `/tickets/${ticketId}/payments`, { method: 'cash', amount: 60 });
    assert.equal(paid.statusCode, 201, paid.body);
    await printBill(call, ticketId);
    clock.advance(1);
    await printBill(call, ticketId);
    await app.jobs.run(PRINT_JOBS);
    assert.deepEqual(
      printer.jobs.slice(2),
      [await paper(false), await paper(true)],
      'the paid receipt is no reprint of the guest check; printed again, it is',
    );
    const english = await admin('PUT', '/settings', { locale: 'en-US' });
    assert.equal(english.statusCode, 200, english.body);
    await printBill(call, ticketId);
    await app.jobs.run(PRINT_JOBS);
    assert.ok(printer.jobs[4]?.includes(Buffer.from(' *** REPRINT ***\n')), 'REPRINT in English');
  });

  it('keeps the job of a printer that is off and prints it, in order, when it is back', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const port = await switchedOffPort();
    const { call, admin, orderId } = await billableOrder(app, db, [1000, 2000]);
    const printerId = await addReceiptPrinter(admin, port);
    const first = await createBill(call, orderId, { amount: 10 });
    const second = await createBill(call, orderId, {});
    const firstJob = await printBill(call, first);
    clock.advance(1);
    const secondJob = await printBill(call, second);

    await app.jobs.run(PRINT_JOBS);
    const failed = await db
      .selectFrom('print_jobs')
      .selectAll()
      .where('id', '=', firstJob)
      .executeTakeFirstOrThrow();
    assert.deepEqual([failed.state, Number(failed.attempts)], ['pending', 1]);
    assert.match(String(failed.last_error), /ECONNREFUSED/);
    assert.equal(Number(failed.next_attempt_at), clock.now() + 2000);
    const waiting = await db
      .selectFrom('print_jobs')
      .selectAll()
      .where('id', '=', secondJob)
      .executeTakeFirstOrThrow();
    assert.equal(Number(waiting.attempts), 0, 'the rest of the queue waits behind the first job');
    const [listed] = (await admin('GET', `/printers/${printerId}/jobs?limit=1&offset=1`)).json();
    assert.deepEqual(
      [listed.id, listed.state, listed.attempts, listed.next_attempt_at],
      [firstJob, 'pending', 1, new Date(clock.now() + 2000).toISOString()],
    );

    const printer = await FakePrinter.start(port);
    t.after(() => printer.stop());
    await app.jobs.run(PRINT_JOBS);
    assert.deepEqual(printer.jobs, [], 'not before the retry is due');
    clock.advance(2000);
    await app.jobs.run(PRINT_JOBS);
    const receiptOf = async (id: string) =>
      (await call('GET', `/tickets/${id}/receipt?width=32&format=escpos`)).rawPayload;
    assert.deepEqual(printer.jobs, [await receiptOf(first), await receiptOf(second)]);
    const stored = await db
      .selectFrom('print_jobs')
      .select(['state', 'attempts'])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      stored.map((job) => [job.state, Number(job.attempts)]),
      [
        ['printed', 2],
        ['printed', 1],
      ],
    );
  });

  it('backs off between attempts and never fails the request that asked to print', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    await addReceiptPrinter(admin, await switchedOffPort());
    const ticketId = await createBill(call, orderId, {});
    const jobId = await printBill(call, ticketId);
    const delays: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await app.jobs.run(PRINT_JOBS);
      const job = await db
        .selectFrom('print_jobs')
        .selectAll()
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow();
      delays.push(Number(job.next_attempt_at) - clock.now());
      clock.set(Number(job.next_attempt_at));
    }
    assert.deepEqual(delays, [2000, 4000, 8000, 16000]);
    assert.equal(retryDelayMs(30), 5 * 60_000, 'at most every 5 minutes');
    assert.equal((await call('POST', `/tickets/${ticketId}/print`)).statusCode, 202, 'still accepted');
  });

  it('sends each job once when several instances run the queue at the same time', async (t) => {
    const { app, db, clock, config, database } = await buildTestApp(t, target);
    const other = await buildApp(config, { database, clock, startJobs: false });
    t.after(() => other.close());
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { call, admin, orderId } = await billableOrder(app, db, [100, 200, 300, 400, 500]);
    await addReceiptPrinter(admin, printer.port);
    const tickets: string[] = [];
    for (const amount of [1, 2, 3, 4, 5]) {
      tickets.push(await createBill(call, orderId, { amount }));
      await printBill(call, tickets.at(-1) as string);
      clock.advance(1);
    }
    await Promise.all([app.jobs.run(PRINT_JOBS), other.jobs.run(PRINT_JOBS), app.jobs.run(PRINT_JOBS)]);
    await Promise.all([app.jobs.run(PRINT_JOBS), other.jobs.run(PRINT_JOBS)]);
    const expected = await Promise.all(
      tickets.map(
        async (id) => (await call('GET', `/tickets/${id}/receipt?width=32&format=escpos`)).rawPayload,
      ),
    );
    assert.deepEqual(printer.jobs, expected);
  });

  it('refuses to print without a receipt printer or for an unknown bill, changing nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    await admin('POST', '/printers', { name: 'Grill', host: '127.0.0.1', role: 'kitchen' });
    const before = await databaseDigest(db);
    const none = await call('POST', `/tickets/${ticketId}/print`);
    assert.deepEqual([none.statusCode, none.json()], [400, { message: 'No receipt printer is set up' }]);
    await addReceiptPrinter(admin, 9100);
    const afterPrinter = await databaseDigest(db);
    assert.notEqual(afterPrinter, before);
    const unknown = await call('POST', '/tickets/3f1c2a7e-8b4d-4c1a-9e2f-5d6b7a8c9d0e/print');
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(await databaseDigest(db), afterPrinter);
  });

  it('prints once for a retried request with the same Idempotency-Key, and drops the queue with its printer', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    const { call, admin, orderId } = await billableOrder(app, db);
    const printerId = await addReceiptPrinter(admin, await switchedOffPort());
    const ticketId = await createBill(call, orderId, {});
    const headers = { 'idempotency-key': 'print-1' };
    const first = await call('POST', `/tickets/${ticketId}/print`, undefined, headers);
    const again = await call('POST', `/tickets/${ticketId}/print`, undefined, headers);
    assert.deepEqual([first.statusCode, again.statusCode], [202, 202]);
    assert.equal(again.json().id, first.json().id);
    assert.equal((await db.selectFrom('print_jobs').selectAll().execute()).length, 1);
    assert.equal((await admin('DELETE', `/printers/${printerId}`)).statusCode, 200);
    assert.deepEqual(await db.selectFrom('print_jobs').selectAll().execute(), []);
  });

  it('forgets printed jobs after a month and keeps the ones still waiting', async (t) => {
    const { app, db, clock } = await buildTestApp(t, target);
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    const { call, admin, orderId } = await billableOrder(app, db, [1000, 2000]);
    const printerId = await addReceiptPrinter(admin, printer.port);
    const printed = await printBill(call, await createBill(call, orderId, { amount: 10 }));
    await app.jobs.run(PRINT_JOBS);
    await admin('PUT', `/printers/${printerId}`, {
      name: 'Till',
      host: '127.0.0.1',
      port: await switchedOffPort(),
      role: 'receipt',
    });
    const waiting = await printBill(call, await createBill(call, orderId, {}));
    await app.jobs.run(PRINT_JOBS);
    clock.advance(FINISHED_JOB_RETENTION_MS);
    await app.jobs.run(PRUNE_PRINT_JOBS);
    const ids = async () =>
      (await db.selectFrom('print_jobs').select('id').orderBy('created_at').execute()).map((job) => job.id);
    assert.deepEqual(await ids(), [printed, waiting], 'not before a month has passed');
    clock.advance(1);
    await app.jobs.run(PRUNE_PRINT_JOBS);
    assert.deepEqual(await ids(), [waiting]);
  });
});
