import type { Principal } from '../core/auth-guard';
import { ForbiddenError } from '../core/errors';
import type { Permission } from './permissions';

/** One permission, or a list of which the caller needs any one. */
export type RoutePermission = Permission | readonly Permission[];

/**
 * Bills and payments are money: read by who takes payments or reads reports, never the kitchen (issue
 * 35). The same rule hides what bills say inside other records (an order's paid and balance) and the
 * live stream's bills (events.routes.ts).
 */
export const MONEY_READ: readonly Permission[] = ['payments.take', 'reports.read'];

/** Whose screens warn of a printer that is not printing: the kitchen's, the till's, the floor's. */
export const PRINTER_STATUS_READERS: readonly Permission[] = [
  'kitchen.advance',
  'payments.take',
  'receipts.print',
  'printers.manage',
];

/**
 * The one table of which permission each route needs, by its operationId. The guard checks it before
 * the handler runs and the OpenAPI description of each operation names it. Routes not listed (reads,
 * mostly) need only a signed-in user. What depends on the body (cancelling through a status, a void,
 * a price override, a discount) is in REQUEST_PERMISSIONS (request-permissions.ts). The tests hold
 * their own hand-written matrix of roles and actions, so an edit here shows there.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, RoutePermission>> = {
  listUsers: 'users.manage',
  getUser: 'users.manage',
  createUser: 'users.manage',
  updateUser: 'users.manage',
  deleteUser: 'users.manage',

  listRoles: 'roles.manage',
  getRole: 'roles.manage',
  createRole: 'roles.manage',
  updateRole: 'roles.manage',
  deleteRole: 'roles.manage',

  createGuestLink: 'payments.take',
  revokeGuestLinks: 'payments.take',

  // The card terminal charges at the till; which terminal is the default is a setting.
  chargeOnCardTerminal: 'payments.take',
  listTerminals: 'payments.take',
  setDefaultTerminal: 'settings.write',

  // The till shows a code and what it is showing; the customer display pairs and reads.
  createDisplayPairingCode: 'payments.take',
  setDisplayCurrent: 'payments.take',
  pairDisplay: 'display.view',
  getDisplayCurrent: 'display.view',

  updateSettings: 'settings.write',
  getNetwork: 'settings.write',

  openShift: 'shifts.use',
  getCurrentShift: 'shifts.use',
  listShifts: 'shifts.use',
  getShift: 'shifts.use',
  addShiftCashMovement: 'shifts.use',
  closeShift: 'shifts.use',
  getShiftReport: 'shifts.use',
  printShiftReport: 'shifts.use',

  getSalesReport: 'reports.read',
  getOpenBalances: 'reports.read',
  // The day's takings are a report too: not for the kitchen (issue 27).
  getTotalSales: 'reports.read',
  getDayReport: 'reports.read',
  printDayReport: 'reports.read',
  getDashboard: 'reports.read',
  getFiscalReport: 'reports.read',

  updateFiscalSettings: 'settings.write',

  listChannels: 'channels.read',
  pauseChannel: 'channels.write',
  resumeChannel: 'channels.write',
  updateChannelSettings: 'channels.write',
  syncChannelMenu: 'channels.write',
  acceptChannelOrder: 'orders.write',
  denyChannelOrder: 'orders.write',
  mapChannelOrderItems: 'orders.write',
  markChannelOrderReady: 'orders.write',
  getTicketFiscal: MONEY_READ,
  invoiceTicket: 'invoices.write',
  getInvoicePdf: ['invoices.write', 'reports.read'],
  getInvoiceXml: ['invoices.write', 'reports.read'],
  cancelInvoice: 'invoices.cancel',
  listGlobalInvoices: ['invoices.write', 'reports.read'],
  createGlobalInvoice: 'invoices.write',

  listStock: 'inventory.read',
  listLowStock: 'inventory.read',
  listStockMovements: 'inventory.read',
  getInventoryReport: 'inventory.read',
  recordStockMovement: 'inventory.write',
  recordStockCount: 'inventory.write',

  listAuditEntries: 'audit.read',
  verifyAuditLog: 'audit.read',
  acknowledgeAuditBreak: 'audit.acknowledge',

  createCategory: 'menu.write',
  updateCategory: 'menu.write',
  deleteCategory: 'menu.write',
  createDish: 'menu.write',
  updateDish: 'menu.write',
  deleteDish: 'menu.write',
  createIngredient: 'menu.write',
  updateIngredient: 'menu.write',
  deleteIngredient: 'menu.write',
  createProduct: 'menu.write',
  updateProduct: 'menu.write',
  deleteProduct: 'menu.write',
  createModifierGroup: 'menu.write',
  updateModifierGroup: 'menu.write',
  deleteModifierGroup: 'menu.write',
  // The kitchen's "86": a cook or a waiter marks a dish sold out without the right to edit the menu.
  setDishAvailability: 'menu.availability',

  createSpace: 'floor.write',
  updateSpace: 'floor.write',
  deleteSpace: 'floor.write',
  createTable: 'floor.write',
  updateTable: 'floor.write',
  deleteTable: 'floor.write',

  // Who asks a manager to approve a void or a discount is working an order: a waiter, a cashier.
  approveAction: 'orders.write',

  createOrder: 'orders.write',
  createOrderWithDishes: 'orders.write',
  updateOrder: 'orders.write',
  closeOrder: 'orders.write',
  calculateOrderTotal: 'orders.write',
  addOrderDishes: 'orders.write',
  updateOrderDish: 'orders.write',
  deleteOrder: 'orders.cancel',
  // Taking back a plate not yet sent is editing the order; one the kitchen has is a void (voidDish).
  removeOrderDish: 'orders.write',
  removeAllOrderDishes: 'orders.write',
  sendOrderToKitchen: 'orders.write',
  moveOrderDishStatus: 'kitchen.advance',
  // Carrying a ready plate to the table is the floor's step of the kitchen flow (issue 23).
  serveOrderDish: 'orders.write',
  // Voiding is the floor's too; what it asks (dishes.void, or a manager's approval) is voidDish.
  voidOrderDish: 'orders.write',
  moveOrder: 'orders.move',
  mergeOrders: 'orders.move',
  moveOrderDishes: 'orders.move',

  createTicket: 'tickets.write',
  cancelTicket: 'tickets.cancel',
  listTickets: MONEY_READ,
  listOrderTickets: MONEY_READ,
  getTicket: MONEY_READ,
  listTicketPayments: MONEY_READ,
  getPayment: MONEY_READ,
  getTicketReceipt: MONEY_READ,

  printTicketReceipt: 'receipts.print',
  listPrinters: 'printers.manage',
  getPrinter: 'printers.manage',
  createPrinter: 'printers.manage',
  updatePrinter: 'printers.manage',
  deletePrinter: 'printers.manage',
  listPrinterJobs: 'printers.manage',
  // The kitchen and the till warn when a printer is off; they may not read its jobs (issue 35).
  listPrinterStatus: PRINTER_STATUS_READERS,

  listWebhooks: 'webhooks.manage',
  getWebhook: 'webhooks.manage',
  createWebhook: 'webhooks.manage',
  updateWebhook: 'webhooks.manage',
  deleteWebhook: 'webhooks.manage',
  listWebhookDeliveries: 'webhooks.manage',
  retryWebhookDelivery: 'webhooks.manage',

  recordPayment: 'payments.take',
  requestLightningPayment: 'payments.take',
  cancelLightningPayment: 'payments.take',
  createInvoice: 'payments.take',
  refundPayment: 'payments.refund',
  createPaymentMethod: 'payment_methods.manage',
  updatePaymentMethod: 'payment_methods.manage',

  unlockWallet: 'wallet.use',
  lockWallet: 'wallet.use',
  setWalletPassword: 'wallet.use',
  getNodeInfo: 'wallet.use',
  getBalance: 'wallet.use',
  payInvoice: 'wallet.use',
  payOffer: 'wallet.use',
  payOnchain: 'wallet.use',
  bumpFee: 'wallet.use',
  listIncomingPayments: 'wallet.use',
  getIncomingPayment: 'wallet.use',
  listOutgoingPayments: 'wallet.use',
  getOutgoingPayment: 'wallet.use',
  getOutgoingPaymentByHash: 'wallet.use',
};

/**
 * The permission a route needs: the table's entry for its operationId. A route that declares its own
 * `config.permission` stops the start-up, so no permission lives outside the table.
 */
