import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { buildWalletTestApp, insertStoredIncomingPayment, unlockedAdmin } from './helpers/wallet-factories';

const randomHash = () => randomBytes(32).toString('hex');
const ADDRESS = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';

describeEachDatabase('wallet payment history', (target) => {
  async function setUp(t: Parameters<typeof buildWalletTestApp>[0]) {
    const testApp = await buildWalletTestApp(t, target, { simulator: { balanceSat: 1_000_000 } });
    const { walletCookies } = await unlockedAdmin(testApp.app, testApp.db);
    const get = (url: string) => testApp.app.inject({ url, headers: { cookie: walletCookies } });
    /** A guest pays an invoice of ours (no webhook is configured: the listing learns of it). */
    const receive = async (amountSat: number, externalId: string | null = null) => {
      const invoice = testApp.simulator.node.createInvoice({
        amountSat,
        description: `Bill ${amountSat}`,
        expirySeconds: null,
        externalId,
      });
      await testApp.simulator.receivePayment(invoice.serialized);
      return invoice.paymentHash;
    };
    return { ...testApp, get, receive };
  }

  it('answers 204 with no body when there is nothing to list', async (t) => {
    const { get } = await setUp(t);
    for (const url of ['/wallet/payments/incoming', '/wallet/payments/outgoing']) {
      const response = await get(url);
      assert.equal(response.statusCode, 204, url);
      assert.equal(response.body, '');
    }
  });

  it('lists received payments newest first in the spec fields, and records them', async (t) => {
    const { get, receive, db, simulator } = await setUp(t);
    const first = await receive(1000, 'order-1');
    const second = await receive(2000, 'order-2');
    simulator.node.createInvoice({
      amountSat: 5,
      description: 'unpaid',
      expirySeconds: null,
      externalId: null,
    });

    const response = await get('/wallet/payments/incoming');
    assert.equal(response.statusCode, 200);
    const payments = response.json();
    assert.deepEqual(
      payments.map((p: { paymentHash: string }) => p.paymentHash).sort(),
      [first, second].sort(),
    );
    // The default list goes by completion, as phoenixd's does; payments completed in one millisecond by hash.
    const [newer, older] = payments;
    assert.ok(
      newer.completedAt > older.completedAt ||
        (newer.completedAt === older.completedAt && newer.paymentHash < older.paymentHash),
    );
    const one = payments.find((p: { paymentHash: string }) => p.paymentHash === first);
    assert.deepEqual(Object.keys(one).sort(), [
      'amountSat',
      'completedAt',
      'createdAt',
      'description',
      'externalId',
      'paymentHash',
      'receivedSat',
      'status',
    ]);
    assert.equal(one.status, 'RECEIVED');
    assert.equal(one.externalId, 'order-1');
    assert.equal(one.description, 'Bill 1000');

    const stored = await db.selectFrom('incoming_payments').select('payment_hash').execute();
    assert.deepEqual(stored.map((row) => row.payment_hash).sort(), [first, second].sort());
  });

  it('filters by externalId, pages with limit and offset, and lists everything with all', async (t) => {
    const { get, receive, simulator } = await setUp(t);
    const hashes = [];
    for (const amount of [100, 200, 300]) hashes.push(await receive(amount, 'order-x'));
    await receive(400, 'order-y');
    simulator.node.createInvoice({
      amountSat: 5,
      description: 'unpaid',
      expirySeconds: null,
      externalId: 'order-x',
    });

    const filtered = (await get('/wallet/payments/incoming?externalId=order-x')).json();
    assert.equal(filtered.length, 3);
    const firstPage = (await get('/wallet/payments/incoming?limit=2&offset=0')).json();
    const secondPage = (await get('/wallet/payments/incoming?limit=2&offset=2')).json();
    assert.equal(firstPage.length, 2);
    assert.equal(secondPage.length, 2);
    const paged = [...firstPage, ...secondPage].map((p: { paymentHash: string }) => p.paymentHash);
    assert.equal(new Set(paged).size, 4);

    const everything = (await get('/wallet/payments/incoming?all=true&limit=1')).json();
    assert.equal(everything.length, 5);
    assert.equal(everything.filter((p: { status: string }) => p.status === 'PENDING').length, 1);
    assert.equal((await get('/wallet/payments/incoming?limit=0')).statusCode, 400);
  });

  it('lists and shows a stored payment even when its stored values are impossible', async (t) => {
    const { get, db } = await setUp(t);
    const odd = randomHash();
    await insertStoredIncomingPayment(db, { payment_hash: odd, created_at: -5, completed_at: -5 });
    const listed = await get('/wallet/payments/incoming');
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      listed.json().map((p: { paymentHash: string; completedAt: number }) => [p.paymentHash, p.completedAt]),
      [[odd, -5]],
    );
    const single = await get(`/wallet/payments/incoming/${odd}`);
    assert.equal(single.statusCode, 200, single.body);
    assert.equal(single.json().createdAt, -5);
  });

  it('keeps history the node no longer has, after a node swap', async (t) => {
    const { get, receive, db } = await setUp(t);
    const old = randomHash();
    await insertStoredIncomingPayment(db, {
      payment_hash: old,
      amount_sat: 777,
      received_sat: 777,
      external_id: 'old-order',
    });
    const fresh = await receive(1500);

    const listed = (await get('/wallet/payments/incoming')).json();
    assert.deepEqual(
      listed.map((p: { paymentHash: string }) => p.paymentHash),
      [fresh, old],
    );
    const single = await get(`/wallet/payments/incoming/${old}`);
    assert.equal(single.statusCode, 200);
    assert.equal(single.json().amountSat, 777);
    assert.equal(single.json().status, 'RECEIVED');
    assert.equal((await get('/wallet/payments/incoming?externalId=old-order')).json().length, 1);
  });

  it('looks up one incoming payment, 404 when unknown and 400 when malformed', async (t) => {
    const { get, receive } = await setUp(t);
    const hash = await receive(900);
    const found = await get(`/wallet/payments/incoming/${hash}`);
    assert.equal(found.statusCode, 200);
    assert.equal(found.json().receivedSat, 900);

    const unknown = await get(`/wallet/payments/incoming/${randomHash()}`);
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body, 'Resource not found');
    const malformed = await get('/wallet/payments/incoming/not-a-hash');
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.body, 'Missing or malformed ID');
  });

  it('lists and looks up outgoing payments by id and by hash', async (t) => {
    const { app, get, simulator, db } = await setUp(t);
    const { walletCookies } = await unlockedAdmin(app, db);
    const invoice = simulator.node.createInvoice({
      amountSat: 3000,
      description: 'Supplier',
      expirySeconds: null,
      externalId: null,
    });
    const paid = await app.inject({
      method: 'POST',
      url: '/wallet/payinvoice',
      headers: { cookie: walletCookies },
      payload: { invoice: invoice.serialized },
    });
    const { paymentId, paymentHash, routingFeeSat } = paid.json();
    await app.inject({
      method: 'POST',
      url: '/wallet/payonchain',
      headers: { cookie: walletCookies },
      payload: { amountSat: 10_000, address: ADDRESS, feerateSatByte: 2 },
    });

    const listed = (await get('/wallet/payments/outgoing')).json();
    assert.deepEqual(listed.map((p: { kind: string }) => p.kind).sort(), ['lightning', 'splice_out']);
    const byId = await get(`/wallet/payments/outgoing/${paymentId}`);
    assert.equal(byId.statusCode, 200);
    assert.deepEqual(
      { ...(byId.json() as object), createdAt: 0, completedAt: 0 },
      {
        paymentId,
        kind: 'lightning',
        paymentHash,
        preimage: paid.json().paymentPreimage,
        txId: null,
        invoice: invoice.serialized,
        sentSat: 3000 + routingFeeSat,
        feesSat: routingFeeSat,
        feesMsat: byId.json().feesMsat,
        status: 'SENT',
        createdAt: 0,
        completedAt: 0,
      },
    );
    const byHash = await get(`/wallet/payments/outgoingbyhash/${paymentHash}`);
    assert.equal(byHash.json().paymentId, paymentId);

    assert.equal((await get(`/wallet/payments/outgoing/${crypto.randomUUID()}`)).statusCode, 404);
    assert.equal((await get(`/wallet/payments/outgoingbyhash/${randomHash()}`)).body, 'Resource not found');
    assert.equal((await get('/wallet/payments/outgoing/123')).body, 'Missing or malformed ID');
  });

  it('includes failed outgoing payments only with all=true', async (t) => {
    const { app, db, get, simulator } = await setUp(t);
    const { walletCookies } = await unlockedAdmin(app, db);
    simulator.node.failNextPayment('route not found');
    const invoice = simulator.node.createInvoice({
      amountSat: 10,
      description: 'x',
      expirySeconds: null,
      externalId: null,
    });
    await app.inject({
      method: 'POST',
      url: '/wallet/payinvoice',
      headers: { cookie: walletCookies },
      payload: { invoice: invoice.serialized },
    });
    assert.equal((await get('/wallet/payments/outgoing')).statusCode, 204);
    const all = (await get('/wallet/payments/outgoing?all=true')).json();
    assert.equal(all.length, 1);
    assert.equal(all[0].status, 'FAILED');
  });
});
