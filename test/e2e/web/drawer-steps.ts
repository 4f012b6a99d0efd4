import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { printerAlertStrings } from '../../../web/src/components/printer-alert-strings';
import { closeShiftStrings } from '../../../web/src/screens/till/close-shift-strings';
import { drawerStrings } from '../../../web/src/screens/till/drawer-strings';

/**
 * Steps of the cashier's drawer, the printer alert and the kitchen's read-only screens (issue 35), in
 * either language of the app: the labels come from the screens' own string tables.
 */
export type Language = 'en' | 'es';

const SAVE_SETTINGS = { en: 'Save settings', es: 'Guardar ajustes' };
const SETTINGS_SAVED = { en: 'Settings saved.', es: 'Ajustes guardados.' };

/** The browser locale a tablet speaking the language has: the app follows it without anyone picking. */
export const LOCALE = { en: 'en-US', es: 'es-MX' } as const;

/** The manager turns on the blind count in the settings screen: cashiers count before they see the expected cash. */
export async function turnOnBlindClose(page: Page, language: Language): Promise<void> {
  await page.goto('/app/manager/settings');
  await page.locator('#settings-blind_shift_close').check();
  await page.getByRole('button', { name: SAVE_SETTINGS[language] }).click();
  await page.getByRole('status').filter({ hasText: SETTINGS_SAVED[language] }).waitFor();
}

/** With no shift open, the cashier counts the float into the drawer and opens her shift. */
export async function openShiftAtTill(page: Page, language: Language, float: string): Promise<void> {
  const t = drawerStrings[language];
  await page.goto('/app/till');
  await page.getByLabel(t.openingCash).fill(float);
  await page.getByRole('button', { name: t.openShift, exact: true }).click();
  await page.getByRole('heading', { name: closeShiftStrings[language].closeTitle }).waitFor();
}

/** Cash into the drawer (`in`) or out of it (`out`), with the reason; waits for it in the shift's list. */
export async function recordCashMovement(
  page: Page,
  language: Language,
  direction: 'in' | 'out',
  amount: string,
  reason: string,
): Promise<void> {
  const t = drawerStrings[language];
  const form = page.getByRole('form', { name: t.movementsTitle });
  await form.getByLabel(t.amount).fill(amount);
  await form.getByLabel(t.reason).fill(reason);
  await form.getByRole('button', { name: direction === 'in' ? t.cashIn : t.cashOut, exact: true }).click();
  await form.getByRole('list', { name: t.movements }).getByText(reason).waitFor();
}

/**
 * Under the blind count: the expected cash is hidden until she counts; she types what she counted and
 * closes. Returns the closed figures' text (expected, counted, difference).
 */
export async function closeShiftBlind(page: Page, language: Language, counted: string): Promise<string> {
  const t = closeShiftStrings[language];
  await page.getByText(t.expectedHidden).waitFor();
  await page.getByText(t.blindHint).waitFor();
  await page.getByLabel(t.countedCash).fill(counted);
  await page.getByRole('button', { name: t.closeButton }).click();
  const closed = page.getByRole('region', { name: t.closedTitle });
  await closed.waitFor();
  return closed.innerText();
}

/** The banner of a printer that does not print, as the kitchen and the till show it. */
export function printerAlert(
  page: Page,
  language: Language,
  printer: string,
  problem: 'unreachable' | 'outOfPaper' = 'unreachable',
): Locator {
  const text = printerAlertStrings[language][problem].replace('{name}', printer);
  return page.getByRole('alert').filter({ hasText: text });
}

/**
 * The queue tries each second and the screens hear of the printer on the live stream at once. Well under
 * their minute's backstop poll, so a screen that only polled fails here.
 */
export const PRINTER_ALERT_TIMEOUT_MS = 20_000;

export async function waitForPrinterAlert(
  page: Page,
  language: Language,
  printer: string,
  problem: 'unreachable' | 'outOfPaper' = 'unreachable',
): Promise<void> {
  await printerAlert(page, language, printer, problem).waitFor({ timeout: PRINTER_ALERT_TIMEOUT_MS });
}

/** Gone once its tickets print: whichever the problem was, in whichever language. */
export async function waitForPrinterAlertGone(page: Page, printer: string): Promise<void> {
  await page
    .locator('.banner-printer')
    .filter({ hasText: printer })
    .waitFor({ state: 'detached', timeout: PRINTER_ALERT_TIMEOUT_MS });
}

/**
 * A user without orders.write and payments.take (the kitchen) reads an order: no Till link, no menu to
 * add from, no Send, no prices or total. `currency` is a price that must not show.
 */
export async function assertOrderReadOnly(page: Page, orderId: string, price: string): Promise<void> {
  await page.goto(`/app/orders/${orderId}`);
  await page.locator('.order-dish-list').waitFor();
  assert.equal(await page.locator('.order-menu').count(), 0, 'no menu to add from');
  assert.equal(await page.locator('.order-total').count(), 0, 'no total');
  assert.equal(await page.locator('.order-dish-price').count(), 0, 'no prices');
  assert.equal(await page.locator('.order-bill').count(), 0, 'no link to the bill');
  assert.equal(await page.locator('.order-dishes .actions').count(), 0, 'no Send');
  assert.doesNotMatch(await page.locator('main').innerText(), new RegExp(price.replace('.', '\\.')));
}
