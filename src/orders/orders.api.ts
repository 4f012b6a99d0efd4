/** What the other features may use of orders: the rest of src/orders/ is its own (docs/architecture.md). */
export {
  type ChannelOrderInput,
  claimChannelOrdersToCheck,
  findChannelOrder,
  findChannelOrdersKitchenDone,
  insertChannelOrder,
  remapHeldOrder,
  setChannelState,
  stopCheckingChannelOrder,
} from './channel-orders';
export { type ChannelLine, heldCartOf } from './held-cart';
export { findBilledDishIds, findLiveTicketsOfOrder, lockLiveOrderOfBill } from './order-bills.repo';
export { completeOrder } from './order-completion';
export type { OrderDishDetail } from './order-dishes.repo';
export { findLiveOrderWithDishes, findModifierChoices } from './order-dishes.repo';
export { recordDishesChanged } from './order-events';
export { assertDishesCanChange, isActive } from './order-status';
export { orderBalanceCents, toOrderDishView } from './order-views';
export type { OrderRow } from './orders.repo';
export { findLiveOrder, lockLiveOrder, recalculateTotal } from './orders.repo';
export { FACT_COVERS, refreshSalesFacts } from './sales-facts';
