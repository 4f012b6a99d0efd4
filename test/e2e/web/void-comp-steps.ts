import type { Locator, Page } from 'playwright-core';

/**
 * Page-driving steps of voids and comps (issue 35): on the order screen, at the till and in the
 * manager's day report. The screens speak English or Mexican Spanish; each step takes the words of
 * the tablet's language, so a whole-service walk in either can reuse them.
 */
export type VoidCompWords = {
  dishesOrdered: string;
  void: string;
  comp: string;
  reason: string;
  voidAction: string;
  compAction: string;
  managerName: string;
  managerPin: string;
  voided: (dish: string) => string;
  comped: (dish: string) => string;
  makeBills: string;
  compBill: string;
  discountReason: string;
  billWhole: RegExp;
  dayReport: string;
  day: string;
};

export const VOID_COMP_WORDS: Record<'en' | 'es', VoidCompWords> = {
  en: {
    dishesOrdered: 'Dishes ordered',
    void: 'Void',
    comp: 'Comp',
    reason: 'Reason',
    voidAction: 'Void',
    compAction: 'Comp',
    managerName: "Manager's name",
    managerPin: "Manager's PIN",
    voided: (dish) => `${dish} voided`,
    comped: (dish) => `${dish} comped`,
    makeBills: 'Make bills',
    compBill: 'Comp the bill',
    discountReason: 'Reason for the discount',
    billWhole: /^One bill for everything/,
    dayReport: 'Day report (X/Z of the restaurant)',
    day: 'Day',
  },
  es: {
    dishesOrdered: 'Platillos pedidos',
    void: 'Anular',
    comp: 'Cortesía',
    reason: 'Motivo',
    voidAction: 'Anular',
    compAction: 'Dar cortesía',
    managerName: 'Nombre del gerente',
    managerPin: 'PIN del gerente',
    voided: (dish) => `Se anuló ${dish}`,
    comped: (dish) => `Cortesía de ${dish}`,
    makeBills: 'Hacer cuentas',
    compBill: 'Cortesía de la cuenta',
    discountReason: 'Motivo del descuento',
    billWhole: /^Una cuenta por todo/,
    dayReport: 'Informe del día (X/Z del restaurante)',
    day: 'Día',
  },
};

/** A manager's name and PIN, typed on someone else's tablet; absent when the user's own role may. */
export type Approval = { name: string; pin: string };

/** The plate of the order screen with this dish name (the first, when the order has two). */
export function plateRow(page: Page, words: VoidCompWords, dish: string): Locator {
  return page
    .getByRole('list', { name: words.dishesOrdered })
    .getByRole('listitem')
    .filter({ has: page.getByText(dish, { exact: true }) })
    .first();
}

/**
 * On the order screen: opens the plate's Void or Comp dialog, types the reason and, when given, the
 * manager's name and PIN, and confirms. Leaves the dialog open (for a refusal to be read) when
 * `expectDone` is false; otherwise waits for the screen's notice.
 */
export async function adjustPlate(
  page: Page,
  words: VoidCompWords,
  step: { dish: string; kind: 'void' | 'comp'; reason: string; approval?: Approval; expectDone?: boolean },
): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  if (!(await dialog.isVisible())) {
    const label = step.kind === 'void' ? words.void : words.comp;
    await plateRow(page, words, step.dish)
      .getByRole('button', { name: `${label} ${step.dish}`, exact: true })
      .click();
    await dialog.waitFor();
  }
  await dialog.getByLabel(words.reason, { exact: true }).fill(step.reason);
  if (step.approval) {
    await dialog.getByLabel(words.managerName).fill(step.approval.name);
    await dialog.getByLabel(words.managerPin).fill(step.approval.pin);
  }
  await dialog
    .getByRole('button', { name: step.kind === 'void' ? words.voidAction : words.compAction, exact: true })
    .click();
  if (step.expectDone === false) return dialog;
  const done = step.kind === 'void' ? words.voided(step.dish) : words.comped(step.dish);
  await page.getByRole('status').filter({ hasText: done }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  return dialog;
}

/**
 * At the till (`/app/till/{orderId}`): "Comp the bill" with its reason (and a manager's approval when
 * given), then one bill for everything; waits until the bill is made. `onFilled` runs with the form
 * filled in, for a check or a screenshot.
 */
export async function compWholeBill(
  page: Page,
  words: VoidCompWords,
  step: { orderId: string; reason: string; approval?: Approval; onFilled?: () => Promise<void> },
): Promise<void> {
  await page.goto(`/app/till/${step.orderId}`);
  await page.getByRole('heading', { name: words.makeBills }).waitFor();
  await page.getByRole('button', { name: words.compBill }).click();
  await page.getByLabel(words.discountReason).fill(step.reason);
  if (step.approval) {
    await page.getByLabel(words.managerName).fill(step.approval.name);
    await page.getByLabel(words.managerPin).fill(step.approval.pin);
  }
  await step.onFilled?.();
  await page.getByRole('button', { name: words.billWhole }).click();
  await page.getByRole('button', { name: words.billWhole }).waitFor({ state: 'detached' });
}

/** The manager's day report of that day (the server's date, not the browser's). */
export async function openDayReport(page: Page, words: VoidCompWords, date: string): Promise<Locator> {
  await page.goto('/app/manager/sales');
  await page.getByLabel(words.day, { exact: true }).fill(date);
  const report = page.locator('section.day-report');
  await report.getByRole('heading', { name: words.dayReport }).waitFor();
  return report;
}

/** A section of the day report: `voids`, `comps` or `other_discounts`. */
export function adjustmentSection(report: Locator, kind: 'voids' | 'comps' | 'other_discounts'): Locator {
  return report.locator(`section.day-adjustments[data-kind="${kind}"]`);
}
