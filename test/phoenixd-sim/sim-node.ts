import { randomUUID } from 'node:crypto';
import { decodeInvoice, randomHex32, SIM_NODE_ID, sha256Hex, signInvoice } from './invoices';

/**
 * The simulated node's state and behaviour, free of HTTP: channels and balance, the invoices it
 * issued, the payments it made, and the outcomes tests can force. Field names and units are
 * phoenixd's: amounts in sat, `fees` in msat, instants in Unix ms.
 */
export type SimChannel = {
  state: string;
  channelId: string;
  balanceSat: number;
  inboundLiquiditySat: number;
  capacitySat: number;
  fundingTxId: string;
};

export type SimIncoming = {
  paymentHash: string;
  preimage: string;
  externalId: string | null;
  description: string;
  invoice: string;
  requestedSat: number | null;
  receivedSat: number;
  fees: number;
  payerNote: string | null;
  createdAt: number;
  expiresAt: number;
  completedAt: number | null;
  /** The invoice's own webhook (createinvoice's `webhookUrl`), posted besides phoenix.conf's. */
  webhookUrl: string | null;
};

export type SimOutgoing = {
  subType: 'lightning' | 'splice_out' | 'splice_cpfp';
  paymentId: string;
  paymentHash: string | null;
  preimage: string | null;
  txId: string | null;
  isPaid: boolean;
  sent: number;
  fees: number;
  invoice: string | null;
  createdAt: number;
  completedAt: number | null;
};

export type PaymentResult =
  | {
      isSent: true;
      recipientAmountSat: number;
      routingFeeSat: number;
      paymentId: string;
      paymentHash: string;
      paymentPreimage: string;
    }
  | { isSent: false; paymentHash: string; reason: string };

/**
 * Why the node refused an incoming payment. lightning-kmp fails the payer's HTLCs for an expired
 * invoice (unless they arrived in time and wait for the liquidity they pay for), for less than the
 * invoice asks, or for more than twice it (an overpayment that large is taken for a mistake); the
 * payer sees the failure and we see nothing at all.
 */
export class PaymentRefusedError extends Error {}

export const FAILURE_REASONS = {
  insufficientFunds: 'not enough funds in wallet to afford payment',
  alreadyPaid: 'this invoice has already been paid',
} as const;

/** Rough sizes of a splice-out and of its CPFP child, enough to give fees a realistic scale. */
const SPLICE_VBYTES = 200;
const CPFP_VBYTES = 150;

export function lightningFeeMsat(amountSat: number): number {
  return 4000 + amountSat * 4;
}

/** Channel states as lightning-kmp names them (`stateName`); an offline channel wraps its state. */
export const CHANNEL_STATES = { normal: 'Normal', offline: 'Offline(Normal)' } as const;

/** How a payment arrives: what the payer sends, and what the node does with it. */
export type ReceiveOptions = {
  amountSat?: number;
  payerNote?: string;
  /**
   * The liquidity fee the node takes from this payment (buying inbound liquidity for it), instead of
   * the node's `liquidityFeeSat`. What arrives is the payment less the fee: negative when the fee is
   * larger.
   */
  liquidityFeeSat?: number;
  /** The payment goes to fee credit: paid, counted, but not spendable (no channel takes it). */
  toFeeCredit?: boolean;
};

export class SimNode {
  chain = 'regtest';
  blockHeight = 1200;
  /** The phoenixd release this simulator follows (README.md). */
  version = '0.8.0';
  feeCreditSat = 0;
  channels: SimChannel[] = [];
  readonly incoming = new Map<string, SimIncoming>();
  readonly outgoing: SimOutgoing[] = [];
  /**
   * The liquidity fee taken from every payment received (0: the node has inbound liquidity). phoenixd
   * takes it from the payment that needs the liquidity, so `receivedSat` is net of it.
   */
  liquidityFeeSat = 0;
  private forcedFailure: string | null = null;
  private clock: { now(): number } = { now: () => Date.now() };
  private pendingSplice: { txId: string; feerateSatByte: number } | null = null;

  constructor(balanceSat: number) {
    this.setBalance(balanceSat);
  }

  get nodeId(): string {
    return SIM_NODE_ID;
  }

