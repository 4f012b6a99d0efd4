import { type AuditActor, recordAudit } from '../audit/audit.api';
import type { Db } from '../core/db/database';

/**
 * The `order.moved` entry of a party changing table, the same whether the floor's move or a PUT of
 * the order's table did it (issue 35). Last in the caller's transaction, as recordAudit asks.
 */
export function recordOrderMoved(
  trx: Db,
  actor: AuditActor,
  move: { orderId: string; from: string | null; to: string | null; at: number },
): Promise<void> {
  return recordAudit(trx, {
    at: move.at,
    actor,
    action: 'order.moved',
    target: { type: 'order', id: move.orderId },
    before: { table_id: move.from },
    after: { table_id: move.to },
  });
}
