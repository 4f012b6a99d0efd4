/**
 * The card-terminal port: what the POS asks of the card provider (Mercado Pago Point's Orders API,
 * contract-channels.md "The card terminal"). `card-terminals/` implements it over the provider's HTTP
 * API and the composition root builds it when configured; the payments feature uses it from the
 * context and never constructs it. Amounts are integer cents (centavos), instants Unix milliseconds.
 * Failures are `PlatformError`s (core/delivery-platform.ts): `isRetryable` for an answer that never
 * came or a 5xx, where the work may have been done and the call must be repeated with the same key.
 */

/** A terminal of the account; only one in `PDV` mode takes charges from the POS. */
export type TerminalDevice = {
  id: string;
  storeId: string | null;
  posId: string | null;
  operatingMode: string;
};

/** Where the provider says a charge is (its order's status). */
export type TerminalOrderStatus =
  | 'created'
  | 'at_terminal'
  | 'action_required'
  | 'processed'
  | 'failed'
  | 'canceled'
  | 'expired'
  | 'refunded'
  | 'unknown';

export type TerminalRefund = {
  id: string;
  amountCents: number;
  status: 'processing' | 'processed' | 'failed';
};

export type TerminalOrder = {
  id: string;
  /** Our payment id, sent when the charge was made. */
  externalReference: string;
  terminalId: string;
  status: TerminalOrderStatus;
  /** The provider's word for why (`rejected_by_issuer`, `canceled_by_terminal`, `check_on_terminal`…). */
  statusDetail: string;
  amountCents: number;
  /** The charge's transaction in the order (refunds name it). */
  transactionId: string | null;
  /** The Payments API's id of the card payment, once there is one. */
  paymentReference: string | null;
  /** The card's brand as the order names it (`visa`, `master`, `debvisa`…), once tapped. */
  brand: string | null;
  cardType: 'credit' | 'debit' | null;
  refunds: TerminalRefund[];
};

/** What the Payments API says of a card payment that the order does not. */
export type CardPaymentDetails = {
  brand: string | null;
  cardType: 'credit' | 'debit' | null;
  lastFour: string | null;
  authorizationCode: string | null;
  /** The provider's fees on the payment, where it reports them. */
  feeCents: number | null;
};

export type NewTerminalCharge = {
  terminalId: string;
  amountCents: number;
  /** Our payment id: the order's `external_reference`. */
  externalReference: string;
  /** The provider's `X-Idempotency-Key`: a repeat with it answers the order first made. */
  idempotencyKey: string;
  /** How long the terminal may wait for the card, in seconds. */
  expiresInSeconds: number;
  description: string;
};

/** A cancel the provider did at once, or one it accepted and will confirm (the terminal must agree). */
export type TerminalCancel = 'canceled' | 'requested';

export interface CardTerminal {
  listTerminals(): Promise<TerminalDevice[]>;
  createCharge(charge: NewTerminalCharge): Promise<TerminalOrder>;
  getOrder(orderId: string): Promise<TerminalOrder>;
  /**
   * Cancels an order not yet at the terminal (`canceled`), or one the terminal shows where the provider
   * allows it (`requested`: the terminal confirms). Refused (`PlatformError`, not retryable) when it can
   * no longer be canceled from here.
   */
  cancel(orderId: string, options: { idempotencyKey: string }): Promise<TerminalCancel>;
  /** Refunds the whole charge, or `amountCents` of it; the refund is `processing` until the provider settles it. */
  refund(
    order: { id: string; transactionId: string },
    options: { idempotencyKey: string; amountCents: number | undefined },
  ): Promise<TerminalRefund>;
  getPaymentDetails(paymentReference: string): Promise<CardPaymentDetails>;
  /**
   * Checks a notification's `x-signature` for the order it names (the query's `data.id`) and its
   * `x-request-id`; false when missing or wrong.
   */
  verifyNotification(notification: {
    dataId: string;
    requestId: string | undefined;
    signature: string | undefined;
  }): boolean;
}
