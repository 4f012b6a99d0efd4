import { HttpAnswer, type Params, TEXTS } from './http';
import { decodeInvoice } from './invoices';
import type { PaymentResult, SimIncoming, SimNode, SimOutgoing } from './sim-node';

/** What a route answers: JSON (pretty, nulls left out) or plain text, both with HTTP 200. */
export type Answer = { json: unknown } | { text: string };

type Route = {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (node: SimNode, params: Params, path: string[]) => Answer;
  /** Only the full `http-password` may call it; `http-password-limited-access` gets 401. */
  paysOut?: true;
};

const HEX32 = /^[0-9a-fA-F]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const REGTEST_ADDRESS = /^(bcrt1[02-9ac-hj-np-z]{8,87}|[mn2][1-9A-HJ-NP-Za-km-z]{25,34})$/;
const OFFER = /^lno1[02-9ac-hj-np-z]+$/;
const MAX_DESCRIPTION = 128;

export function incomingJson(payment: SimIncoming, now: number) {
  return {
    type: 'incoming_payment',
    subType: 'lightning',
    paymentHash: payment.paymentHash,
    preimage: payment.preimage,
    externalId: payment.externalId,
    description: payment.description,
    invoice: payment.invoice,
    isPaid: payment.completedAt !== null,
    isExpired: now > payment.expiresAt,
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

type ListWindow = { from: number; to: number; limit: number; offset: number };

function listWindow(node: SimNode, params: Params): ListWindow {
  return {
    from: params.optionalLong('from') ?? 0,
    to: params.optionalLong('to') ?? node.now(),
    limit: params.optionalLong('limit') ?? 20,
    offset: params.optionalLong('offset') ?? 0,
  };
}

/**
 * phoenixd's lists (its SQL): by default only completed payments, filtered on the completion time;
 * with `all`, every one, filtered on the creation time. Incoming payments come newest first by that
 * same time; outgoing ones in no promised order (here: as stored, oldest first).
 */
function listOf<T extends { createdAt: number; completedAt: number | null; paymentHash: string | null }>(
  items: T[],
  window: ListWindow,
  options: { isAll: boolean; isNewestFirst: boolean },
): T[] {
  const timeOf = (item: T) => (options.isAll ? item.createdAt : (item.completedAt ?? -1));
  const matching = items.filter((item) => timeOf(item) >= window.from && timeOf(item) <= window.to);
  // SQL leaves the order of equal times open; the simulator settles it by hash, as our merge does.
  if (options.isNewestFirst)
    matching.sort(
      (a, b) => timeOf(b) - timeOf(a) || (a.paymentHash ?? '').localeCompare(b.paymentHash ?? ''),
    );
  return matching.slice(window.offset, window.offset + window.limit);
}

function optionalUrl(params: Params, name: string): string | null {
  const value = params.optionalString(name);
  if (value !== null && !URL.canParse(value)) throw new HttpAnswer(400, TEXTS.invalid(name, 'url'));
  return value;
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
    webhookUrl: optionalUrl(params, 'webhookUrl'),
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
  { method: 'POST', pattern: /^\/payinvoice$/, handle: payInvoice, paysOut: true },
  { method: 'POST', pattern: /^\/payoffer$/, handle: payOffer, paysOut: true },
  { method: 'POST', pattern: /^\/sendtoaddress$/, handle: sendToAddress, paysOut: true },
  {
    method: 'POST',
    pattern: /^\/bumpfee$/,
    handle: (node, params) => ({ text: node.bumpFee(params.long('feerateSatByte')) }),
    paysOut: true,
  },
  {
    method: 'GET',
    pattern: /^\/payments\/incoming$/,
    handle: (node, params) => {
      const externalId = params.optionalString('externalId');
      const matching = [...node.incoming.values()].filter(
        (payment) => !externalId || payment.externalId === externalId,
      );
      const listed = listOf(matching, listWindow(node, params), {
        isAll: params.flag('all'),
        isNewestFirst: true,
      });
      return { json: listed.map((payment) => incomingJson(payment, node.now())) };
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/incoming\/([^/]+)$/,
    handle: (node, _params, [hash = '']) => {
      const payment = node.incoming.get(hex32('paymentHash', hash));
      return found(payment && incomingJson(payment, node.now()));
    },
  },
  {
    method: 'GET',
    pattern: /^\/payments\/outgoing$/,
    handle: (node, params) => {
      const isAll = params.flag('all');
      // The default list is phoenixd's listSuccessful: neither pending nor failed payments.
      const matching = isAll ? node.outgoing : node.outgoing.filter((payment) => payment.isPaid);
      const listed = listOf(matching, listWindow(node, params), { isAll, isNewestFirst: false });
      return { json: listed.map(outgoingJson) };
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
