import type { Locator, Page } from 'playwright-core';
import type { PhoenixdSimulator } from '../../phoenixd-sim/simulator';

/**
 * Page-driving steps of the kitchen and till screens, shared by their own test and the
 * whole-service walk. They use what a person sees (roles and labels) where that names one thing,
 * and the data attributes of the kitchen cards to follow one dish.
 */

/** How long a sent dish may take to appear on the kitchen screen: the walk asserts about 1 s. */
const APPEAR_MS = 3_000;

function kitchenUrl(station: string): string {
  return station === 'kitchen' ? '/app/kitchen' : `/app/kitchen?station=${encodeURIComponent(station)}`;
}

/**
 * On the station's screen (opened unless it is already shown), waits until `count` plates not yet
 * ready are shown and taps their lines to ready (sent → preparing → ready); a line of like plates
 * ("2 × Beer") moves all its plates at once, so it may make more than `count` ready.
 */
export async function markDishesReady(page: Page, station: string, count: number): Promise<void> {
  const current = new URL(page.url(), 'http://localhost');
  if (current.pathname !== '/app/kitchen' || (current.searchParams.get('station') ?? 'kitchen') !== station) {
    await page.goto(kitchenUrl(station));
  }
  const notReady = page.locator('.kitchen-dish:not([data-status="ready"])');
  const platesOf = (lines: typeof notReady) =>
    lines.evaluateAll((cards) => cards.map((card) => (card.getAttribute('data-ids') ?? '').split(' ')));
  await page.waitForFunction(
    (wanted) =>
      Array.from(document.querySelectorAll('.kitchen-dish:not([data-status="ready"])')).reduce(
        (plates, card) => plates + (card.getAttribute('data-ids') ?? '').split(' ').length,
        0,
      ) >= wanted,
    count,
    { timeout: APPEAR_MS },
  );
  const lines: string[] = [];
  let plates = 0;
  for (const ids of await platesOf(notReady)) {
    if (plates >= count) break;
    lines.push(ids[0] as string);
    plates += ids.length;
  }
  for (const id of lines) await readyLine(page, id);
}

/** Taps the line holding this plate until it is ready (sent → preparing → ready), with all its like plates. */
export async function readyLine(page: Page, plateId: string): Promise<void> {
  const line = lineOf(page, plateId);
  for (let taps = 0; taps < 2 && (await line.getAttribute('data-status')) !== 'ready'; taps++) {
    await line.locator('button.dish-advance').click();
    // The line's button is enabled again once the server answered the tap for every plate.
    await line.locator('button.dish-advance:enabled, button.dish-bump').waitFor();
    const alert = page.getByRole('alert');
    if (await alert.isVisible()) throw new Error(`The kitchen screen refused: ${await alert.textContent()}`);
  }
  // The screen shows the step at once; the line is busy until the server took it for every plate.
  await lineOf(page, plateId, 'ready').and(page.locator(':not([aria-busy="true"])')).waitFor();
}

/** The kitchen line holding this plate (lines list their plates' ids in `data-ids`). */
export function lineOf(page: Page, plateId: string, status?: string): Locator {
  const withStatus = status === undefined ? '' : `[data-status="${status}"]`;
  return page.locator(`.kitchen-dish[data-ids~="${plateId}"]${withStatus}`);
}

/** From any screen: opens the till's list of open orders through the navigation, then the table's order. */
export async function openTableAtTill(page: Page, table: string): Promise<void> {
  await page.getByRole('link', { name: 'Till' }).click();
  await page.getByRole('heading', { name: 'Till: open orders' }).waitFor();
  await page
    .getByRole('button')
    .filter({ has: page.getByText(`Table ${table}`, { exact: true }) })
    .click();
  await page.getByRole('heading', { level: 1, name: `Table ${table}` }).waitFor();
}

/**
 * Opens the order at the till, splits what is not billed yet evenly in two, pays the first part in
 * cash (tendering more than due, so change is given) and the second by Lightning, paid from outside
 * through the simulator; returns once the screen says the order is fully paid, by itself.
 */
export async function splitEvenlyAndPayCashAndLightning(
  page: Page,
  orderId: string,
  simulator: PhoenixdSimulator,
): Promise<void> {
  await page.goto(`/app/till/${orderId}`);
  await page.getByRole('heading', { name: 'Make bills' }).waitFor();
  await page.getByLabel('Number of parts').fill('2');
  await page.getByRole('button', { name: 'Split evenly', exact: true }).click();
  await page.getByRole('button', { name: 'Pay Bill 2' }).waitFor();

  await payFirstBillCash(page);

  await page.getByRole('button', { name: 'Pay Bill 2' }).click();
  const invoice = await showLightningInvoice(page);
  await simulator.receivePayment(invoice);
  await page.getByText('Paid with Lightning').waitFor({ timeout: 15_000 });
  await page.getByText('This order is fully paid.').waitFor({ timeout: 15_000 });
}

/**
 * Pays "Bill 1" (or the bill named) in cash, tendering 10.00 more than its balance; returns the notice with the change.
 * Where cash needs an open shift (settings `require_shift_for_cash`) and the cashier has none, the
 * till offers to open one with the drawer's cash (0.00) and then takes the payment.
 */
export async function payFirstBillCash(page: Page, bill = 'Bill 1'): Promise<string> {
  await page.getByRole('button', { name: `Pay ${bill}` }).click();
  await page.getByRole('button', { name: 'Cash', exact: true }).click();
  const received = page.getByLabel('Cash received');
  const due = Number((await received.inputValue()).replace(',', '.'));
  await received.fill((due + 10).toFixed(2));
  await page.getByRole('button', { name: 'Take cash' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Change to give' });
  const openShift = page.getByRole('button', { name: 'Open shift and take cash' });
  await notice.or(openShift).first().waitFor();
  if (await openShift.isVisible()) await openShift.click();
  await notice.waitFor();
  return (await notice.textContent()) ?? '';
}

/** With the Lightning method of the bill being paid chosen: waits for the QR code, returns the BOLT11. */
export async function showLightningInvoice(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Lightning', exact: true }).click();
  await page.getByRole('img', { name: 'QR code of the Lightning invoice' }).waitFor();
  return page.getByLabel('Invoice (BOLT11)').inputValue();
}

/**
 * On a fully paid order at the till: it closed itself with its last payment (`close_paid_orders`,
 * on by default), which freed its table; the till says so and offers the way back to the floor.
 */
export async function seeOrderClosedItself(page: Page): Promise<void> {
  await page.locator('.till-paid').getByText('Order closed: the table is free.').waitFor();
  await page.getByRole('button', { name: 'Back to the floor' }).waitFor();
}
