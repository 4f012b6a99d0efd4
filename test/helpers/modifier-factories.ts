import assert from 'node:assert/strict';
import type { Db } from '../../src/core/db/database';
import { insertDish } from './factories';
import type { Caller } from './orders-factories';

export type Option = { id: string; name: string; price_delta: number; available: boolean };
export type Group = { id: string; name: string; min_select: number; max_select: number; options: Option[] };

/** Creates a modifier group through the API and answers it as GET shows it. */
export async function createGroup(
  call: Caller,
  body: {
    name: string;
    min_select: number;
    max_select: number;
    options: { name: string; price_delta: number; available?: boolean }[];
  },
): Promise<Group> {
  const created = await call('POST', '/modifier-groups', body);
  assert.equal(created.statusCode, 201, created.body);
  return (await call('GET', `/modifier-groups/${created.json().id}`)).json();
}

/** Links groups to a dish through the API, keeping its name and price. */
export async function linkGroups(
  call: Caller,
  dish: { id: string; name: string; priceCents: number; categoryId: string },
  groups: Group[],
): Promise<void> {
  const response = await call('PUT', `/dishes/${dish.id}`, {
    name: dish.name,
    price: dish.priceCents / 100,
    category_id: dish.categoryId,
    modifier_group_ids: groups.map((group) => group.id),
  });
  assert.equal(response.statusCode, 200, response.body);
}

/**
 * Tacos al pastor at 30.00: a required tortilla (corn 0 or flour +5), up to two extras (pineapple
 * +10, cheese +7.50, no onion 0). The caller needs `menu.write`.
 */
export async function tacoMenu(call: Caller, db: Db) {
  const tortilla = await createGroup(call, {
    name: 'Tortilla',
    min_select: 1,
    max_select: 1,
    options: [
      { name: 'Corn', price_delta: 0 },
      { name: 'Flour', price_delta: 5 },
    ],
  });
  const extras = await createGroup(call, {
    name: 'Extras',
    min_select: 0,
    max_select: 2,
    options: [
      { name: 'Extra pineapple', price_delta: 10 },
      { name: 'Extra cheese', price_delta: 7.5 },
      { name: 'No onion', price_delta: 0 },
    ],
  });
  const tacos = await insertDish(db, { name: 'Tacos al pastor', priceCents: 3000 });
  await linkGroups(call, tacos, [tortilla, extras]);
  const [corn, flour] = tortilla.options as [Option, Option];
  const [pineapple, cheese, noOnion] = extras.options as [Option, Option, Option];
  return { tacos, tortilla, extras, corn, flour, pineapple, cheese, noOnion };
}

/**
 * The browser walks' menu, made through the API as a manager would: a kitchen category Tacos with
 * "Tacos al pastor" at 85 (a required tortilla, corn free and flour at `flourDelta`; extras up to
 * three, pineapple +10, linked in `groupOrder`), and a bar category Drinks with "Agua de jamaica" at 30.
 */
export async function tacoStandMenu(
  call: Caller,
  { flourDelta, groupOrder }: { flourDelta: number; groupOrder: 'tortilla first' | 'extras first' },
): Promise<{ tacosCategory: string; tortilla: string; extras: string }> {
  const create = async (url: string, body: unknown) => {
    const response = await call('POST', url, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json().id as string;
  };
  const tacosCategory = await create('/categories', { name: 'Tacos', type: 'dish', station: 'kitchen' });
  const drinks = await create('/categories', { name: 'Drinks', type: 'dish', station: 'bar' });
  const tortilla = await create('/modifier-groups', {
    name: 'Tortilla',
    min_select: 1,
    max_select: 1,
    options: [
      { name: 'Corn', price_delta: 0 },
      { name: 'Flour', price_delta: flourDelta },
    ],
  });
  const extras = await create('/modifier-groups', {
    name: 'Extras',
    min_select: 0,
    max_select: 3,
    options: [{ name: 'Extra pineapple', price_delta: 10 }],
  });
  await create('/dishes', {
    name: 'Tacos al pastor',
    price: 85,
    category_id: tacosCategory,
    modifier_group_ids: groupOrder === 'tortilla first' ? [tortilla, extras] : [extras, tortilla],
  });
  await create('/dishes', { name: 'Agua de jamaica', price: 30, category_id: drinks });
  return { tacosCategory, tortilla, extras };
}
