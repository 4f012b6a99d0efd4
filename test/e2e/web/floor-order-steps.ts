import type { Locator, Page } from 'playwright-core';

/**
 * Page-driving steps of the floor and order screens, in English, for the tests that walk a whole
 * service. They find things as a waiter does: by the words on the screen.
 */

/** The English label of each kitchen status badge on the order screen. */
export const DISH_STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  sent: 'Sent',
  preparing: 'Preparing',
  ready: 'Ready',
  served: 'Served',
  voided: 'Voided',
};

const TIMEOUT_MS = 15_000;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Shows the floor: through the navigation when another screen is open, as a waiter would. */
export async function goToFloor(page: Page): Promise<void> {
  if (new URL(page.url()).pathname !== '/app/floor') {
    await page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: 'Floor', exact: true })
      .click();
  }
  await page.getByRole('heading', { level: 1, name: 'Floor' }).waitFor();
}

/** A table's tile on the floor; its name reads "Table 4 Free" or "Table 4 Occupied $12.50". */
export function tableTile(
  page: Page,
  table: string,
  status?: 'Free' | 'Occupied' | 'Reserved' | 'Paid',
): Locator {
  const after = status ? ` ${status}` : '(\\s|$)';
  return page.getByRole('button', { name: new RegExp(`^Table ${escapeRegExp(table)}${after}`) });
}

/**
 * Taps a free table and answers its "how many guests" panel (left empty when `guests` is not given),
 * which opens the order screen.
 */
export async function openFreeTable(page: Page, table: string, guests?: number): Promise<void> {
  await tableTile(page, table, 'Free').click();
  if (guests !== undefined) await page.getByLabel('Guests (optional)').fill(String(guests));
  await page.getByRole('button', { name: 'Open table', exact: true }).click();
  await page.waitForURL(/\/app\/orders\/[^/]+$/, { timeout: TIMEOUT_MS });
}

/**
 * From any screen: moves the party at table `from` to the free table `to` through the floor's Move
 * panel; `onPanel` runs while the panel is shown, for a check or a screenshot of it.
 */
export async function moveParty(
  page: Page,
  from: string,
  to: string,
  onPanel?: () => Promise<void>,
): Promise<void> {
  await goToFloor(page);
  await page.getByRole('button', { name: `Move Table ${from}`, exact: true }).click();
  await page.getByRole('heading', { name: `Move table ${from} to a free table` }).waitFor();
  await onPanel?.();
  await page.getByRole('button', { name: `Table ${to}`, exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Table ${from} moved to table ${to}.` })
    .waitFor({ timeout: TIMEOUT_MS });
  await tableTile(page, from, 'Free').waitFor({ timeout: TIMEOUT_MS });
}

/**
 * From any screen: merges the party at table `from` into table `into` through the floor's Merge
 * panel of `into`; `onPanel` as for a move.
 */
export async function mergeTables(
  page: Page,
  into: string,
  from: string,
  onPanel?: () => Promise<void>,
): Promise<void> {
  await goToFloor(page);
  await page.getByRole('button', { name: `Merge Table ${into}`, exact: true }).click();
  await page.getByRole('heading', { name: `Merge another table into table ${into}` }).waitFor();
  await onPanel?.();
  await page.getByRole('button', { name: `Table ${from}`, exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Table ${from} merged into table ${into}.` })
    .waitFor({ timeout: TIMEOUT_MS });
  await tableTile(page, from, 'Free').waitFor({ timeout: TIMEOUT_MS });
}

/** A dish of the menu, by its exact name. */
export function menuDish(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: 'Menu' })
    .getByRole('button')
    .filter({ has: page.getByText(name, { exact: true }) });
}

/** The dishes ordered, one list item each. */
export function orderedDishes(page: Page): Locator {
  return page.getByRole('list', { name: 'Dishes ordered' }).getByRole('listitem');
}

/**
 * From the floor: opens the table (its open order, or a new one for `guests`), adds the dishes one by
 * one, each with its note if given, and sends them to the kitchen. Returns the order's id.
 */
export async function openTableAndOrder(
  page: Page,
  table: string,
  dishes: { name: string; note?: string }[],
  guests?: number,
): Promise<string> {
  await goToFloor(page);
  const tile = tableTile(page, table);
  const isFree = (await tile.getAttribute('data-status')) === 'free';
  if (isFree) await openFreeTable(page, table, guests);
  else await tile.click();
  await page.waitForURL(/\/app\/orders\/[^/]+$/, { timeout: TIMEOUT_MS });
  await page.getByRole('heading', { level: 1, name: `Table ${table}` }).waitFor({ timeout: TIMEOUT_MS });
  const orderId = new URL(page.url()).pathname.split('/').pop() as string;

  for (const dish of dishes) {
    const before = await orderedDishes(page).count();
    await page.getByLabel('Note for the next dish (optional)').fill(dish.note ?? '');
    await menuDish(page, dish.name).click();
    await orderedDishes(page).nth(before).waitFor({ timeout: TIMEOUT_MS });
  }

  await page.getByRole('button', { name: /^Send to kitchen/ }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Sent to the kitchen: \d+$/ })
    .waitFor({ timeout: TIMEOUT_MS });
  await waitForDishStatuses(page, 'Pending', 0);
  return orderId;
}

/**
 * On the order screen: waits until exactly `count` dishes show the status, by its English label
 * ("Sent", "Ready"…; the API's name, "sent", is taken too).
 */
export async function waitForDishStatuses(page: Page, status: string, count: number): Promise<void> {
  const label = DISH_STATUS_LABELS[status] ?? status;
  await page.getByRole('heading', { level: 2, name: 'Dishes ordered' }).waitFor({ timeout: TIMEOUT_MS });
  // Each badge reads "Status: Ready"; the first words are for screen readers only.
  const badges = page
    .getByRole('list', { name: 'Dishes ordered' })
    .locator('.dish-status')
    .filter({ hasText: new RegExp(`:\\s*${escapeRegExp(label)}$`) });
  const deadline = Date.now() + TIMEOUT_MS;
  let seen = await badges.count();
  while (seen !== count) {
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} dishes ${label}, the order screen shows ${seen}`);
    }
    await page.waitForTimeout(100);
    seen = await badges.count();
  }
}

/** On the floor (opened through the navigation if need be): waits until the table shows free. */
export async function expectTableFree(page: Page, table: string): Promise<void> {
  await goToFloor(page);
  await tableTile(page, table, 'Free').waitFor({ timeout: TIMEOUT_MS });
}

/** On the floor: waits until the table shows occupied. */
export async function expectTableOccupied(page: Page, table: string): Promise<void> {
  await goToFloor(page);
  await tableTile(page, table, 'Occupied').waitFor({ timeout: TIMEOUT_MS });
}

/**
 * On an order's screen: moves the first plate of each named dish to another open order through the
 * "Move plates…" panel (`to` as the panel names it, e.g. "Table 5 · Wen"), and waits for the notice.
 */
export async function movePlatesThroughScreen(page: Page, dishes: string[], to: string): Promise<void> {
  await page.getByRole('button', { name: 'Move plates…' }).click();
  const panel = page.getByRole('dialog', { name: 'Move plates to another order' });
  for (const dish of dishes) await panel.getByRole('checkbox', { name: dish }).first().check();
  await panel.getByLabel('To the order of').selectOption({ label: to });
  await panel.getByRole('button', { name: 'Move', exact: true }).click();
  await page
    .getByRole('status')
    .filter({ hasText: `Moved ${dishes.length} plates to ${to}` })
    .waitFor();
}
