/**
 * What the money-and-stock writers were told: each 2xx is a promise the server must keep after a
 * crash; a request left without an answer (the server died) may or may not have happened, but whole.
 */
export const WRITE_KINDS = [
  'new table',
  'open order',
  'send plates',
  'move table',
  'merge tables',
  'bill',
  'cash payment',
  'card payment',
  'terminal charge',
  'lightning invoice',
  'refund',
  'stock count',
  'close order',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

export type AckedPayment = {
  ticketId: string;
  amountCents: number;
  method: 'cash' | 'card' | 'lightning' | 'card_terminal';
};

/** A charge the guest's card paid at the terminal: `paymentId` is the order's external reference. */
export type TappedCharge = { paymentId: string; ticketId: string; amountCents: number; terminalId: string };

export class MoneyLedger {
  readonly acknowledged = new Map<WriteKind, number>(WRITE_KINDS.map((kind) => [kind, 0]));
  readonly unanswered = new Map<WriteKind, number>(WRITE_KINDS.map((kind) => [kind, 0]));
  readonly refused: string[] = [];
  /** Cash and card payments by id, Lightning payments once the node was paid, terminal charges once tapped. */
  readonly payments = new Map<string, AckedPayment>();
  readonly refunds = new Map<string, { paymentId: string; amountCents: number }>();
  /** Plates whose send was acknowledged: they must have left `pending`. */
  readonly sentPlates = new Set<string>();
  /** Where each moved order must be: its last acknowledged table, or a later move that got no answer. */
  readonly tables = new Map<string, { acknowledged: string; unanswered: string[] }>();
  /** Orders merged into another: cancelled, their plates in the other. */
  readonly merged = new Map<string, { into: string; plateIds: string[] }>();
  readonly closed = new Set<string>();
  /** Invoices the outside payer paid at the node, by payment hash: each must settle exactly once. */
  readonly paidInvoices = new Map<string, { paymentId: string; amountCents: number; ticketId: string }>();
  /** Terminal charges a card paid at the simulator, by payment id: each must settle exactly once. */
  readonly tappedCharges = new Map<string, TappedCharge>();
  /** Terminal charges the guest tapped while the server was dead. */
  tappedWhileDown = 0;
  /** Cards the terminal declined; the writer charged the bill again. */
  declinedCharges = 0;

  ack(kind: WriteKind): void {
    this.acknowledged.set(kind, (this.acknowledged.get(kind) ?? 0) + 1);
  }

  lost(kind: WriteKind): void {
    this.unanswered.set(kind, (this.unanswered.get(kind) ?? 0) + 1);
  }

  get acknowledgedWrites(): number {
    return [...this.acknowledged.values()].reduce((sum, count) => sum + count, 0);
  }
}