  /** One Normal channel holding the balance; 0 leaves the node without channels. */
  setBalance(balanceSat: number): void {
    this.channels =
      balanceSat > 0
        ? [
            {
              state: CHANNEL_STATES.normal,
              channelId: randomHex32(),
              balanceSat,
              inboundLiquiditySat: 2_000_000,
              capacitySat: balanceSat + 2_000_000,
              fundingTxId: randomHex32(),
            },
          ]
        : [];
  }

  get balanceSat(): number {
    return this.normalChannel()?.balanceSat ?? 0;
  }

  /** The node's idea of now, e.g. a test's manual clock, so expiry needs no sleeping. */
  useClock(clock: { now(): number }): void {
    this.clock = clock;
  }

  now(): number {
    return this.clock.now();
  }

  /** The peer disconnects (or reconnects): the channel shows as lightning-kmp's Offline state and cannot pay. */
  setOffline(isOffline: boolean): void {
    for (const channel of this.channels) {
      channel.state = isOffline ? CHANNEL_STATES.offline : CHANNEL_STATES.normal;
    }
  }

  failNextPayment(reason: string): void {
    this.forcedFailure = reason;
  }

  createInvoice(input: {
    amountSat: number | null;
    description: string;
    expirySeconds: number | null;
    externalId: string | null;
    webhookUrl?: string | null;
  }) {
    const createdAt = this.clock.now();
    const expirySeconds = input.expirySeconds ?? 3600;
    const invoice = signInvoice({
      amountSat: input.amountSat,
      description: input.description,
      expirySeconds,
      createdAtMs: createdAt,
    });
    this.incoming.set(invoice.paymentHash, {
      paymentHash: invoice.paymentHash,
      preimage: invoice.preimage,
      externalId: input.externalId,
      description: input.description,
      invoice: invoice.serialized,
      requestedSat: input.amountSat,
      receivedSat: 0,
      fees: 0,
      payerNote: null,
      createdAt,
      expiresAt: createdAt + expirySeconds * 1000,
      completedAt: null,
      webhookUrl: input.webhookUrl ?? null,
    });
    return { amountSat: input.amountSat, paymentHash: invoice.paymentHash, serialized: invoice.serialized };
  }

  /**
   * Someone outside pays one of our invoices. With a liquidity fee the node buys inbound liquidity
   * and takes the fee from what arrives; the payer's HTLCs wait for that, so an invoice may be paid
   * after its expiry. A payment to fee credit adds to it instead of a channel.
   */
  receive(serialized: string, options: ReceiveOptions = {}): SimIncoming {
    const decoded = decodeInvoice(serialized);
    const payment = decoded && this.incoming.get(decoded.paymentHash);
    if (!payment) throw new PaymentRefusedError('not an invoice of this node');
    if (payment.completedAt !== null) throw new PaymentRefusedError('invoice already paid');
    const feeSat = options.liquidityFeeSat ?? this.liquidityFeeSat;
    if (this.clock.now() > payment.expiresAt && feeSat === 0) {
      throw new PaymentRefusedError('invoice expired');
    }
    const amountSat = options.amountSat ?? payment.requestedSat;
    if (amountSat === null) throw new PaymentRefusedError('amountSat is needed for an invoice of any amount');
    this.refuseWrongAmount(payment.requestedSat, amountSat);
    payment.receivedSat = options.toFeeCredit ? amountSat : amountSat - feeSat;
    payment.fees = options.toFeeCredit ? 0 : feeSat * 1000;
    payment.payerNote = options.payerNote ?? null;
    payment.completedAt = this.clock.now();
    if (options.toFeeCredit) {
      this.feeCreditSat += amountSat;
      return payment;
    }
    const channel = this.normalChannel();
    if (channel) {
      channel.balanceSat += payment.receivedSat;
      channel.inboundLiquiditySat = Math.max(0, channel.inboundLiquiditySat - amountSat);
    }
    return payment;
  }

  private refuseWrongAmount(requestedSat: number | null, amountSat: number): void {
    if (requestedSat === null) return;
    if (amountSat < requestedSat) {
      throw new PaymentRefusedError(`underpayment: ${amountSat} sat for an invoice of ${requestedSat} sat`);
    }
    if (amountSat > 2 * requestedSat) {
      throw new PaymentRefusedError(
        `overpayment: ${amountSat} sat is over twice the invoice's ${requestedSat} sat`,
      );
    }
  }

