import type { Permission } from './permissions';

/**
 * The one table of which permission each route needs, by its operationId. The guard checks it before
 * the handler runs and the OpenAPI description of each operation names it. Routes not listed (reads,
 * mostly) need only a signed-in user. What depends on the body (cancelling through a status, a void,
 * a price override, a discount) is in REQUEST_PERMISSIONS (request-permissions.ts). The tests hold
 * their own hand-written matrix of roles and actions, so an edit here shows there.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, Permission>> = {
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

  updateSettings: 'settings.write',
  getNetwork: 'settings.write',

  openShift: 'shifts.use',
  getCurrentShift: 'shifts.use',
  listShifts: 'shifts.use',
  getShift: 'shifts.use',
  addShiftCashMovement: 'shifts.use',
  closeShift: 'shifts.use',
  getShiftReport: 'shifts.use',

  getSalesReport: 'reports.read',
  getOpenBalances: 'reports.read',
  // The day's takings are a report too: not for the kitchen (issue 27).
  getTotalSales: 'reports.read',
  getDayReport: 'reports.read',

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
  moveOrder: 'orders.move',
  mergeOrders: 'orders.move',
  moveOrderDishes: 'orders.move',

  createTicket: 'tickets.write',
  cancelTicket: 'tickets.cancel',

  printTicketReceipt: 'receipts.print',
  listPrinters: 'printers.manage',
  getPrinter: 'printers.manage',
  createPrinter: 'printers.manage',
  updatePrinter: 'printers.manage',
  deletePrinter: 'printers.manage',
  listPrinterJobs: 'printers.manage',

  listWebhooks: 'webhooks.manage',
  getWebhook: 'webhooks.manage',
  createWebhook: 'webhooks.manage',
  updateWebhook: 'webhooks.manage',
  deleteWebhook: 'webhooks.manage',
  listWebhookDeliveries: 'webhooks.manage',
  retryWebhookDelivery: 'webhooks.manage',

  recordPayment: 'payments.take',
  requestLightningPayment: 'payments.take',
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
  declared: Permission | undefined,
): Permission | undefined {
  const tabled = operationId === undefined ? undefined : ROUTE_PERMISSIONS[operationId];
  // The guard stores the table's answer in the route's config, which a HEAD route copies from its GET.
  if (declared !== undefined && declared !== tabled) {
    throw new Error(`Route ${operationId ?? '(no operationId)'}: put its permission in ROUTE_PERMISSIONS`);
  }
  return tabled;
}

/** Opens the OpenAPI description of a guarded operation. */
export function permissionNote(permission: Permission): string {
  return `Requires the \`${permission}\` permission.`;
}
