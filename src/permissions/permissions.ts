import type { Principal } from '../core/auth-guard';
import { ForbiddenError } from '../core/errors';

/** Every capability a role can hold; `GET /permissions` lists them with these descriptions. */
export const PERMISSIONS = {
  'menu.write': 'Create, edit and delete categories, dishes, ingredients and products',
  'menu.availability': 'Mark dishes available or sold out (the kitchen\'s "86")',
  'floor.write': 'Create, edit and delete spaces and tables',
  'orders.write': 'Open orders, edit them and add or change their dishes',
  'orders.cancel': 'Cancel or delete orders',
  'orders.price_override': "Charge a dish at a price other than the menu's",
  'orders.move': 'Move a party between tables, merge tables and move plates between orders',
  'orders.reassign': 'Give an order to another waiter, with its sale and tips',
  'dishes.void': 'Remove dishes from an order',
  'kitchen.advance': 'Move dishes through the kitchen statuses',
  'tickets.write': 'Split orders into bills',
  'tickets.discount': 'Give a discount on a bill',
  'tickets.cancel': 'Cancel a bill',
  'payments.take': 'Record payments and request Lightning payments',
  'payments.refund': 'Refund payments',
  'payment_methods.manage': 'Create and edit payment methods',
  'users.manage': 'List, create, edit and delete users',
  'roles.manage': 'Create, edit and delete roles',
  'settings.write': 'Change the business settings',
  'shifts.use': 'Open and close their own shift and record cash movements',
  'shifts.manage': 'See and close the shifts of every user',
  'reports.read': 'Read sales reports',
  'inventory.read': 'See stock, its movements, low stock and the inventory report',
  'inventory.write': 'Receive deliveries, record waste and adjustments, and enter stock counts',
  'audit.read': 'Read and verify the audit log',
  'audit.acknowledge': 'Acknowledge a break found in the audit log, so verifying passes again',
  'wallet.use': "Use the restaurant's Lightning wallet",
  'webhooks.manage': 'Create, edit and delete webhooks',
  'printers.manage': 'Create, edit and delete printers',
  'receipts.print': 'Print receipts and kitchen chits',
  'invoices.write': "Invoice a paid bill to a guest's RFC and issue the global invoice",
  'invoices.cancel': 'Cancel e-invoices (CFDI) with the SAT’s motive',
  'channels.read': 'See the delivery apps: their orders, state and last error',
  'channels.write': 'Pause the delivery apps, publish the menu to them and change their settings',
  'display.view': 'Be a customer display: pair to a till and show the bill it is taking payment for',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(name: string): name is Permission {
  return Object.hasOwn(PERMISSIONS, name);
}

/** The administrators' role: always every permission, including ones added after it was seeded. */
export const ADMIN_ROLE = 'admin';
/** The role of users created without one, as before roles existed. */
export const DEFAULT_ROLE = 'staff';

/** What a role's stored permission list grants; unknown names (a permission since removed) are dropped. */
export function grantedPermissions(roleName: string, stored: readonly string[]): ReadonlySet<Permission> {
  if (roleName === ADMIN_ROLE) return new Set(PERMISSION_NAMES);
  return new Set(stored.filter(isPermission));
}

/** Throws 403 `{"message":"Unauthorized API access"}` unless the caller's role holds `permission`. */
export function authorize(principal: Principal, permission: Permission): void {
  if (!principal.permissions.has(permission)) throw new ForbiddenError();
}

/** The stored permission list of a role row. */
export function parsePermissions(stored: string): string[] {
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
}
