import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDatabase } from './helpers/app';
import { buildWalletTestApp, unlockedAdmin } from './helpers/wallet-factories';

const ADDRESS = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
const ON_CHAIN = { amountSat: 40_000, address: ADDRESS, feerateSatByte: 4 };
const OUTCOME_UNKNOWN = { message: 'Payment outcome unknown: check outgoing payments' };

/** A local port nothing listens on: connections to it are refused before any byte is sent. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeEachDatabase('wallet payments with Idempotency-Key', (target) => {
  async function setUp(t: Parameters<typeof buildWalletTestApp>[0], env: Record<string, string> = {}) {
    const testApp = await buildWalletTestApp(t, target, { simulator: { balanceSat: 500_000 }, env });
    const { walletCookies } = await unlockedAdmin(testApp.app, testApp.db);
    const pay = (url: string, payload: unknown, key?: string) =>
      testApp.app.inject({
        method: 'POST',
        url,
        headers: {
          cookie: walletCookies,
          'content-type': 'application/json',
          ...(key !== undefined && { 'idempotency-key': key }),
        },
        payload: JSON.stringify(payload),
      });
    const sends = (path: string) =>
      testApp.simulator.received.filter((line) => line === `POST ${path}`).length;
    // The simulator logs a request when it reads it; on a loaded machine that can come after the
    // client has given up at 200 ms, so a slow node's count is read once the request has arrived.
    const sendsArrived = async (path: string) => {
      for (let waited = 0; sends(path) === 0 && waited < 5000; waited += 20) await sleep(20);
      return sends(path);
    };
    const storedKeys = () => testApp.db.selectFrom('idempotency_keys').selectAll().execute();
    return { ...testApp, pay, sends, sendsArrived, storedKeys };
  }

  const slowNode = { PHOENIXD_PAYMENT_TIMEOUT_MS: '200' };

  it('answers 504, not 503, when an on-chain payment gets no answer in time', async (t) => {
    const { pay, simulator, sendsArrived } = await setUp(t, slowNode);
    simulator.setMode({ kind: 'slow', delayMs: 60_000 });
    const response = await pay('/wallet/payonchain', ON_CHAIN);
    assert.equal(response.statusCode, 504);
    assert.deepEqual(response.json(), OUTCOME_UNKNOWN);
    assert.equal(await sendsArrived('/sendtoaddress'), 1);
  });

  it('never calls the node again for a key whose payment outcome is unknown', async (t) => {
    const { pay, simulator, sendsArrived, storedKeys } = await setUp(t, slowNode);
    simulator.setMode({ kind: 'slow', delayMs: 60_000 });
    const first = await pay('/wallet/payonchain', ON_CHAIN, 'payout-1');
    assert.equal(first.statusCode, 504);
    simulator.setMode({ kind: 'up' });
    for (let retry = 0; retry < 2; retry += 1) {
      const again = await pay('/wallet/payonchain', ON_CHAIN, 'payout-1');
      assert.equal(again.statusCode, 504);
      assert.deepEqual(again.json(), OUTCOME_UNKNOWN);
    }
    assert.equal(await sendsArrived('/sendtoaddress'), 1);
    const [key] = await storedKeys();
    assert.equal(key?.idempotency_key, 'payout-1');
    assert.equal(key?.response_body, null);
  });

  it('replays a sent payment to a retry with the same key, paying once', async (t) => {
    const { pay, simulator, sends } = await setUp(t);
    const invoice = simulator.node.createInvoice({
      amountSat: 5000,
      description: 'Supplier',
      expirySeconds: null,
      externalId: null,
    });
    const body = { invoice: invoice.serialized };
    const first = await pay('/wallet/payinvoice', body, 'supplier-5000');
    assert.equal(first.statusCode, 200, first.body);
    const balanceAfterFirst = simulator.node.balanceSat;
    const second = await pay('/wallet/payinvoice', body, 'supplier-5000');
    assert.equal(second.statusCode, 200);
    assert.deepEqual(second.json(), first.json());
    assert.equal(sends('/payinvoice'), 1);
    assert.equal(simulator.node.balanceSat, balanceAfterFirst);

    const bump = await pay('/wallet/bumpfee', 9, 'bump-1');
    assert.equal(bump.statusCode, 400, 'nothing to bump before an on-chain payment');
    const onChain = await pay('/wallet/payonchain', ON_CHAIN, 'payout-2');
    assert.equal(onChain.statusCode, 200, onChain.body);
    assert.deepEqual((await pay('/wallet/payonchain', ON_CHAIN, 'payout-2')).json(), onChain.json());
    const bumped = await pay('/wallet/bumpfee', 9, 'bump-1');
    assert.equal(bumped.statusCode, 200, 'the failed bump released its key');
    assert.deepEqual((await pay('/wallet/bumpfee', 9, 'bump-1')).json(), bumped.json());
    assert.equal(sends('/sendtoaddress'), 1);
    assert.equal(sends('/bumpfee'), 2);
  });

  it('lets a retry with the same key try again after the node refused the payment', async (t) => {
    const { pay, simulator, sends, storedKeys } = await setUp(t);
    simulator.node.failNextPayment('route not found');
    const body = { offer: 'lno1qgsqvgnwgcg35z6ee2h3yczraddm72xrfua9uve2rlrm9deu7xyfzrc', amountSat: 1200 };
    const failed = await pay('/wallet/payoffer', body, 'offer-1');
    assert.equal(failed.statusCode, 400);
    assert.deepEqual(failed.json(), { message: 'Payment failed: route not found' });
    assert.deepEqual(await storedKeys(), []);
    const retried = await pay('/wallet/payoffer', body, 'offer-1');
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(sends('/payoffer'), 2);
    assert.equal(simulator.node.outgoing.filter((payment) => payment.isPaid).length, 1);
  });

  it('answers 503 and frees the key when the node refuses the connection', async (t) => {
    const { pay, storedKeys } = await setUp(t, { PHOENIXD_URL: `http://127.0.0.1:${await closedPort()}` });
    const response = await pay('/wallet/payonchain', ON_CHAIN, 'payout-3');
    assert.equal(response.statusCode, 503);
    assert.deepEqual(response.json(), { message: 'Lightning node is unavailable' });
    assert.deepEqual(await storedKeys(), []);
  });

  it('refuses the same key with another payment', async (t) => {
    const { pay, sends } = await setUp(t);
    assert.equal((await pay('/wallet/payonchain', ON_CHAIN, 'payout-4')).statusCode, 200);
    const other = await pay('/wallet/payonchain', { ...ON_CHAIN, amountSat: 41_000 }, 'payout-4');
    assert.equal(other.statusCode, 400);
    assert.deepEqual(other.json(), { message: 'Idempotency-Key was already used with a different request' });
    assert.equal(sends('/sendtoaddress'), 1);
  });
});