  /** We pay a BOLT11 invoice or an offer; the invoice's hash is null for offers. */
  pay(input: { amountSat: number; paymentHash: string | null; invoice: string | null }): PaymentResult {
    const paymentHash = input.paymentHash ?? sha256Hex(randomHex32());
    const reason = this.refusal(input.amountSat, input.paymentHash);
    const feesMsat = lightningFeeMsat(input.amountSat);
    const record: SimOutgoing = {
      subType: 'lightning',
      paymentId: randomUUID(),
      paymentHash,
      preimage: null,
      txId: null,
      isPaid: false,
      sent: input.amountSat + Math.floor(feesMsat / 1000),
      fees: reason ? 0 : feesMsat,
      invoice: input.invoice,
      createdAt: this.clock.now(),
      completedAt: this.clock.now(),
    };
    this.outgoing.push(record);
    if (reason) return { isSent: false, paymentHash, reason };

    const own = this.incoming.get(paymentHash);
    record.preimage = own?.preimage ?? randomHex32();
    record.isPaid = true;
    this.debit(record.sent);
    return {
      isSent: true,
      recipientAmountSat: input.amountSat,
      routingFeeSat: Math.floor(feesMsat / 1000),
      paymentId: record.paymentId,
      paymentHash,
      paymentPreimage: record.preimage,
    };
  }

  /** Answers phoenixd's texts: a txid, or why nothing was sent. */
  spliceOut(amountSat: number, feerateSatByte: number): string {
    const channel = this.normalChannel();
    if (!channel) return 'no channel available';
    const feesSat = feerateSatByte * SPLICE_VBYTES;
    if (channel.balanceSat < amountSat + feesSat) {
      return `InsufficientFunds(balanceAfterFees=${(channel.balanceSat - amountSat - feesSat) * 1000} msat, liquidityFees=0 sat, currentFeeCredit=0 msat)`;
    }
    const txId = randomHex32();
    this.recordOnChain('splice_out', txId, amountSat + feesSat, feesSat);
    channel.fundingTxId = txId;
    this.pendingSplice = { txId, feerateSatByte };
    return txId;
  }

  bumpFee(feerateSatByte: number): string {
    const channel = this.normalChannel();
    if (!channel) return 'no channel available';
    const pending = this.pendingSplice;
    if (!pending || feerateSatByte <= pending.feerateSatByte) {
      return 'either the tx is already confirmed or has a higher feerate';
    }
    const feesSat = (feerateSatByte - pending.feerateSatByte) * SPLICE_VBYTES + feerateSatByte * CPFP_VBYTES;
    const txId = randomHex32();
    this.recordOnChain('splice_cpfp', txId, feesSat, feesSat);
    this.pendingSplice = { txId: pending.txId, feerateSatByte };
    return txId;
  }

  /** The pending splice confirms; bumping it is then refused. */
  confirmOnChain(): void {
    this.pendingSplice = null;
    this.blockHeight += 1;
  }

  private recordOnChain(
    subType: 'splice_out' | 'splice_cpfp',
    txId: string,
    sentSat: number,
    feesSat: number,
  ) {
    this.outgoing.push({
      subType,
      paymentId: randomUUID(),
      paymentHash: null,
      preimage: null,
      txId,
      isPaid: true,
      sent: sentSat,
      fees: feesSat * 1000,
      invoice: null,
      createdAt: this.clock.now(),
      completedAt: this.clock.now(),
    });
    this.debit(sentSat);
  }

  private refusal(amountSat: number, paymentHash: string | null): string | null {
    if (this.forcedFailure) {
      const reason = this.forcedFailure;
      this.forcedFailure = null;
      return reason;
    }
    const isAlreadyPaid = this.outgoing.some(
      (payment) => payment.paymentHash === paymentHash && payment.isPaid,
    );
    if (paymentHash && isAlreadyPaid) return FAILURE_REASONS.alreadyPaid;
    const cost = amountSat + Math.ceil(lightningFeeMsat(amountSat) / 1000);
    if (this.balanceSat < cost) return FAILURE_REASONS.insufficientFunds;
    return null;
  }

  private debit(amountSat: number): void {
    const channel = this.normalChannel();
    if (!channel) return;
    channel.balanceSat -= amountSat;
    channel.inboundLiquiditySat += amountSat;
  }

  private normalChannel(): SimChannel | undefined {
    return this.channels.find((channel) => channel.state === CHANNEL_STATES.normal);
  }
}
