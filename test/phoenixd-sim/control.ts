import { HttpAnswer, type Params } from './http';
import type { Answer } from './routes';
import { PaymentRefusedError } from './sim-node';
import type { PhoenixdSimulator, SimMode, WebhookMode } from './simulator';

/**
 * The simulator's own control API, for trying the POS by hand (`npm run phoenixd-sim`). Tests call
 * the simulator's methods directly. POST, form-encoded, same Basic auth as the phoenixd routes.
 *
 *   /sim/receive   invoice, amountSat?, payerNote?,  an outside payer pays our invoice (webhook fires
 *                  liquidityFeeSat?, toFeeCredit?    once); 400 when the node refuses it (expired, under, over 2x)
 *   /sim/webhook   mode=deliver|drop                 what happens to the webhooks of later payments
 *   /sim/liquidity-fee feeSat                        the fee taken from every later payment (0: none)
 *   /sim/balance   balanceSat                        one Normal channel with that balance (0: none)
 *   /sim/offline   offline=true|false                the channel goes Offline(Normal), or back
 *   /sim/fail-next reason                            the next payment fails with that reason
 *   /sim/mode      mode=up|down|slow, delayMs?, durationMs?   down and slow end after durationMs
 *   /sim/confirm                                     the pending on-chain transaction confirms
 */
export async function handleControl(
  simulator: PhoenixdSimulator,
  path: string,
  params: Params,
): Promise<Answer> {
  switch (path) {
    case '/sim/receive': {
      const amountSat = params.optionalLong('amountSat');
      const payerNote = params.optionalString('payerNote');
      const liquidityFeeSat = params.optionalLong('liquidityFeeSat');
      try {
        const { payment, webhooks } = await simulator.receivePayment(params.string('invoice'), {
          ...(amountSat !== null && { amountSat }),
          ...(payerNote !== null && { payerNote }),
          ...(liquidityFeeSat !== null && { liquidityFeeSat }),
          toFeeCredit: params.flag('toFeeCredit'),
        });
        return { json: { paymentHash: payment.paymentHash, webhooks: await webhooks } };
      } catch (error) {
        if (error instanceof PaymentRefusedError) throw new HttpAnswer(400, error.message);
        throw error;
      }
    }
    case '/sim/webhook':
      simulator.webhookMode = readWebhookMode(params);
      return { text: 'ok' };
    case '/sim/liquidity-fee':
      simulator.node.liquidityFeeSat = params.long('feeSat');
      return { text: 'ok' };
    case '/sim/offline':
      simulator.node.setOffline(params.flag('offline'));
      return { text: 'ok' };
    case '/sim/balance':
      simulator.node.setBalance(params.long('balanceSat'));
      return { text: 'ok' };
    case '/sim/fail-next':
      simulator.node.failNextPayment(params.string('reason'));
      return { text: 'ok' };
    case '/sim/confirm':
      simulator.node.confirmOnChain();
      return { text: 'ok' };
    case '/sim/mode':
      simulator.setMode(readMode(params), params.optionalLong('durationMs') ?? undefined);
      return { text: 'ok' };
    default:
      throw new HttpAnswer(404, 'Unknown simulator control');
  }
}

function readMode(params: Params): SimMode {
  const mode = params.string('mode');
  if (mode === 'up' || mode === 'down') return { kind: mode };
  if (mode === 'slow') return { kind: 'slow', delayMs: params.optionalLong('delayMs') ?? 30_000 };
  throw new HttpAnswer(400, 'mode must be up, down or slow');
}

function readWebhookMode(params: Params): WebhookMode {
  const mode = params.string('mode');
  if (mode === 'deliver' || mode === 'drop') return mode;
  throw new HttpAnswer(400, 'mode must be deliver or drop');
}