export function permissionOfRoute(
  operationId: string | undefined,
  declared: RoutePermission | undefined,
): RoutePermission | undefined {
  const tabled = operationId === undefined ? undefined : ROUTE_PERMISSIONS[operationId];
  // The guard stores the table's answer in the route's config, which a HEAD route copies from its GET.
  if (declared !== undefined && declared !== tabled) {
    throw new Error(`Route ${operationId ?? '(no operationId)'}: put its permission in ROUTE_PERMISSIONS`);
  }
  return tabled;
}

/** Opens the OpenAPI description of a guarded operation. */
export function permissionNote(permission: RoutePermission): string {
  if (typeof permission === 'string') return `Requires the \`${permission}\` permission.`;
  return `Requires one of the permissions ${permission.map((name) => `\`${name}\``).join(', ')}.`;
}

/** Whether the caller's role holds the permission (any one of a list). */
export function holdsPermission(principal: Principal, permission: RoutePermission): boolean {
  const needed = typeof permission === 'string' ? [permission] : permission;
  return needed.some((name) => principal.permissions.has(name));
}

/** Throws 403 `{"message":"Unauthorized API access"}` unless the caller's role holds the route's permission (any one of a list). */
export function authorizeRoute(principal: Principal, permission: RoutePermission): void {
  if (!holdsPermission(principal, permission)) throw new ForbiddenError();
}
