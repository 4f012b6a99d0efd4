/** What the other features may use of tickets: the rest of src/tickets/ is its own (docs/architecture.md). */

export { cancelLockedTicket } from './bill-cancellation';
export { findBillHeader, findBillModifiers, findBillPayments, findBillPlates } from './bill-lines.repo';
export {
  createGuestLink,
  hashToken,
  mintGuestLink,
  revokeGuestLinks,
  ticketOfToken,
} from './guest-links.service';
export { closeOrderIfDone } from './order-done';
export { viewOf, viewOfRow } from './ticket-views';
export { findTicket, refreshRefundedAfterSale, type TicketRow } from './tickets.repo';
export { createTicketIn, lockTicketWithOrder } from './tickets.service';
