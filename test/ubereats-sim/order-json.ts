import type { OrderItem, OrderOption, SimOrder } from './orders';

/** `{ amount, currency_code, formatted_amount }`: the amount in the minor unit, as the order reference shows. */
export function money(amount: number, currency: string) {
  const major = (Math.abs(amount) / 100).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return { amount, currency_code: currency, formatted_amount: `${amount < 0 ? '-' : ''}$${major}` };
}

function optionJson(option: OrderOption, itemQuantity: number, currency: string) {
  return {
    id: option.id,
    title: option.title,
    external_data: option.externalData,
    quantity: option.quantity,
    price: {
      unit_price: money(option.unitPrice, currency),
      total_price: money(option.unitPrice * option.quantity * itemQuantity, currency),
    },
  };
}

/** Options grouped under their modifier group, in the order the eater picked them. */
function modifierGroupsJson(item: OrderItem, currency: string) {
  const groups = new Map<string, { group: OrderOption['group']; options: OrderOption[] }>();
  for (const option of item.options) {
    const entry = groups.get(option.group.id) ?? { group: option.group, options: [] };
    entry.options.push(option);
    groups.set(option.group.id, entry);
  }
  return [...groups.values()].map(({ group, options }) => ({
    id: group.id,
    title: group.title,
    external_data: group.externalData,
    selected_items: options.map((option) => optionJson(option, item.quantity, currency)),
    removed_items: [],
  }));
}

export function itemTotal(item: OrderItem): number {
  const optionsPerUnit = item.options.reduce((sum, option) => sum + option.unitPrice * option.quantity, 0);
  return (item.unitPrice + optionsPerUnit) * item.quantity;
}

function itemJson(item: OrderItem, currency: string) {
  return {
    id: item.id,
    instance_id: item.instanceId,
    title: item.title,
    external_data: item.externalData,
    quantity: item.quantity,
    price: {
      unit_price: money(item.unitPrice, currency),
      total_price: money(item.unitPrice * item.quantity, currency),
      base_unit_price: money(item.unitPrice, currency),
      base_total_price: money(item.unitPrice * item.quantity, currency),
    },
    selected_modifier_groups: modifierGroupsJson(item, currency),
    special_instructions: item.specialInstructions,
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** `GET /v2/eats/order/{order_id}` in the shape of the Get Order Details reference. */
export function orderJson(order: SimOrder, store: { id: string; name: string }) {
  const subTotal = order.items.reduce((sum, item) => sum + itemTotal(item), 0);
  const pickupAt =
    order.accepted?.pickupTime !== undefined
      ? order.accepted.pickupTime * 1000
      : order.placedAt + order.prepMinutes * 60_000;
  return {
    id: order.id,
    display_id: order.displayId,
    external_reference_id: order.accepted?.externalReferenceId ?? '',
    current_state: order.state,
    type: order.type,
    store: { id: store.id, name: store.name },
    eater: { first_name: order.eater.firstName, phone: order.eater.phone, phone_code: '' },
    eaters: [{ id: `${order.id}-eater`, first_name: order.eater.firstName }],
    cart: {
      items: order.items.map((item) => itemJson(item, order.currency)),
      special_instructions: order.specialInstructions,
    },
    payment: {
      charges: {
        total: money(subTotal + order.taxAmount + order.feeAmount, order.currency),
        sub_total: money(subTotal, order.currency),
        tax: money(order.taxAmount, order.currency),
        total_fee: money(order.feeAmount, order.currency),
        total_fee_tax: money(0, order.currency),
        bag_fee: money(0, order.currency),
        cash_amount_due: money(0, order.currency),
      },
    },
    placed_at: iso(order.placedAt),
    estimated_ready_for_pickup_at: iso(pickupAt),
  };
}

/** An entry of the created-orders and canceled-orders lists. */
export function orderSummaryJson(order: SimOrder) {
  return { id: order.id, current_state: order.state, placed_at: iso(order.placedAt) };
}
