/**
 * How the tickets table stores a bill's state, which is also the API's `status` code. Every layer that
 * asks whether a bill is open or paid reads it here: settings (no currency change while a bill is
 * open), orders (no reassigning a paid order), reports and receipts, as well as the bills themselves.
 */
export const TICKET_STATUS = { pending: 1, paid: 2, canceled: 3 } as const;
export type TicketStatus = (typeof TICKET_STATUS)[keyof typeof TICKET_STATUS];
