import {
  type GeneratedInvoice,
  LightningUnavailableError,
  type NodeBalance,
  type NodeChannel,
  type NodeIncomingPayment,
  type NodeInfo,
  type NodeOutgoingPayment,
  type PaymentOutcome,
} from '../core/lightning-node';

/**
 * Reads phoenixd's JSON answers field by field. phoenixd omits null fields (`explicitNulls = false`),
 * so an absent optional field reads as null; an absent required one means we are not talking to
 * the phoenixd we expect, which the wallet reports as an unavailable node rather than a crash.
 */
type Json = Record<string, unknown>;

function unexpected(what: string): never {
  throw new LightningUnavailableError(`Unexpected answer from phoenixd: ${what}`);
}

function asObject(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    unexpected(`${what} is not an object`);
  return value as Json;
}

function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) unexpected(`${what} is not an array`);
  return value;
}

/** Every number phoenixd sends (sat, msat, Unix ms, block heights) is a whole, non-negative Long… */
function num(json: Json, field: string): number {
  const value = signedNum(json, field);
  if (value < 0) unexpected(`${field} is not a non-negative integer`);
  return value;
}

/**
 * …but for what an incoming payment brought: `receivedSat` is net of the liquidity fee phoenixd took
 * from it, and a small payment that paid for a large liquidity purchase brings less than nothing.
 */
function signedNum(json: Json, field: string): number {
  const value = json[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) unexpected(`${field} is not an integer`);
  return value;
}

function optionalNum(json: Json, field: string): number | null {
  return json[field] === undefined || json[field] === null ? null : num(json, field);
}

function str(json: Json, field: string): string {
  const value = json[field];
  if (typeof value !== 'string') unexpected(`${field} is not a string`);
  return value;
}

function optionalStr(json: Json, field: string): string | null {
  return json[field] === undefined || json[field] === null ? null : str(json, field);
}

function bool(json: Json, field: string): boolean {
  const value = json[field];
  if (typeof value !== 'boolean') unexpected(`${field} is not a boolean`);
  return value;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return unexpected('the body is not JSON');
  }
}

function parseChannel(value: unknown): NodeChannel {
  const json = asObject(value, 'channel');
  return {
    state: str(json, 'state'),
    channelId: optionalStr(json, 'channelId'),
    balanceSat: optionalNum(json, 'balanceSat'),
    inboundLiquiditySat: optionalNum(json, 'inboundLiquiditySat'),
    capacitySat: optionalNum(json, 'capacitySat'),
    fundingTxId: optionalStr(json, 'fundingTxId'),
  };
}

export function parseNodeInfo(value: unknown): NodeInfo {
  const json = asObject(value, 'getinfo');
  return {
    nodeId: str(json, 'nodeId'),
    channels: asArray(json.channels, 'channels').map(parseChannel),
    chain: str(json, 'chain'),
    blockHeight: optionalNum(json, 'blockHeight'),
    version: str(json, 'version'),
  };
}

export function parseBalance(value: unknown): NodeBalance {
  const json = asObject(value, 'getbalance');
  return { balanceSat: num(json, 'balanceSat'), feeCreditSat: num(json, 'feeCreditSat') };
}

export function parseGeneratedInvoice(value: unknown): GeneratedInvoice {
  const json = asObject(value, 'createinvoice');
  return {
    amountSat: optionalNum(json, 'amountSat'),
    paymentHash: str(json, 'paymentHash'),
    serialized: str(json, 'serialized'),
  };
}

/** PaymentSent and PaymentFailed both come with HTTP 200; only a failure carries `reason`. */
export function parsePaymentOutcome(value: unknown): PaymentOutcome {
  const json = asObject(value, 'payment result');
  if (typeof json.reason === 'string') return { isSent: false, reason: json.reason };
  return {
    isSent: true,
    recipientAmountSat: num(json, 'recipientAmountSat'),
    routingFeeSat: num(json, 'routingFeeSat'),
    paymentId: str(json, 'paymentId'),
    paymentHash: str(json, 'paymentHash'),
    paymentPreimage: str(json, 'paymentPreimage'),
  };
}

export function parseIncomingPayment(value: unknown): NodeIncomingPayment {
  const json = asObject(value, 'incoming payment');
  return {
    paymentHash: str(json, 'paymentHash'),
    externalId: optionalStr(json, 'externalId'),
    description: optionalStr(json, 'description'),
    payerNote: optionalStr(json, 'payerNote'),
    invoice: optionalStr(json, 'invoice'),
    isPaid: bool(json, 'isPaid'),
    isExpired: json.isExpired === undefined ? false : bool(json, 'isExpired'),
    requestedSat: optionalNum(json, 'requestedSat'),
    receivedSat: signedNum(json, 'receivedSat'),
    feesMsat: optionalNum(json, 'fees') ?? 0,
    createdAt: num(json, 'createdAt'),
    completedAt: optionalNum(json, 'completedAt'),
  };
}

export function parseOutgoingPayment(value: unknown): NodeOutgoingPayment {
  const json = asObject(value, 'outgoing payment');
  return {
    subType: optionalStr(json, 'subType') ?? 'lightning',
    paymentId: str(json, 'paymentId'),
    paymentHash: optionalStr(json, 'paymentHash'),
    preimage: optionalStr(json, 'preimage'),
    txId: optionalStr(json, 'txId'),
    isPaid: bool(json, 'isPaid'),
    sentSat: num(json, 'sent'),
    feesMsat: optionalNum(json, 'fees') ?? 0,
    invoice: optionalStr(json, 'invoice'),
    createdAt: num(json, 'createdAt'),
    completedAt: optionalNum(json, 'completedAt'),
  };
}

export function parseList<T>(value: unknown, parseItem: (item: unknown) => T): T[] {
  return asArray(value, 'payment list').map(parseItem);
}
