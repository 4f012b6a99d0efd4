import type { Permission } from './permissions';

/**
 * The one table of which permission each action needs, by the operationId of its route. The guard
 * checks it before the handler runs, the OpenAPI description of each operation names it, and the
 * permission tests are generated from it. Actions not listed (reads, mostly) need only a signed-in
 * user. A route may instead say `config: { permission }`; the table is for the routes that exist here.
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
  getDayReport: 'reports.read',

  listAuditEntries: 'audit.read',
  verifyAuditLog: 'audit.read',

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
  removeOrderDish: 'dishes.void',
  removeAllOrderDishes: 'dishes.void',
  sendOrderToKitchen: 'orders.write',
  moveOrderDishStatus: 'kitchen.advance',

  createTicket: 'tickets.write',
  cancelTicket: 'tickets.cancel',

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

/** The permission a route needs: its own `config.permission`, else the table's entry for its operationId. */
export function permissionOfRoute(
  operationId: string | undefined,
  declared: Permission | undefined,
): Permission | undefined {
  if (declared) return declared;
  return operationId === undefined ? undefined : ROUTE_PERMISSIONS[operationId];
}

/** Opens the OpenAPI description of a guarded operation. */
export function permissionNote(permission: Permission): string {
  return `Requires the \`${permission}\` permission.`;
}
