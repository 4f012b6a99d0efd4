import type { Ok } from '../../api/client';
import { shortCode } from '../../core/short-code';

export type Space = Ok<'/spaces', 'get'>[number];
export type Table = Ok<'/tables', 'get'>[number];
export type Order = Ok<'/orders/{id}', 'get'>;

/** What a table's tile shows of its open order. */
export type OpenOrder = {
  /** Integer cents: the app formats cents, the API speaks decimal numbers. */
  total: number;
  waiter: string;
  /** The order's short code, as its chit and the kitchen screen print it. */
  code: string;
  seatedAt: number;
  /** Only when the order carries a guest count; orders need not. */
  guests?: number;
  /**
   * Paid in full and still holding its table: until it closes itself (the server's
   * `close_paid_orders`) or the cashier closes it, the floor shows the table as paid, not occupied.
   */
  isPaid: boolean;
};

export function openOrderOf(order: Order): OpenOrder {
  const guests = (order as Order & { guests?: unknown }).guests;
  return {
    total: Math.round(order.total * 100),
    waiter: order.waiter,
    code: shortCode(order.id),
    seatedAt: Date.parse(order.created_at),
    // Who may not read bills (the kitchen) gets no paid or balance: for them a table is occupied.
    isPaid: (order.paid ?? 0) > 0 && (order.balance ?? 0) <= 0,
    ...(typeof guests === 'number' && guests > 0 && { guests }),
  };
}

/**
 * A table is occupied while an active order (pending, preparing or ready) holds it: the server sets
 * `status` occupied and `order_id` when the order opens, and available with a null `order_id` when
 * the order is completed, cancelled or deleted. The floor shows exactly that.
 */
export function isOccupied(table: Table): boolean {
  return table.status === 'occupied' && table.order_id !== null;
}

/** 7 → "7 min", 65 → "1 h 05": how long a table has been seated, at a glance. */
export function sinceLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
}

const collator = new Intl.Collator(undefined, { numeric: true });

export function sortTables(list: Table[]): Table[] {
  return [...list].sort((a, b) => collator.compare(a.name, b.name));
}

/** The floor's sections: each space with its tables, then the tables of no known space. */
export function groupBySpace(spaces: Space[], tables: Table[], otherName: string) {
  const known = new Set(spaces.map((space) => space.id));
  const sections = spaces
    .map((space) => ({
      id: space.id,
      name: space.name,
      tables: sortTables(tables.filter((table) => table.space_id === space.id)),
    }))
    .filter((section) => section.tables.length > 0);
  const others = tables.filter((table) => !known.has(table.space_id));
  if (others.length > 0) sections.push({ id: 'other', name: otherName, tables: sortTables(others) });
  return sections;
}
