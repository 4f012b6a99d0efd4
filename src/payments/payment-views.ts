import { fromCents } from '../core/money';
import { toIsoUtc, toIsoUtcOrNull } from '../core/time';
import type { PaymentMethodRow, PaymentRow } from './payments.repo';
import type { PaymentMethodView, PaymentView } from './payments.schemas';

export function toPaymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    method: row.method,
    amount: fromCents(Number(row.amount_cents)),
    tip: fromCents(Number(row.tip_cents)),
    status: row.status,
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
  };
}

export function toPaymentMethodView(row: PaymentMethodRow): PaymentMethodView {
  return { id: row.id, code: row.code, name: row.name, is_active: Number(row.is_active) === 1 };
}
