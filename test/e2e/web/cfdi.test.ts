import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it, type TestContext } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Locator, Page } from 'playwright-core';
import type { Db } from '../../../src/core/db/database';
import { FISCAL_JOB } from '../../../src/fiscal/fiscal-job';
import { login } from '../../helpers/auth';
import { billableOrder } from '../../helpers/checkout-factories';
import { databaseTargets } from '../../helpers/database';
import { insertUser } from '../../helpers/factories';
import {
  GUEST_CUSTOMER,
  paidBill,
  RESTAURANT_FISCAL,
  relogging,
  startPacSimulator,
} from '../../helpers/fiscal-factories';
import type { PacSimulator } from '../../pac-sim/simulator';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startWebServer,
} from './browser';
import { englishOn } from './spanish-strings';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** 23:40 of Sunday 22 November 2026 in Mexico City (UTC−6): the payments' local day. */
const LATE_EVENING = Date.UTC(2026, 10, 23, 5, 40);
/** 00:10 of the next day there: the day of the payments has closed. */
const AFTER_MIDNIGHT = Date.UTC(2026, 10, 23, 6, 10);
const PAYMENTS_DAY = '2026-11-22';
/** An RFC of the right shape and check digit that the simulated SAT does not list. */
const UNREGISTERED = { rfc: 'XIA190128J61', legal_name: 'XENON INDUSTRIAL ARTICLES' };

/**
 * The clock moves past midnight, which outlives the 60 s access tokens: the screens' next requests are
 * refused (401) and sent again after a refresh. Chromium logs those refusals; nothing else may be logged.
 */
const AFTER_CLOCK_JUMP = /status of 401 \(Unauthorized\)/;
/** The refused RFC's answer, which Chromium logs as a failed resource. */
const REFUSED_INVOICE = /status of 400 \(Bad Request\) \(http:\/\/[\d.:]+\/tickets\/[0-9a-f-]+\/invoice\)$/;

/** The invoice form (till or guest page) filled with a customer's fiscal data and sent. */
async function sendInvoiceForm(form: Locator, customer: { rfc: string; legal_name: string }): Promise<void> {
  await form.getByLabel('RFC', { exact: true }).fill(customer.rfc);
  await form.getByLabel('Nombre o razón social').fill(customer.legal_name);
  await form.getByLabel('Régimen fiscal').selectOption(GUEST_CUSTOMER.tax_regime);
  await form.getByLabel('Código postal fiscal').fill(GUEST_CUSTOMER.postal_code);
  await form.getByLabel('Uso del CFDI').selectOption('G03');
  await form.getByRole('button', { name: 'Emitir la factura' }).click();
}

/** The PAC's own PDF of one of its invoices, to compare with what the screens hand out. */
async function pacPdf(sim: PacSimulator, invoiceId: string): Promise<Buffer> {
  const response = await fetch(`${sim.url}/invoices/${invoiceId}/pdf`, {
    headers: { authorization: `Bearer ${sim.key}` },
  });
  assert.equal(response.status, 200);
  return Buffer.from(await response.arrayBuffer());
}

/** Clicks a download link and answers the file the browser saved. */
async function download(page: Page, link: Locator): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return readFile((await file.path()) ?? '');
}

/**
 * La Esquina in Mexico City, prices with IVA included: its admin's calls (signing in again as the
 * clock moves past midnight, which outlives a session) and its manager.
 */
async function laEsquina(app: FastifyInstance, db: Db) {
  const admin = await insertUser(db, { role: 'admin', name: 'Olga' });
  const manager = await insertUser(db, { role: 'manager', name: 'Marta', pin: '2468' });
  const call = relogging(app, { user: admin, cookies: await login(app, admin.name, admin.pin) });
  const business = await call('PUT', '/settings', {
    business_name: 'La Esquina',
    tax_rate: 16,
    prices_include_tax: true,
    timezone: 'America/Mexico_City',
  });
  assert.equal(business.statusCode, 200, business.body);
  return { manager, call };
}

