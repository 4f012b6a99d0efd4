import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/core/db/database';
import type { Database } from '../../src/core/db/schema';
import { newId } from '../../src/core/ids';
import { hashPin } from '../../src/core/pin';
import { userNameKey } from '../../src/users/user-name';
import { TEST_PIN_KEY } from './app';

/**
 * Small factories that write straight to the database, so a test about orders does not depend on
 * the menu's HTTP routes. Every field has a sensible default; pass only what the test is about.
 */
const NOW = Date.UTC(2026, 10, 22, 18, 0, 0);
const unique = (prefix: string) => `${prefix} ${randomBytes(3).toString('hex')}`;

/** `role` names a role: admin, manager, cashier, waiter, kitchen, staff or one a test created. */
export type UserFixture = { id: string; name: string; pin: string; role: string };

export async function insertUser(
  db: Db,
  overrides: Partial<Pick<UserFixture, 'name' | 'pin' | 'role'>> = {},
): Promise<UserFixture> {
  const user: UserFixture = {
    id: newId(),
    name: overrides.name ?? unique('user'),
    pin: overrides.pin ?? '4321',
    role: overrides.role ?? 'staff',
  };
  await db
    .insertInto('users')
    .values({
      id: user.id,
      name: user.name,
      name_key: userNameKey(user.name),
      pin_hash: await hashPin(user.pin, TEST_PIN_KEY, user.name),
      pin_length: user.pin.length,
      role: user.role,
      wallet_password_hash: null,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  return user;
}

export async function insertCategory(
  db: Db,
  overrides: Partial<{ name: string; type: Database['categories']['type']; isDeleted: boolean }> = {},
): Promise<{ id: string; name: string; type: Database['categories']['type'] }> {
  const category = {
    id: newId(),
    name: overrides.name ?? unique('category'),
    type: overrides.type ?? 'dish',
  };
  await db
    .insertInto('categories')
    .values({ ...category, is_deleted: overrides.isDeleted ? 1 : 0, created_at: NOW, updated_at: NOW })
    .execute();
  return category;
}

export async function insertDish(
  db: Db,
  overrides: Partial<{ name: string; priceCents: number; categoryId: string }> = {},
): Promise<{ id: string; name: string; priceCents: number; categoryId: string }> {
  const categoryId = overrides.categoryId ?? (await insertCategory(db, { type: 'dish' })).id;
  const dish = {
    id: newId(),
    name: overrides.name ?? unique('dish'),
    priceCents: overrides.priceCents ?? 1250,
    categoryId,
  };
  await db
    .insertInto('dishes')
    .values({
      id: dish.id,
      name: dish.name,
      price_cents: dish.priceCents,
      category_id: categoryId,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  return dish;
}

export async function insertSpace(
  db: Db,
  overrides: Partial<{ name: string }> = {},
): Promise<{ id: string; name: string }> {
  const space = { id: newId(), name: overrides.name ?? unique('space') };
  await db
    .insertInto('spaces')
    .values({ ...space, created_at: NOW, updated_at: NOW })
    .execute();
  return space;
}

export async function insertTable(
  db: Db,
  overrides: Partial<{
    name: string;
    spaceId: string;
    status: Database['dining_tables']['status'];
    orderId: string;
  }> = {},
): Promise<{ id: string; name: string; spaceId: string }> {
  const spaceId = overrides.spaceId ?? (await insertSpace(db)).id;
  const table = { id: newId(), name: overrides.name ?? unique('table'), spaceId };
  await db
    .insertInto('dining_tables')
    .values({
      id: table.id,
      name: table.name,
      space_id: spaceId,
      status: overrides.status ?? 'available',
      order_id: overrides.orderId ?? null,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  return table;
}

/** An order row as the orders service would leave it; occupies its table when active. */
export async function insertOrder(
  db: Db,
  overrides: Partial<{
    userId: string;
    tableId: string | null;
    status: Database['orders']['status'];
    totalCents: number;
    createdAt: number;
  }> = {},
): Promise<{ id: string; userId: string; tableId: string | null }> {
  const userId = overrides.userId ?? (await insertUser(db)).id;
  const status = overrides.status ?? 'pending';
  const order = { id: newId(), userId, tableId: overrides.tableId ?? null };
  await db
    .insertInto('orders')
    .values({
      id: order.id,
      user_id: userId,
      table_id: order.tableId,
      waiter: 'Test waiter',
      status,
      total_cents: overrides.totalCents ?? 0,
      created_at: overrides.createdAt ?? NOW,
      updated_at: overrides.createdAt ?? NOW,
    })
    .execute();
  if (order.tableId && ['pending', 'preparing', 'ready'].includes(status)) {
    await db
      .updateTable('dining_tables')
      .set({ status: 'occupied', order_id: order.id })
      .where('id', '=', order.tableId)
      .execute();
  }
  return order;
}
