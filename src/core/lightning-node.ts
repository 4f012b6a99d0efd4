/**
 * What the POS needs from a Lightning node, in the node's own vocabulary (phoenixd's field names
 * and units: amounts in sat, `fees` in msat, instants in Unix ms). The wallet service maps these
 * to our API shapes; nothing here knows about HTTP answers of our own.
 */
export type NodeChannel = {
  state: string;
  channelId: string | null;
  balanceSat: number | null;
  inboundLiquiditySat: number | null;
  capacitySat: number | null;
  fundingTxId: string | null;
};

export type NodeInfo = {
  nodeId: string;
  channels: NodeChannel[];
  chain: string;
  blockHeight: number | null;
  version: string;
};

export type NodeBalance = { balanceSat: number; feeCreditSat: number };

export type GeneratedInvoice = { amountSat: number | null; paymentHash: string; serialized: string };

export type PaymentSent = {
  recipientAmountSat: number;
  routingFeeSat: number;
  paymentId: string;
  paymentHash: string;
  paymentPreimage: string;
};

/** phoenixd answers a refused or failed payment with HTTP 200 and a reason, not with an error status. */
export type PaymentOutcome = ({ isSent: true } & PaymentSent) | { isSent: false; reason: string };

/** sendtoaddress and bumpfee answer plain text: a txid on success, an explanation otherwise. */
export type OnChainOutcome = { isSent: true; txId: string } | { isSent: false; reason: string };

export type NodeIncomingPayment = {
  paymentHash: string;
  externalId: string | null;
  description: string | null;
  payerNote: string | null;
  invoice: string | null;
  isPaid: boolean;
  isExpired: boolean;
  requestedSat: number | null;
  /** Net of the liquidity fee the node took (`feesMsat`): less than asked, even negative. */
  receivedSat: number;
  feesMsat: number;
  createdAt: number;
  completedAt: number | null;
};

export type NodeOutgoingPayment = {
  subType: string;
  paymentId: string;
  paymentHash: string | null;
  preimage: string | null;
  txId: string | null;
  isPaid: boolean;
  sentSat: number;
  feesMsat: number;
  invoice: string | null;
  createdAt: number;
  completedAt: number | null;
};

export type PaymentListQuery = {
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
  /** phoenixd's meaning: include unpaid (incoming) or failed (outgoing) payments. */
  all?: boolean | undefined;
};

export type CreateInvoiceInput = {
  description: string;
  amountSat?: number | undefined;
  externalId?: string | undefined;
  expirySeconds?: number | undefined;
  /** Where phoenixd posts this invoice's payment_received event, besides phoenix.conf's `webhook=`. */
  webhookUrl?: string | undefined;
};

export interface LightningNode {
  getInfo(): Promise<NodeInfo>;
  getBalance(): Promise<NodeBalance>;
  createInvoice(input: CreateInvoiceInput): Promise<GeneratedInvoice>;
  payInvoice(input: { invoice: string; amountSat?: number | undefined }): Promise<PaymentOutcome>;
  payOffer(input: {
    offer: string;
    amountSat?: number | undefined;
    message?: string | undefined;
  }): Promise<PaymentOutcome>;
  sendToAddress(input: {
    address: string;
    amountSat: number;
    feerateSatByte: number;
  }): Promise<OnChainOutcome>;
  bumpFee(feerateSatByte: number): Promise<OnChainOutcome>;
  listIncomingPayments(
    query: PaymentListQuery & { externalId?: string | undefined },
  ): Promise<NodeIncomingPayment[]>;
  /** null when the node does not know the payment. */
  getIncomingPayment(paymentHash: string): Promise<NodeIncomingPayment | null>;
  listOutgoingPayments(query: PaymentListQuery): Promise<NodeOutgoingPayment[]>;
  getOutgoingPayment(paymentId: string): Promise<NodeOutgoingPayment | null>;
  getOutgoingPaymentByHash(paymentHash: string): Promise<NodeOutgoingPayment | null>;
}

/** The node could not be reached, did not answer in time, or answered something we cannot read. */
export class LightningUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LightningUnavailableError';
  }
}

/**
 * A payment call that may have reached the node but whose answer never came (a timeout, a dropped
 * connection, a server error or an unreadable answer): the money may have left, so it must not be
 * retried blindly the way an unavailable node can be.
 */
export class LightningOutcomeUnknownError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LightningOutcomeUnknownError';
  }
}

/**
 * The node refused a payment call for the password: phoenixd's `http-password-limited-access` reads
 * and makes invoices but may not pay. Nothing was sent.
 */
export class LightningLimitedAccessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LightningLimitedAccessError';
  }
}

/** The node understood the call and refused it (a 4xx with phoenixd's explanation as text). */
export class LightningRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'LightningRequestError';
  }
}

/** What the node says arrived: `receivedSat` net of the liquidity fee it took, which is in msat. */
export type Arrived = { receivedSat: number; feesMsat: number | null };