/** A Spanish screen: no serious accessibility violation, no string of the English tables, a screenshot. */
async function checkScreen(page: Page, name: string): Promise<void> {
  await assertAccessible(page, name);
  assert.deepEqual(await englishOn(page), [], `${name}: English on a Spanish screen`);
  await saveScreenshot(page, name);
}

describe('web app: e-invoicing (CFDI) in Spanish', { skip: skipWithoutChromium }, () => {
  it('turns invoicing on, invoices a bill at the till, issues the day’s global invoice and lets a guest invoice from the phone', async (t) => {
    let serverClock: { now: () => number } | undefined;
    const { sim, env } = await startPacSimulator(t, () => (serverClock ?? Date).now());
    const { app, db, baseUrl, clock } = await startWebServer(t, target, { withGuestLinks: true, env });
    serverClock = clock;
    clock.set(LATE_EVENING);
    const { manager, call } = await laEsquina(app, db);
    const cashier = await insertUser(db, { role: 'cashier', name: 'Carla', pin: '5678' });
    const browser = await launchBrowser(t);

    // 1. The manager fills the restaurant's fiscal data in Gerencia › Facturación and turns it on.
    const office = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await office.page
      .getByRole('navigation', { name: 'Pantallas' })
      .getByRole('link', { name: 'Gerencia' })
      .click();
    await office.page
      .getByRole('navigation', { name: 'Secciones de gerencia' })
      .getByRole('link', { name: 'Facturación' })
      .click();
    const settings = office.page.getByRole('form', { name: 'Facturación electrónica' });
    await settings.getByLabel('Emitir facturas electrónicas (CFDI) con el PAC').check();
    await settings.getByLabel('RFC del restaurante').fill(RESTAURANT_FISCAL.rfc);
    await settings.getByLabel('Nombre o razón social').fill(RESTAURANT_FISCAL.legal_name);
    await settings.getByLabel('Régimen fiscal').selectOption(RESTAURANT_FISCAL.tax_regime);
    await settings.getByLabel('Código postal fiscal').fill(RESTAURANT_FISCAL.postal_code);
    await settings.getByRole('button', { name: 'Guardar facturación' }).click();
    await settings.getByRole('status').getByText('Facturación guardada.').waitFor();
    await office.page.getByRole('heading', { name: 'Factura global' }).waitFor();
    await office.page.getByText('Aún no cierra ningún periodo.').waitFor();
    assert.equal((await call('GET', '/settings/fiscal')).json().enabled, true);
    await checkScreen(office.page, 'cfdi-manager-settings');

    // 2. A bill paid by card at the till; the cashier sees its receipt, then invoices it to the guest.
    clock.advance(1000);
    const first = await billableOrder(app, db, [12550, 3500]);
    const till = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.goto(`/app/till/${first.orderId}`);
    await till.page.getByRole('button', { name: /^Una cuenta por todo/ }).click();
    await till.page.getByRole('button', { name: 'Tarjeta', exact: true }).click();
    await till.page.getByRole('button', { name: /^Cobrar \$160\.50 con Tarjeta$/ }).click();
    await till.page.getByText('Cuenta 1 está pagada.').first().waitFor();
    const panel = till.page.getByRole('region', { name: 'Factura electrónica (CFDI)' });
    // The job makes the receipt within seconds; the test runs it now rather than wait for its timer.
    await panel.waitFor();
    await app.jobs.run(FISCAL_JOB);
    await panel.getByText('Ticket registrado: se puede facturar').waitFor();
    const selfInvoice = panel.getByRole('link', { name: 'Página de autofacturación' });
    assert.match((await selfInvoice.getAttribute('href')) ?? '', /^https:\/\/factura\.space\/demo\//);
    await panel.getByText('El cliente puede facturarlo ahí hasta el 30 de noviembre de 2026.').waitFor();
    await checkScreen(till.page, 'cfdi-till-receipt');

    // An RFC the SAT does not list: the refusal in Spanish, nothing invoiced.
    sim.addUnregistered(UNREGISTERED.rfc);
    await panel.getByRole('button', { name: 'Facturar' }).click();
    const tillForm = panel.getByRole('form', { name: 'Factura al RFC del cliente' });
    await sendInvoiceForm(tillForm, UNREGISTERED);
    await panel
      .getByRole('alert')
      .getByText('Este RFC no está en la lista de contribuyentes del SAT.')
      .waitFor();
    assert.deepEqual(sim.invoices(), []);
    await panel.getByText('Ticket registrado: se puede facturar').waitFor();
    await checkScreen(till.page, 'cfdi-till-refused');

    await sendInvoiceForm(tillForm, GUEST_CUSTOMER);
    await panel.getByText('Facturada', { exact: true }).waitFor();
    const [stamped] = sim.invoices();
    assert.ok(stamped);
    assert.equal(stamped.customer.tax_id, GUEST_CUSTOMER.rfc);
    assert.equal(stamped.total, 160.5);
    assert.equal(await panel.locator('code').textContent(), stamped.uuid);
    await panel.getByRole('status').getByText(`Factura ${stamped.uuid} emitida.`).waitFor();
    assert.equal(await tillForm.count(), 0, 'the form closes once invoiced');
    const pdf = await download(till.page, panel.getByRole('link', { name: 'PDF', exact: true }));
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(pdf.equals(await pacPdf(sim, stamped.id)), "the PAC's own PDF");
    const xml = await download(till.page, panel.getByRole('link', { name: 'XML', exact: true }));
    assert.match(xml.toString('utf8'), new RegExp(`UUID="${stamped.uuid?.toUpperCase()}"`));
    await checkScreen(till.page, 'cfdi-till-invoiced');

    // 3. A second bill nobody invoices; after midnight the manager issues the day's global invoice.
    const second = await paidBill({ app, db, admin: call }, { pricesCents: [9900], method: 'cash' });
    await app.jobs.run(FISCAL_JOB);
    assert.equal((await call('GET', `/tickets/${second.ticketId}/fiscal`)).json().status, 'receipt');
    clock.set(AFTER_MIDNIGHT);
    await office.page.reload();
    const global = office.page.getByRole('form', { name: 'Emitir la factura global ahora' });
    await global.getByLabel('Desde').fill(PAYMENTS_DAY);
    await global.getByLabel('Hasta').fill(PAYMENTS_DAY);
    await global.getByRole('button', { name: 'Emitir la factura global ahora' }).click();
    const issued = office.page.getByRole('status').filter({ hasText: /^Factura global / });
    await issued.waitFor();
    const globals = sim.invoices().filter((invoice) => invoice.customer.tax_id === 'XAXX010101000');
    assert.equal(globals.length, 1);
    const [globalInvoice] = globals;
    assert.ok(globalInvoice);
    assert.equal(globalInvoice.total, second.total);
    assert.equal(await issued.textContent(), `Factura global ${globalInvoice.uuid} emitida por $99.00.`);
    const period = office.page.locator('table.global-periods tbody tr');
    assert.equal(await period.count(), 1);
    assert.deepEqual(await period.locator('td').allInnerTexts(), [
      `${PAYMENTS_DAY} – ${PAYMENTS_DAY}`,
      'Emitida',
      globalInvoice.uuid,
      '$99.00',
    ]);
    await checkScreen(office.page, 'cfdi-manager-global');

    // 4. On a guest's phone: a bill of the PAC's self-invoice page, then one the guest invoices here.
    const guestLink = async (ticketId: string) => {
      const minted = await call('POST', `/tickets/${ticketId}/guest-link`);
      assert.equal(minted.statusCode, 201, minted.body);
      return minted.json().url as string;
    };
    const phone = await openDevice(browser, baseUrl, 'phone', 'es-MX');
    const withPacPage = await paidBill({ app, db, admin: call }, { pricesCents: [6000] });
    await app.jobs.run(FISCAL_JOB);
    await phone.page.goto(await guestLink(withPacPage.ticketId));
    const offer = phone.page.getByRole('region', { name: 'Factura (CFDI)' });
    const pacPage = offer.getByRole('link', { name: 'Solicitar factura' });
    assert.match((await pacPage.getAttribute('href')) ?? '', /^https:\/\/factura\.space\/demo\//);
    await offer.getByText('Puede solicitarla hasta el 30 de noviembre de 2026.').waitFor();
    await checkScreen(phone.page, 'cfdi-guest-pac-page');

    sim.setSelfInvoiceDomain(null);
    const third = await paidBill({ app, db, admin: call }, { pricesCents: [24000] });
    await app.jobs.run(FISCAL_JOB);
    await phone.page.goto(await guestLink(third.ticketId));
    await offer.getByRole('button', { name: 'Solicitar factura' }).click();
    const guestForm = offer.getByRole('form', { name: 'Factura al RFC del cliente' });
    await guestForm.getByLabel('RFC', { exact: true }).waitFor();
    await checkScreen(phone.page, 'cfdi-guest-form');
    await sendInvoiceForm(guestForm, GUEST_CUSTOMER);
    const ready = offer.getByRole('status').filter({ hasText: /^Su factura está lista\./ });
    await ready.waitFor();
    const guestInvoice = sim.invoices().find((invoice) => invoice.total === third.total);
    assert.ok(guestInvoice);
    assert.equal(await ready.textContent(), `Su factura está lista. Folio fiscal ${guestInvoice.uuid}.`);
    const guestPdf = await download(phone.page, offer.getByRole('link', { name: 'Descargar PDF' }));
    assert.ok(guestPdf.equals(await pacPdf(sim, guestInvoice.id)), "the PAC's own PDF");
    await offer.getByRole('link', { name: 'Descargar XML' }).waitFor();
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the guest page is ${width}px wide`);
    await checkScreen(phone.page, 'cfdi-guest-invoiced');

    assert.equal(till.consoleErrors.filter((error) => REFUSED_INVOICE.test(error)).length, 1);
    const unexpected = [...office.consoleErrors, ...till.consoleErrors].filter(
      (error) => !AFTER_CLOCK_JUMP.test(error) && !REFUSED_INVOICE.test(error),
    );
    assert.deepEqual(unexpected, []);
    assert.deepEqual(phone.consoleErrors, []);
  });
  it('cancels a guest’s invoice with a motive after confirming, issues the corrected one, lists every CFDI of the bill and keeps the customer off the guest link', async (t) => {
    // A guest invoiced the bill from the paper's QR; the manager finds a mistake in it.
    const { sim, app, baseUrl, clock, manager, call, bill, link, orderId } = await guestInvoicedBill(t);
    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(till.page, manager.name, manager.pin);
    await till.page.goto(`/app/till/${orderId}`);
    const openBill = () => till.page.getByRole('button', { name: 'Pagos y ticket de Cuenta 1' }).click();
    await openBill();
    const panel = till.page.getByRole('region', { name: 'Factura electrónica (CFDI)' });
    const cfdis = panel.getByRole('table', { name: 'CFDI de la cuenta' });
    await cfdis.getByText('Vigente').waitFor();

    await panel.getByRole('button', { name: 'Cancelar la factura' }).click();
    const dialog = till.page.getByRole('dialog');
    const motives = dialog.getByRole('radio');
    assert.deepEqual(
      await dialog.locator('label.choice').allInnerTexts(),
      [
        '01 · Comprobante emitido con errores con relación',
        '02 · Comprobante emitido con errores sin relación',
        '03 · No se llevó a cabo la operación',
        '04 · Operación nominativa relacionada en una factura global (solo para la factura global)',
      ],
      'the SAT’s motives in order',
    );
    assert.equal(await motives.nth(3).isDisabled(), true);
    await dialog.getByLabel(/^02 ·/).check();
    const [first] = sim.invoices();
    assert.ok(first);
    await dialog
      .getByText(`La factura con folio ${first.folio_number} se cancelará ante el SAT. No se puede deshacer.`)
      .waitFor();
    await checkScreen(till.page, 'cfdi-till-cancel-confirm');
    assert.equal(sim.invoices()[0]?.status, 'valid', 'nothing is canceled before the confirmation');
    await dialog.getByRole('button', { name: 'Sí, cancelar la factura' }).click();
    await panel.getByRole('status').getByText('La factura está cancelada.').waitFor();
    await cfdis.getByText('Cancelada (motivo 02)').waitFor();
    assert.equal(sim.invoices()[0]?.status, 'canceled');

    // The corrected invoice, from the bill itself: the PAC keeps the receipt invoiced.
    clock.advance(1000);
    await panel.getByRole('button', { name: 'Emitir la factura corregida' }).click();
    await sendInvoiceForm(panel.getByRole('form', { name: 'Factura al RFC del cliente' }), GUEST_CUSTOMER);
    await panel.getByText('Facturada', { exact: true }).waitFor();
    assert.equal(sim.invoices().length, 2);

    // A refund afterwards: its credit note joins the bill's CFDIs at the till.
    clock.advance(1000);
    const refund = await call('POST', `/payments/${bill.paymentId}/refund`, {
      amount: 35,
      reason: 'Bebida equivocada',
    });
    assert.equal(refund.statusCode, 201, refund.body);
    await app.jobs.run(FISCAL_JOB);
    await till.page.reload();
    await openBill();
    await cfdis.getByText('Nota de crédito').waitFor();
    const rows = cfdis.locator('tbody tr');
    assert.deepEqual(
      await rows.evaluateAll((found) => found.map((row) => row.getAttribute('data-cfdi-status'))),
      ['canceled', 'valid', 'valid'],
    );
    const note = sim.invoices().find((invoice) => invoice.type === 'E');
    assert.ok(note);
    const notePdf = await download(
      till.page,
      cfdis.getByRole('link', { name: `PDF · Nota de crédito ${note.folio_number}` }),
    );
    assert.ok(notePdf.equals(await pacPdf(sim, note.id)), "the PAC's own PDF of the credit note");
    await checkScreen(till.page, 'cfdi-till-cfdis');

    // Whoever else holds the paper's QR sees that the bill is invoiced, and nothing of the customer.
    const phone = await openDevice(browser, baseUrl, 'phone', 'es-MX');
    await phone.page.goto(link.url);
    const offer = phone.page.getByRole('region', { name: 'Factura (CFDI)' });
    await offer.getByText(/^Esta cuenta ya está facturada\./).waitFor();
    assert.equal(await offer.getByRole('link').count(), 0, 'no PDF or XML');
    assert.doesNotMatch(await phone.page.locator('body').innerText(), new RegExp(GUEST_CUSTOMER.rfc));
    await checkScreen(phone.page, 'cfdi-guest-already-invoiced');

    assert.deepEqual(till.consoleErrors, []);
    assert.deepEqual(phone.consoleErrors, []);
  });

  it('fits a paid, invoiced bill on a manager’s 390 px phone: its payments, the refund form and the cancel motives', async (t) => {
    const { sim, baseUrl, manager, orderId } = await guestInvoicedBill(t);
    assert.equal(sim.invoices().length, 1);

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl, 'phone', 'es-MX');
    const width = page.viewportSize()?.width ?? 0;
    assert.equal(width, 390);
    /** Nothing wider than the phone: no sideways scrolling, and each control named lies on screen. */
    const fitsThePhone = async (what: string, controls: Locator[]) => {
      const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
      // The innermost elements that reach past the right edge, to say what to fix.
      const overflowing = await page.evaluate((edge) => {
        const wide = Array.from(document.querySelectorAll('body *')).filter(
          (element) => element.getBoundingClientRect().right > edge,
        );
        return wide
          .filter((element) => !wide.some((other) => other !== element && element.contains(other)))
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
      }, width);
      assert.ok(
        scrollWidth <= width,
        `${what}: the page is ${scrollWidth} px wide: ${overflowing.join(', ')}`,
      );
      for (const control of controls) {
        const box = await control.boundingBox();
        assert.ok(box, `${what}: a control is not shown`);
        assert.ok(
          box.x >= 0 && box.x + box.width <= width,
          `${what}: a control lies at ${box.x}–${box.x + box.width} px`,
        );
      }
    };
    await logInThroughScreen(page, manager.name, manager.pin);
    await page.goto(`/app/till/${orderId}`);
    await page.getByRole('button', { name: 'Pagos y ticket de Cuenta 1' }).click();
    const payments = page.getByRole('region', { name: 'Pagos de Cuenta 1' });
    const refund = payments.getByRole('button', { name: /^Reembolsar / });
    await refund.waitFor();
    const panel = page.getByRole('region', { name: 'Factura electrónica (CFDI)' });
    const cancel = panel.getByRole('button', { name: 'Cancelar la factura' });
    await panel.getByRole('table', { name: 'CFDI de la cuenta' }).getByText('Vigente').waitFor();
    await fitsThePhone('the paid bill', [refund, cancel]);
    await saveScreenshot(page, 'till-paid-bill-phone');

    await refund.click();
    const refundForm = page.getByRole('form', { name: /^Reembolsar / });
    await refundForm.waitFor();
    await fitsThePhone('the refund form', [
      refundForm.getByRole('textbox').first(),
      refundForm.getByRole('button').last(),
    ]);
    await saveScreenshot(page, 'till-refund-phone');

    await cancel.click();
    const dialog = page.getByRole('dialog');
    const motives = dialog.getByRole('radio');
    await motives.first().waitFor();
    await fitsThePhone('the cancel motives', [
      ...(await motives.all()),
      ...(await dialog.locator('label.choice').all()),
    ]);
    await dialog.getByLabel(/^02 ·/).check();
    await fitsThePhone('the cancel confirmation', [
      dialog.getByRole('button', { name: 'Sí, cancelar la factura' }),
    ]);
    await checkScreen(page, 'cfdi-till-cancel-phone');
    assert.deepEqual(consoleErrors, []);
  });
});

/** La Esquina late in the evening with e-invoicing on, and a paid bill a guest invoiced from the paper's QR. */
async function guestInvoicedBill(t: TestContext) {
  let serverClock: { now: () => number } | undefined;
  const { sim, env } = await startPacSimulator(t, () => (serverClock ?? Date).now(), {
    selfInvoiceDomain: null,
  });
  const { app, db, baseUrl, clock } = await startWebServer(t, target, { withGuestLinks: true, env });
  serverClock = clock;
  clock.set(LATE_EVENING);
  const { manager, call } = await laEsquina(app, db);
  assert.equal((await call('PUT', '/settings/fiscal', RESTAURANT_FISCAL)).statusCode, 200);
  const bill = await paidBill({ app, db, admin: call }, { pricesCents: [12550, 3500] });
  await app.jobs.run(FISCAL_JOB);
  const link = (await call('POST', `/tickets/${bill.ticketId}/guest-link`)).json();
  const asked = await call('POST', `/guest/${link.token}/invoice`, { customer: GUEST_CUSTOMER, use: 'G03' });
  assert.equal(asked.statusCode, 201, asked.body);
  const orderId = (await call('GET', `/tickets/${bill.ticketId}`)).json().order_id as string;
  return { sim, app, db, baseUrl, clock, manager, call, bill, link, orderId };
}
