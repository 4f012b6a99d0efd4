import { randomUUID } from 'node:crypto';

/**
 * What sending plates runs in our kitchen and inventory services (src/kitchen/kitchen.service.ts
 * sendOrder, src/printing/kitchen-chits.ts, src/inventory/recipes.repo.ts findPlateRecipes,
 * src/inventory/stock.repo.ts applyMovement, src/inventory/stock.service.ts recordSales and
 * moveStock), checked against the SQL our server logged for one loop, with `?` placeholders.
 */
export const SEND_SQL = {
  sendPending: 'update order_dishes set status = ?, sent_at = ? where order_id = ? and status = ?',
  /** lockKitchenPrinters; `for update` on PostgreSQL. The rush has no printer, so nothing is queued. */
  kitchenPrinters: 'select * from printers where role = ? order by created_at, id',
  /** The one statement that changes stock, under the item's row lock. */
  moveIngredient: `update ingredients set stock = stock + ?, stock_moves = stock_moves + 1,
    stock_moved_at = case when stock_moved_at > ? then stock_moved_at else ? end
    where id = ? returning name, stock, reorder_level, stock_moves as seq, stock_moved_at as at`,
  /** nextOrdinal: where the movement comes in the order they were entered. */
  lastMovementOrdinal: 'select max(ordinal) as last from "stock_movements"',
  insertMovement: `insert into stock_movements (id, ordinal, item_type, item_id, seq, delta, stock_after, reason,
    order_dish_id, user_id, note, at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
} as const;

const list = (count: number) => Array(count).fill('?').join(', ');

/** findPlateRecipes: the dishes' recipe lines of these plates, then their options'. */
export const PLATE_RECIPES_SQL = {
  fromDishes: (count: number) => `select od.id as order_dish_id, r.dish_id, r.option_id, r.ingredient_id,
    r.product_id, r.quantity from order_dishes as od inner join recipe_lines as r on r.dish_id = od.dish_id
    where od.id in (${list(count)})`,
  fromOptions: (count: number) => `select m.order_dish_id, r.dish_id, r.option_id, r.ingredient_id,
    r.product_id, r.quantity from order_dish_modifiers as m inner join recipe_lines as r on r.option_id = m.option_id
    where m.order_dish_id in (${list(count)})`,
};

export type RecipeRow = {
  order_dish_id: string;
  ingredient_id: string | null;
  product_id: string | null;
  quantity: number | string;
};

export type SaleMovement = { itemId: string; orderDishId: string; delta: number };

/**
 * recordSales and moveStock's order, for the rush's recipes (ingredients only): one movement per
 * plate and item, applied in item order (so two sends queue instead of deadlocking).
 */
export function saleMovements(lines: RecipeRow[]): SaleMovement[] {
  const perPlateItem = new Map<string, SaleMovement>();
  for (const line of lines) {
    const itemId = (line.ingredient_id ?? line.product_id) as string;
    const key = `${line.order_dish_id} ingredient:${itemId}`;
    const movement = perPlateItem.get(key);
    if (movement) movement.delta -= Number(line.quantity);
    else perPlateItem.set(key, { itemId, orderDishId: line.order_dish_id, delta: -Number(line.quantity) });
  }
  return [...perPlateItem.values()].sort((a, b) => (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0));
}

export type MovedRow = {
  name: string;
  stock: number | string;
  reorder_level: number | string;
  seq: number | string;
  at: number | string;
};

/** The values of SEND_SQL.insertMovement for a sale, after the last ordinal SEND_SQL.lastMovementOrdinal read. */
export function movementValues(
  movement: SaleMovement,
  moved: MovedRow,
  userId: string,
  last: { last: number | string | null } | undefined,
): unknown[] {
  return [
    randomUUID(),
    Number(last?.last ?? 0) + 1,
    'ingredient',
    movement.itemId,
    Number(moved.seq),
    movement.delta,
    Number(moved.stock),
    'sale',
    movement.orderDishId,
    userId,
    '',
    Number(moved.at),
  ];
}

/** Per item moved, what its `stock.moved` event says (announceStock); `stock.low` only on a crossing. */
export class StockChanges {
  private readonly items = new Map<string, { moved: MovedRow; delta: number; before: number }>();

  add(movement: SaleMovement, moved: MovedRow): void {
    const change = this.items.get(movement.itemId);
    if (change) {
      change.moved = moved;
      change.delta += movement.delta;
    } else {
      const before = Number(moved.stock) - movement.delta;
      this.items.set(movement.itemId, { moved, delta: movement.delta, before });
    }
  }

  events(): { type: string; data: unknown }[] {
    return [...this.items.entries()].flatMap(([itemId, change]) => {
      const stock = Number(change.moved.stock);
      const reorderLevel = Number(change.moved.reorder_level);
      const data = {
        item_type: 'ingredient',
        item_id: itemId,
        name: change.moved.name,
        stock: stock / 1000,
        delta: change.delta / 1000,
        reorder_level: reorderLevel / 1000,
        reason: 'sale',
      };
      const isLow = change.before > reorderLevel && stock <= reorderLevel;
      return [{ type: 'stock.moved', data }, ...(isLow ? [{ type: 'stock.low', data }] : [])];
    });
  }
}
