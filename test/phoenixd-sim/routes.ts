import { HttpAnswer, type Params, TEXTS } from './http';
import { decodeInvoice } from './invoices';
import type { PaymentResult, SimIncoming, SimNode, SimOutgoing } from './sim-node';

/** What a route answers: JSON (pretty, nulls left out) or plain text, both with HTTP 200. */
export type Answer = { json: unknown } | { text: string };

type Route = {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (node: SimNode, params: Params, path: string[]) => Answer;
};

const HEX32 = /^[0-9a-fA-F]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REGTEST_ADDRESS = /^(bcrt1[02-9ac-hj-np-z]{8,87}|[mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/;
const OFFER = /^lno1[02-9ac-hj-np-z]+$/;
const MAX_DESCRIPTION = 128;

export function incomingJson(payment: SimIncoming) {
  return {
    type: 'incoming_payment',
    subType: 'lightning',
    paymentHash: payment.paymentHash,
    preimage: payment.preimage,
    externalId: payment.externalId,
    description: payment.description,
    invoice: payment.invoice,
    isPaid: payment.completedAt !== null,
    isExpired: payment.completedAt === null && Date.now() > payment.expiresAt,
    requestedSat: payment.requestedSat,
    receivedSat: payment.receivedSat,
    fees: payment.fees,
    payerNote: payment.payerNote,
    expiresAt: payment.expiresAt,
    completedAt: payment.completedAt,
    createdAt: payment.createdAt,
  };
}

export function outgoingJson(payment: SimOutgoing) {
  return { type: 'outgoing_payment', ...payment };
}

function paymentAnswer(result: PaymentResult): Answer {
  if (result.isSent) {
    const { isSent: _isSent, ...sent } = result;
    return { json: sent };
  }
  return { json: { paymentHash: result.paymentHash, reason: result.reason } };
}

function hex32(name: string, value: string): string {
  if (!HEX32.test(value)) throw new HttpAnswer(400, TEXTS.invalid(name, 'hex32'));
  return value.toLowerCase();
}

/** phoenixd's list parameters; `all` means unpaid (incoming) or failed (outgoing) ones too. */
function page<T extends { createdAt: number }>(items: T[], params: Params): T[] {
  const from = params.optionalLong('from') ?? 0;
  const to = params.optionalLong('to') ?? Date.now();
  const limit = params.optionalLong('limit') ?? 20;
  const offset = params.optionalLong('offset') ?? 0;
  return items
    .filter((item) => item.createdAt >= from && item.createdAt <= to)
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(offset, offset + limit);
}

function createInvoice(node: SimNode, params: Params): Answer {
  const description = params.optionalString('description');
  if (description !== null && description.length > MAX_DESCRIPTION) {
    throw new HttpAnswer(
      400,
      `Request parameter description is too long (max ${MAX_DESCRIPTION} characters)`,
    );
  }
  if (description === null) throw new HttpAnswer(400, 'Must provide either a description or descriptionHash');
  const invoice = node.createInvoice({
    amountSat: params.optionalLong('amountSat'),
    description,
    expirySeconds: params.optionalLong('expirySeconds'),
    externalId: params.optionalString('externalId'),
  });
  return { json: invoice };
}

function payInvoice(node: SimNode, params: Params): Answer {
  const overrideAmount = params.optionalLong('amountSat');
  const serialized = params.string('invoice');
  const invoice = decodeInvoice(serialized);
  if (!invoice) throw new HttpAnswer(400, TEXTS.invalid('invoice', 'bolt11invoice'));
  const amountSat = overrideAmount ?? invoice.amountSat;
  if (amountSat === null) throw new HttpAnswer(400, TEXTS.missing('amountSat'));
  return paymentAnswer(node.pay({ amountSat, paymentHash: invoice.paymentHash, invoice: serialized }));
}

function payOffer(node: SimNode, params: Params): Answer {
  const overrideAmount = params.optionalLong('amountSat');
  if (!OFFER.test(params.string('offer'))) throw new HttpAnswer(400, TEXTS.invalid('offer', 'offer'));
  // The simulator cannot decode an offer's own amount, so offers are paid with an explicit amount.
  if (overrideAmount === null) throw new HttpAnswer(400, TEXTS.missing('amountSat'));
  return paymentAnswer(node.pay({ amountSat: overrideAmount, paymentHash: null, invoice: null }));
}

function sendToAddress(node: SimNode, params: Params): Answer {
  const amountSat = params.long('amountSat');
  if (!REGTEST_ADDRESS.test(params.string('address'))) throw new HttpAnswer(400, 'Invalid address');
  return { text: node.spliceOut(amountSat, params.long('feerateSatByte')) };
}

function bestAttempt(attempts: SimOutgoing[]): SimOutgoing | undefined {
  const rank = (payment: SimOutgoing) => (payment.isPaid ? 3 : payment.completedAt === null ? 2 : 1);
  return [...attempts].sort((a, b) => rank(b) - rank(a))[0];
}

function found(value: unknown): Answer {
  if (value === undefined) throw new HttpAnswer(404, TEXTS.notFound);
  return { json: value };
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/getinfo$/,
    handle: (node) => ({
      json: {
        nodeId: node.nodeId,
        channels: node.channels,
        chain: node.chain,
        blockHeight: node.blockHeight,
        version: node.version,
      },
    }),
  },
  {
    method: 'GET',
    pattern: /^\/getbalance$/,
    handle: (node) => ({ json: { balanceSat: node.balanceSat, feeCreditSat: node.feeCreditSat } }),
  },
  { method: 'POST', pattern: /^\/createinvoice$/, handle: createInvoice },
  { method: 'POST', pattern: /^\/payinvoice$/, handle: payInvoice },
  { method: 'POST', pattern: /^\/payoffer$/, handle: payOffer },
  { method: 'POST', pattern: /^\/sendtoaddress$/, handle: sendToAddress },
  {
    method: 'POST',
    pattern: /^\/bumpfee$/,
    handle: (node, params) => ({ text: node.bumpFee(params.long('feerateSatByte')) }),
  },
  {
    method: 'GET',
    pattern: /^\/payments\/incoming$/,
    handle: (node, params) => {
      const externalId = params.optionalString('externalId');
      const isAll = params.flag('all');
      const matching = [...node.incoming.values()].filter(
        (payment) =>
          (isAll || payment.completedAt !== null) && (!externalId || payment.externalId === externalId),
      );
      return { json: page(matching, params).map(incomingJson) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/incoming\/([^/]+)$/,
    handle: (node, _params, [hash = '']) => {
      const payment = node.incoming.get(hex32('paymentHash', hash));
      return found(payment && incomingJson(payment));
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/outgoing$/,
    handle: (node, params) => {
      const isAll = params.flag('all');
      const matching = node.outgoing.filter(
        (payment) => isAll || payment.isPaid || payment.completedAt === null,
      );
      return { json: page(matching, params).map(outgoingJson) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/outgoing\/([^/]+)$/,
    handle: (node, _params, [id = '']) => {
      if (!UUID.test(id)) throw new HttpAnswer(400, TEXTS.invalid('uuid', 'uuid'));
      const payment = node.outgoing.find(
        (item) => item.paymentId === id.toLowerCase() && item.subType === 'lightning',
      );
      return found(payment && outgoingJson(payment));
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/outgoingbyhash\/([^/]+)$/,
    handle: (node, _params, [hash = '']) => {
      const paymentHash = hex32('paymentHash', hash);
      const payment = bestAttempt(node.outgoing.filter((item) => item.paymentHash === paymentHash));
      return found(payment && outgoingJson(payment));
    },
  },
];
