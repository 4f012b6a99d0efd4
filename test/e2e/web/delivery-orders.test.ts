import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loggedInUser } from '../../helpers/auth';
import { insertDeliveryOrder } from '../../helpers/channel-factories';
import { databaseTargets } from '../../helpers/database';
import { insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { englishOn } from './spanish-strings';

// The screens are the same whatever the database.
const [target] = databaseTargets as [(typeof databaseTargets)[number]];
const MINUTE = 60_000;

/** Counts the tones the page plays: each "new order" sound is two oscillators of Web Audio. */
async function countTones(page: Page): Promise<void> {
  // As source text: the test's own compiled functions carry helpers the page does not have.
  await page.context().addInitScript({
    content: `
      globalThis.tones = 0;
      if (globalThis.AudioContext) {
        const Original = globalThis.AudioContext;
        globalThis.AudioContext = class extends Original {
          createOscillator() {
            globalThis.tones += 1;
            return super.createOscillator();
          }
        };
      }
    `,
  });
}

const tonesOf = (page: Page) => page.evaluate(() => (globalThis as unknown as { tones: number }).tones);

/** A Spanish screen shows no string of the English tables; its picture is saved to look at. */
async function checkSpanish(page: Page, screen: string): Promise<void> {
  assert.deepEqual(await englishOn(page), [], `${screen}: untranslated strings`);
  await assertAccessible(page, screen);
  await saveScreenshot(page, `delivery-${screen}`);
}

describe('web app: delivery orders (es-MX)', { skip: skipWithoutChromium }, () => {
  it('takes two delivery orders through the till and the kitchen while tables are served', async (t) => {
    const { app, db, baseUrl, clock } = await startPlainWebServer(t, target);
    // The browser's countdowns run on its own clock: the server's starts now too.
    clock.set(Date.now());
    const { cookies } = await loggedInUser(app, db, 'admin');
    const admin = callerFor(app, cookies);
    const create = async (url: string, body: unknown) => {
      const response = await admin('POST', url, body);
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id as string;
    };
    const tacos = await create('/categories', { name: 'Tacos', type: 'dish' });
    const drinks = await create('/categories', { name: 'Bebidas', type: 'dish', station: 'bar' });
    const pastor = await create('/dishes', { name: 'Tacos al pastor', price: 125.5, category_id: tacos });
    const gringa = await create('/dishes', { name: 'Gringa', price: 95, category_id: tacos });
    const horchata = await create('/dishes', { name: 'Agua de horchata', price: 35, category_id: drinks });
    // A table is being served: its order is in the kitchen already.
    const table = await insertTable(db, { name: '5' });
    const dineIn = await create('/orders/with-dishes', {
      order: { table_id: table.id },
      dishes: [{ dish_id: gringa }, { dish_id: pastor }],
    });
    assert.equal((await admin('POST', `/orders/${dineIn}/send`)).statusCode, 200);
    // Both platforms' orders wait for a person (auto-accept off), as the manager's settings leave them.
    for (const channel of ['ubereats', 'rappi']) {
      await db
        .insertInto('channel_stores')
        .values({ channel, auto_accept: 0, commission_bp: 0, next_read_at: 0, updated_at: clock.now() })
        .execute();
    }
    const cashier = await insertUser(db, { role: 'cashier', name: 'Lucía', pin: '1357' });
    const cook = await insertUser(db, { role: 'kitchen', name: 'Chuy', pin: '9753' });

    const browser = await launchBrowser(t);
    const till = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await countTones(till.page);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.getByRole('heading', { name: 'Caja: pedidos abiertos' }).waitFor();
    const kitchen = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.getByRole('heading', { name: 'Cocina: Cocina' }).waitFor();
    // No delivery app and no delivery order yet: the till shows no way to them.
    assert.equal(await till.page.getByRole('link', { name: /^Pedidos a domicilio/ }).count(), 0);

    // An Uber Eats order arrives, waiting for a person to accept it within the platform's deadline.
    const arrivedAt = clock.now();
    const uber = await insertDeliveryOrder(db, arrivedAt, {
      channel: 'ubereats',
      code: 'A7F3C',
      customer: 'Mariana',
      pickupAt: arrivedAt + 25 * MINUTE,
      acceptBy: arrivedAt + 11.5 * MINUTE,
      lines: [
        { dishId: pastor, name: 'Tacos al pastor', quantity: 2, priceCents: 13900, notes: 'Sin cebolla' },
        { dishId: horchata, name: 'Agua de horchata', priceCents: 4200 },
      ],
    });
    const link = till.page.getByRole('link', { name: /^Pedidos a domicilio 1/ });
    await link.waitFor();
    await till.page
      .getByRole('status')
      .getByText('Nuevo pedido de Uber Eats A7F3C: espera respuesta')
      .waitFor();
    assert.equal(await tonesOf(till.page), 2, 'one sound of two tones');
    await checkSpanish(till.page, 'till-badge');
    // The kitchen is told too, and sees nothing to cook until someone accepts it.
    await kitchen.page.getByRole('link', { name: /^Pedidos a domicilio 1/ }).waitFor();
    assert.equal(await kitchen.page.locator('.kitchen-order[data-channel="ubereats"]').count(), 0);

    await link.click();
    await till.page.getByRole('heading', { name: /^Pedidos a domicilio/, level: 1 }).waitFor();
    const uberCard = till.page.locator(`.delivery-order[data-order-id="${uber}"]`);
    await uberCard.getByText('Uber Eats', { exact: true }).waitFor();
    await uberCard.getByText('Mariana').waitFor();
    await uberCard.getByText('Espera respuesta').waitFor();
    await uberCard.getByText(/^Quedan 1[01]:\d\d para responder$/).waitFor();
    await uberCard.getByText('2 × Tacos al pastor · Sin cebolla').waitFor();
    await uberCard.getByText('1 × Agua de horchata').waitFor();
    await till.page.getByText('No hay plataformas de entrega configuradas.').waitFor();

    clock.advance(1000);
    // A Rappi order with a dish the menu lacks: held, its item named, for a person to match.
    const rappi = await insertDeliveryOrder(db, clock.now(), {
      channel: 'rappi',
      code: '991122',
      customer: 'Jorge',
      pickupAt: clock.now() + 35 * MINUTE,
      acceptBy: clock.now() + 4 * MINUTE,
      lines: [
        { dishId: null, name: 'Tacos de suadero', quantity: 3 },
        { dishId: gringa, name: 'Gringa' },
      ],
    });
    const rappiCard = till.page.locator(`.delivery-order[data-order-id="${rappi}"]`);
    await rappiCard.getByText('Platillos por identificar').waitFor();
    await rappiCard.getByText('3 × Tacos de suadero').waitFor();
    await rappiCard.getByText('(no está en el menú)').waitFor();
    await till.page.getByRole('heading', { name: 'Pedidos a domicilio 2', level: 1 }).waitFor();
    assert.equal(await tonesOf(till.page), 4, 'a second sound for the second order');
    // Newest first.
    assert.deepEqual(
      await till.page
        .locator('.delivery-order')
        .evaluateAll((cards) => cards.map((card) => card.dataset.orderId)),
      [rappi, uber],
    );
    await checkSpanish(till.page, 'two-orders');

    clock.advance(1000);
    // Accepted: it goes to the kitchen with its platform, code, customer and pickup time.
    await uberCard.getByRole('button', { name: 'Aceptar Uber Eats A7F3C' }).click();
    await uberCard.getByText('Aceptado').waitFor();
    const uberInKitchen = kitchen.page.locator(`.kitchen-order[data-order-id="${uber}"]`);
    await uberInKitchen.getByRole('heading', { name: 'Uber Eats A7F3C Mariana' }).waitFor();
    await uberInKitchen.getByText(/Recoge a las \d/).waitFor();
    await uberInKitchen.getByText('Tacos al pastor').waitFor();
    assert.equal(await uberInKitchen.getByText('Agua de horchata').count(), 0, 'the drink is the bar’s');
    // The table's plates were sent first and are due first; the delivery order goes by its pickup.
    assert.deepEqual(
      await kitchen.page
        .locator('.kitchen-order')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-order-id'))),
      [dineIn, uber],
    );
    await checkSpanish(kitchen.page, 'kitchen');

    clock.advance(1000);
    // The held item is matched to a dish of ours: the order then waits for an answer like the first.
    await rappiCard.getByRole('combobox', { name: 'Platillo para Tacos de suadero' }).selectOption(pastor);
    await rappiCard.getByRole('button', { name: 'Asignar platillos' }).click();
    await rappiCard.getByText('Espera respuesta').waitFor();
    await rappiCard.getByText('3 × Tacos al pastor').waitFor();
    await rappiCard.getByText('1 × Gringa').waitFor();
    // …and is denied, with a reason the platform passes on.
    await rappiCard.getByRole('button', { name: 'Rechazar Rappi 991122' }).click();
    const dialog = till.page.getByRole('dialog', { name: 'Rechazar pedido 991122' });
    await dialog.getByRole('button', { name: 'La cocina está llena' }).click();
    await checkSpanish(till.page, 'deny-dialog');
    await dialog.getByRole('button', { name: 'Rechazar pedido' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rappiCard.getByText('Rechazado').waitFor();

    clock.advance(1000);
    // The Uber order is ready: the platform is to be told (a call queued for the courier's app).
    await uberCard.getByRole('button', { name: 'Marcar listo Uber Eats A7F3C' }).click();
    await uberCard.getByText('Listo para recoger').waitFor();
    await till.page.getByRole('heading', { name: 'Pedidos a domicilio', exact: true, level: 1 }).waitFor();
    await checkSpanish(till.page, 'done');

    const stored = await db
      .selectFrom('orders')
      .select(['id', 'status', 'channel_state'])
      .where('channel', '<>', 'dine_in')
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      stored.map((order) => [order.id, order.status, order.channel_state]),
      [
        [uber, 'completed', 'ready'],
        [rappi, 'cancelled', 'denied'],
      ],
    );
    const calls = await db
      .selectFrom('channel_calls')
      .select(['channel', 'action', 'payload'])
      .orderBy('created_at')
      .execute();
    assert.deepEqual(
      calls.map((call) => [call.channel, call.action]),
      [
        ['ubereats', 'accept'],
        ['rappi', 'deny'],
        ['ubereats', 'ready'],
      ],
    );
    assert.match(String(calls[1]?.payload), /La cocina está llena/);
    assert.deepEqual(till.consoleErrors, []);
    assert.deepEqual(kitchen.consoleErrors, []);
  });
});
