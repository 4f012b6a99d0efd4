import assert from 'node:assert/strict';
import { it } from 'node:test';
import bolt11 from 'bolt11';
import { describeEachDatabase } from './helpers/app';
import { buildWalletTestApp, unlockedAdmin } from './helpers/wallet-factories';
import { REGTEST } from './phoenixd-sim/invoices';
import { FAILURE_REASONS, lightningFeeMsat } from './phoenixd-sim/sim-node';

const ADDRESS = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';

describeEachDatabase('wallet node routes', (target) => {
  async function setUp(t: Parameters<typeof buildWalletTestApp>[0], options = {}) {
    const testApp = await buildWalletTestApp(t, target, options);
    const { walletCookies } = await unlockedAdmin(testApp.app, testApp.db);
    const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      testApp.app.inject({
        method,
        url,
        headers: {
          cookie: walletCookies,
          ...(payload !== undefined && { 'content-type': 'application/json' }),
        },
        ...(payload !== undefined && { payload: JSON.stringify(payload) }),
      });
    return { ...testApp, call };
  }

  it('answers node information and balance', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 321_000 } });
    const info = await call('GET', '/wallet/getinfo');
    assert.equal(info.statusCode, 200);
    assert.equal(info.json().nodeId, simulator.node.nodeId);
    assert.equal(info.json().chain, 'regtest');
    assert.deepEqual(Object.keys(info.json().channels[0]).sort(), [
      'balanceSat',
      'capacitySat',
      'channelId',
      'fundingTxId',
      'inboundLiquiditySat',
      'state',
    ]);
    const balance = await call('GET', '/wallet/getbalance');
    assert.deepEqual(balance.json(), { balanceSat: 321_000, feeCreditSat: 0 });
  });

  it('creates an invoice the node signed', async (t) => {
    const { call, simulator } = await setUp(t);
    const response = await call('POST', '/wallet/createinvoice', {
      description: 'Table 7',
      amountSat: 2500,
      externalId: 'order-7',
      expirySeconds: 900,
    });
    assert.equal(response.statusCode, 200, response.body);
    const invoice = response.json();
    assert.deepEqual(Object.keys(invoice).sort(), ['amountSat', 'paymentHash', 'serialized']);
    const decoded = bolt11.decode(invoice.serialized, REGTEST);
    assert.equal(decoded.satoshis, 2500);
    assert.equal(decoded.tagsObject.payment_hash, invoice.paymentHash);
    assert.equal(simulator.node.incoming.get(invoice.paymentHash)?.externalId, 'order-7');
  });

  it('refuses an invoice request that fails validation, without reaching the node', async (t) => {
    const { call, simulator } = await setUp(t);
    const response = await call('POST', '/wallet/createinvoice', { description: 'x', amountSat: '10' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().message, 'Validation failed');
    assert.equal(simulator.node.incoming.size, 0);
  });

  it('pays an invoice', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 100_000 } });
    const invoice = simulator.node.createInvoice({
      amountSat: 5000,
      description: 'Supplier',
      expirySeconds: null,
      externalId: null,
    });
    const response = await call('POST', '/wallet/payinvoice', { invoice: invoice.serialized });
    assert.equal(response.statusCode, 200, response.body);
    const sent = response.json();
    assert.equal(sent.recipientAmountSat, 5000);
    assert.equal(sent.routingFeeSat, Math.floor(lightningFeeMsat(5000) / 1000));
    assert.equal(sent.paymentHash, invoice.paymentHash);
    assert.match(sent.paymentPreimage, /^[0-9a-f]{64}$/);
    assert.equal(simulator.node.balanceSat, 100_000 - 5000 - sent.routingFeeSat);
  });

  it('answers PaymentFailed reasons as 400 "Payment failed: <reason>"', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 10_000 } });
    const big = simulator.node.createInvoice({
      amountSat: 50_000,
      description: 'x',
      expirySeconds: null,
      externalId: null,
    });
    const poor = await call('POST', '/wallet/payinvoice', { invoice: big.serialized });
    assert.equal(poor.statusCode, 400);
    assert.deepEqual(poor.json(), { message: `Payment failed: ${FAILURE_REASONS.insufficientFunds}` });

    const small = simulator.node.createInvoice({
      amountSat: 100,
      description: 'x',
      expirySeconds: null,
      externalId: null,
    });
    assert.equal((await call('POST', '/wallet/payinvoice', { invoice: small.serialized })).statusCode, 200);
    const twice = await call('POST', '/wallet/payinvoice', { invoice: small.serialized });
    assert.deepEqual(twice.json(), { message: `Payment failed: ${FAILURE_REASONS.alreadyPaid}` });

    simulator.node.failNextPayment('route not found');
    const other = simulator.node.createInvoice({
      amountSat: 100,
      description: 'y',
      expirySeconds: null,
      externalId: null,
    });
    const noRoute = await call('POST', '/wallet/payinvoice', { invoice: other.serialized });
    assert.deepEqual(noRoute.json(), { message: 'Payment failed: route not found' });
  });

  it("passes on the node's refusal of an unreadable invoice as 400", async (t) => {
    const { call } = await setUp(t);
    const response = await call('POST', '/wallet/payinvoice', { invoice: 'lnbc1notaninvoice' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), {
      message: "Request parameter invoice couldn't be parsed/converted to bolt11invoice",
    });
  });

  it('pays an offer', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 50_000 } });
    const response = await call('POST', '/wallet/payoffer', {
      offer: 'lno1qgsqvgnwgcg35z6ee2h3yczraddm72xrfua9uve2rlrm9deu7xyfzrc',
      amountSat: 1200,
      message: 'Thanks',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json().recipientAmountSat, 1200);
    assert.equal(simulator.node.outgoing.length, 1);
  });

  it('pays on chain, with the fees of the transaction the node recorded', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 500_000 } });
    const response = await call('POST', '/wallet/payonchain', {
      amountSat: 40_000,
      address: ADDRESS,
      feerateSatByte: 4,
    });
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json();
    const record = simulator.node.outgoing.find((payment) => payment.txId === result.txId);
    assert.ok(record);
    assert.deepEqual(result, { txId: record.txId, amountSat: 40_000, feesSat: record.fees / 1000 });
    assert.ok(result.feesSat > 0);
  });

  it("answers a refused on-chain payment as 400 with the node's text", async (t) => {
    const { call } = await setUp(t, { simulator: { balanceSat: 0 } });
    const response = await call('POST', '/wallet/payonchain', {
      amountSat: 40_000,
      address: ADDRESS,
      feerateSatByte: 4,
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { message: 'Payment failed: no channel available' });
  });

  it('bumps the fee with a bare JSON number as the body', async (t) => {
    const { call, simulator } = await setUp(t, { simulator: { balanceSat: 500_000 } });
    await call('POST', '/wallet/payonchain', { amountSat: 40_000, address: ADDRESS, feerateSatByte: 2 });
    const response = await call('POST', '/wallet/bumpfee', 12);
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json();
    const record = simulator.node.outgoing.find((payment) => payment.txId === result.txId);
    assert.equal(record?.subType, 'splice_cpfp');
    assert.deepEqual(result, {
      txId: result.txId,
      newFeerateSatByte: 12,
      additionalFeesSat: (record?.fees ?? 0) / 1000,
    });

    const asString = await call('POST', '/wallet/bumpfee', '12');
    assert.equal(asString.statusCode, 400);
    simulator.node.confirmOnChain();
    const recorded = simulator.node.outgoing.length;
    const confirmed = await call('POST', '/wallet/bumpfee', 20);
    assert.deepEqual(confirmed.json(), {
      message: 'Payment failed: either the tx is already confirmed or has a higher feerate',
    });
    assert.equal(simulator.node.outgoing.length, recorded, 'a refused bump records no transaction');
  });

  it('answers 503 while the node is down, and recovers with it', async (t) => {
    const { call, simulator } = await setUp(t);
    simulator.setMode({ kind: 'down' });
    const down = await call('GET', '/wallet/getbalance');
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { message: 'Lightning node is unavailable' });
    simulator.setMode({ kind: 'up' });
    assert.equal((await call('GET', '/wallet/getbalance')).statusCode, 200);
  });

  it('answers 503 when a read times out but 504 when a payment does, and stays healthy', async (t) => {
    const { app, call, simulator } = await setUp(t, {
      env: { PHOENIXD_TIMEOUT_MS: '150', PHOENIXD_PAYMENT_TIMEOUT_MS: '150' },
    });
    simulator.setMode({ kind: 'slow', delayMs: 60_000 });
    const [balance, invoice] = await Promise.all([
      call('GET', '/wallet/getbalance'),
      call('POST', '/wallet/payinvoice', { invoice: 'lnbcrt1' }),
    ]);
    assert.equal(balance.statusCode, 503);
    assert.deepEqual(balance.json(), { message: 'Lightning node is unavailable' });
    assert.equal(invoice.statusCode, 504);
    assert.deepEqual(invoice.json(), { message: 'Payment outcome unknown: check outgoing payments' });
    assert.equal((await app.inject({ url: '/' })).statusCode, 200);
  });

  it('answers 503 when the password is wrong, since that is our configuration', async (t) => {
    const { call } = await setUp(t, { env: { PHOENIXD_PASSWORD: 'not-the-password' } });
    const response = await call('GET', '/wallet/getinfo');
    assert.equal(response.statusCode, 503);
  });
});
