import { fromCents } from '../core/money';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import type { PaymentMethodRow, PaymentRow } from './payments.repo';
import type { PaymentMethodView, PaymentView } from './payments.schemas';

/**
 * A card-terminal charge that ended unpaid is stored `expired` (its money's state); its view says how
 * it ended, and a pending one that the terminal needs checked says so too.
 */
function statusOf(row: PaymentRow): PaymentView['status'] {
  if (row.terminal_id === null) return row.status;
  if (row.status === 'expired') return row.terminal_state === 'canceled' ? 'canceled' : 'failed';
  if (row.status === 'pending' && row.terminal_state === 'action_required') return 'action_required';
  return row.status;
}

export function toPaymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    method: row.method,
    amount: fromCents(Number(row.amount_cents)),
    tip: fromCents(Number(row.tip_cents)),
    status: statusOf(row),
    created_at: toIsoUtc(Number(row.created_at)),
    settled_at: toIsoUtcOrNull(row.settled_at),
    created_by: row.created_by,
    source: row.source,
    ...(row.payment_hash !== null && {
      lightning: {
        amount_sat: Number(row.amount_sat),
        rate: Number(row.rate),
        payment_hash: row.payment_hash,
        invoice: row.invoice ?? '',
        expires_at: toIsoUtcOrNull(row.expires_at),
        received_sat: row.received_sat === null ? null : Number(row.received_sat),
        fees_msat: row.fees_msat === null ? null : Number(row.fees_msat),
      },
    }),
    ...(row.terminal_id !== null && {
      terminal: {
        terminal_id: row.terminal_id,
        state: row.terminal_state ?? 'created',
        provider_order_id: row.provider_order_id,
        expires_at: toIsoUtcOrNull(row.expires_at),
        cancel_requested: row.cancel_requested_at !== null,
        failure_reason: row.failure_reason,
        card_brand: row.card_brand,
        card_type: row.card_type,
        last_four: row.card_last_four,
        authorization_code: row.authorization_code,
        provider_payment_id: row.provider_payment_id,
        fee: row.provider_fee_cents === null ? null : fromCents(Number(row.provider_fee_cents)),
      },
    }),
  };
}

export function toPaymentMethodView(row: PaymentMethodRow): PaymentMethodView {
  return { id: row.id, code: row.code, name: row.name, is_active: Number(row.is_active) === 1 };
}
