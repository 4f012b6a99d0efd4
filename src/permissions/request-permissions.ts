import type { Principal } from '../core/auth-guard';
import { authorize, type Permission } from './permissions';

/**
 * Permissions that depend on what a request asks, not only on the route it calls: the one place
 * they are listed, and the one function that checks them. The route's own permission
 * (ROUTE_PERMISSIONS) is checked by the guard before the body is read; these are checked by the
 * service that knows what the body means, as soon as it knows (some answers need the stored order:
 * cancelling an order already cancelled cancels nothing, and a price equal to the menu's overrides
 * nothing). A refusal is the guard's: 403 `{"message":"Unauthorized API access"}`, nothing changed.
 *
 * | action               | route and body                                                        | when                                        |
 * |----------------------|-----------------------------------------------------------------------|---------------------------------------------|
 * | cancelOrder          | `PUT /orders/{id}` `{"status":"cancelled"}`                           | the order was not cancelled yet             |
 * | cancelBillsWithOrder | that PUT, and `DELETE /orders/{id}`                                   | the order has pending bills, cancelled with it |
 * | moveOrder            | `PUT /orders/{id}` `{"table_id"}`                                     | it differs from the order's table (as `POST /orders/{id}/move`) |
 * | reassignOrder        | `PUT /orders/{id}` `{"user_id"}` or `{"waiter"}`                      | it differs from the stored one              |
 * | voidDish             | `PUT /orders/{id}/dishes/{dishId}/status` `{"status":"voided"}`       | always                                      |
 * | voidDish             | `POST /orders/{id}/dishes/{dishId}/void`                              | always                                      |
 * | voidDish             | `DELETE /orders/{id}/dishes/{dishId}`, `DELETE /orders/{id}/dishes`   | a removed plate was sent to the kitchen (not `pending`) |
 * | overridePrice        | `price_at_order` on `POST /orders/with-dishes`, `POST /orders/{id}/dishes`, `PUT /orders/{id}/dishes/{dishId}` | it differs from the dish's menu price (and, on an update, from the price the dish already has) |
 * | discountBill         | `POST /orders/{id}/tickets` with a `discount`                         | always                                      |
 * | streamPayments       | `GET /events` with the `payments` topic                               | asked for; left out of the default topics otherwise |
 * | streamInventory      | `GET /events` with the `inventory` topic                              | asked for; left out of the default topics otherwise |
 */
export const REQUEST_PERMISSIONS = {
  cancelOrder: 'orders.cancel',
  cancelBillsWithOrder: 'tickets.cancel',
  moveOrder: 'orders.move',
  reassignOrder: 'orders.reassign',
  voidDish: 'dishes.void',
  overridePrice: 'orders.price_override',
  discountBill: 'tickets.discount',
  streamPayments: 'payments.take',
  streamInventory: 'inventory.read',
} as const satisfies Record<string, Permission>;

export type RequestAction = keyof typeof REQUEST_PERMISSIONS;

/**
 * The actions a manager may approve on another user's tablet with their PIN (`POST /auth/approvals`),
 * for that one request: the one list. Their check consumes the approval, so it needs the write's
 * transaction (approvals/approvals.service.ts authorizeApprovable); authorizeAction does not take them.
 */
export const APPROVABLE_ACTIONS = ['voidDish', 'discountBill'] as const satisfies readonly RequestAction[];
export type ApprovableAction = (typeof APPROVABLE_ACTIONS)[number];
export const APPROVABLE_PERMISSIONS = APPROVABLE_ACTIONS.map((action) => REQUEST_PERMISSIONS[action]);
export type ApprovablePermission = (typeof REQUEST_PERMISSIONS)[ApprovableAction];

export function isApprovablePermission(name: string): name is ApprovablePermission {
  return (APPROVABLE_PERMISSIONS as readonly string[]).includes(name);
}

/** Throws 403 unless the caller's role may do what the request asks. */
export function authorizeAction(
  principal: Principal,
  action: Exclude<RequestAction, ApprovableAction>,
): void {
  authorize(principal, REQUEST_PERMISSIONS[action]);
}
