import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { login } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { insertSpace, insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import { launchBrowser, saveScreenshot, skipWithoutChromium, startPlainWebServer } from './browser';
import { englishTable, untranslated } from './spanish-strings';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];

const WEB_SOURCE = join(import.meta.dirname, '..', '..', '..', 'web', 'src');

/** What a person sees or hears: the text lines, and the names, hints and titles on elements. */
async function visibleTexts(page: Page): Promise<string[]> {
  const lines = (await page.locator('body').innerText()).split(/[\n\t]/);
  const attributes = await page
    .locator('[aria-label], [placeholder], [title], [alt]')
    .evaluateAll((elements) =>
      elements.flatMap((element) =>
        ['aria-label', 'placeholder', 'title', 'alt'].flatMap((name) => element.getAttribute(name) ?? []),
      ),
    );
  return [...lines, ...attributes];
}

async function logIn(page: Page, name: string, pin: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByLabel('PIN').fill(pin);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByRole('navigation', { name: 'Pantallas' }).waitFor();
}

/** Lets a screen load its data (the app keeps live streams open, so there is no network idle). */
async function settle(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.waitForTimeout(700);
}

describe('web app in Spanish (es-MX)', { skip: skipWithoutChromium }, () => {
  it('shows no string of the English tables on any screen an admin can reach', async (t) => {
    const { app, db, baseUrl } = await startPlainWebServer(t, target);
    const admin = await insertUser(db, { role: 'admin', name: 'Olga', pin: '2468' });
    await insertUser(db, { role: 'cashier', name: 'Lucía', pin: '1357' });
    await insertUser(db, { role: 'kitchen', name: 'Chuy', pin: '9753' });
    const call = callerFor(app, await login(app, admin.name, admin.pin));
    const create = async (url: string, body: unknown) => {
      const response = await call('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    // A service under way: a table with an order sent to the kitchen, one bill partly paid, a shift.
    const space = await insertSpace(db, { name: 'Terraza' });
    const table = await insertTable(db, { name: '5', spaceId: space.id });
    await insertTable(db, { name: '6', spaceId: space.id });
    const tacos = await create('/categories', { name: 'Tacos', type: 'dish' });
    const pastor = await create('/dishes', { name: 'Tacos al pastor', price: 125.5, category_id: tacos });
    const sopa = await create('/dishes', { name: 'Sopa de tortilla', price: 85, category_id: tacos });
    await create('/shifts', { opening_cash: 500 });
    const orderId = await create('/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: pastor }, { dish_id: sopa }],
    });
    const billId = await create(`/orders/${orderId}/tickets`, { amount: 100 });
    await create(`/tickets/${billId}/payments`, { method: 'card', amount: 50 });

    const browser = await launchBrowser(t);
    // The browser speaks Mexican Spanish: the app must follow it without anyone picking.
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: 1024, height: 768 },
      locale: 'es-MX',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const table_ = englishTable(WEB_SOURCE);
    const failures: string[] = [];
    const check = async (screen: string) => {
      await settle(page);
      const found = untranslated(await visibleTexts(page), table_);
      if (found.length > 0)
        failures.push(`${screen}: ${found.map((text) => JSON.stringify(text)).join(', ')}`);
      await saveScreenshot(page, `spanish-${screen}`);
    };

    await page.goto('/app/');
    await page.getByRole('button', { name: 'Olga', exact: true }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'es-MX');
    await check('login');
    await logIn(page, 'Olga', '2468');

    const screens = page.getByRole('navigation', { name: 'Pantallas' });
    await screens.getByRole('link', { name: 'Sala' }).click();
    await check('floor');
    // The floor's panels: where a party moves, and the guest count of a free table.
    await page.getByRole('button', { name: 'Cambiar Mesa 5', exact: true }).click();
    await page.getByRole('heading', { name: 'Cambiar la mesa 5 a una mesa libre' }).waitFor();
    await check('floor-move');
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByRole('button', { name: /^Mesa 6 Libre/ }).click();
    await page.getByLabel('Comensales (opcional)').waitFor();
    await check('floor-open');
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByRole('button', { name: /5/ }).first().click();
    await page.waitForURL(/\/app\/orders\//);
    await check('order');
    // The options panel of a dish: quantity, seat and course.
    await page.getByRole('button', { name: 'Cantidad, comensal y tiempo de Tacos al pastor' }).click();
    await page.getByRole('dialog', { name: 'Tacos al pastor' }).waitFor();
    await check('order-options');
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // The same panel changing a plate not yet sent: its choice prefilled, saved rather than added.
    await page.getByRole('button', { name: 'Editar Tacos al pastor' }).click();
    await page
      .getByRole('dialog', { name: 'Tacos al pastor' })
      .getByRole('button', { name: 'Guardar' })
      .waitFor();
    await check('order-edit');
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Enviar a cocina/ }).click();
    await page.getByText('Enviados a cocina: 2').waitFor();
    await screens.getByRole('link', { name: 'Cocina' }).click();
    await check('kitchen');
    await screens.getByRole('link', { name: 'Caja' }).click();
    await check('till');
    await page.goto(`/app/till/${orderId}`);
    await check('till-order');
    // The till's panels: pay a bill (each method, the charge button names it in Spanish), its payments.
    await page.getByRole('button', { name: 'Cobrar Cuenta 1' }).first().click();
    await page.getByRole('button', { name: 'Tarjeta', exact: true }).click();
    await page.getByRole('button', { name: /^Cobrar \$50\.00 con Tarjeta$/ }).waitFor();
    await check('till-pay-card');
    await page.getByRole('button', { name: 'Efectivo', exact: true }).click();
    await check('till-pay-cash');
    await page.getByRole('heading', { name: 'Pagos de Cuenta 1' }).waitFor();
    await check('till-payments');
    // Money in the restaurant's currency, Mexican style: $210.50 for the order.
    assert.match(await page.locator('body').innerText(), /\$210\.50/);
    await screens.getByRole('link', { name: 'Gerencia' }).click();
    const sections = page.getByRole('navigation', { name: 'Secciones de gerencia' }).getByRole('link');
    for (const href of await sections.evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    )) {
      await page.locator(`nav.manager-nav a[href="${href}"]`).click();
      await check(`manager-${href?.split('/').pop()}`);
    }
    // A refusal of the server, shown in Spanish: a space that still has tables cannot go.
    await page.locator('nav.manager-nav a[href="/app/manager/floor"]').click();
    await page.getByRole('button', { name: 'Borrar Terraza', exact: true }).click();
    await page.getByRole('button', { name: 'Confirmar borrado Terraza', exact: true }).click();
    await page.getByText('No se puede eliminar el espacio: tiene mesas.').waitFor();
    await check('manager-floor-refused');
    // The manager's panels: a role's form with the permissions, a shift's Z report.
    await page.locator('nav.manager-nav a[href="/app/manager/staff"]').click();
    await page.getByRole('button', { name: 'Editar Mesero' }).click();
    await check('manager-staff-edit-role');
    await page.locator('nav.manager-nav a[href="/app/manager/shifts"]').click();
    await page
      .getByRole('button', { name: /^Corte de caja \(Z\) Olga/ })
      .first()
      .click();
    await check('manager-z-report');

    // The cashier's till without a shift of her own, and the cook's landing screen.
    await page.getByRole('button', { name: 'Salir' }).click();
    await logIn(page, 'Lucía', '1357');
    await screens.getByRole('link', { name: 'Caja' }).click();
    await check('cashier-till');
    await page.getByRole('button', { name: 'Salir' }).click();
    await logIn(page, 'Chuy', '9753');
    await check('cook-landing');

    assert.deepEqual(failures, [], `untranslated strings:\n${failures.join('\n')}`);
  });
});
