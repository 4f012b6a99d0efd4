import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loggedInUser } from '../../helpers/auth';
import { databaseTargets } from '../../helpers/database';
import { deliveryAppsEnv } from '../../helpers/delivery-sims';
import { insertTable, insertUser } from '../../helpers/factories';
import { callerFor } from '../../helpers/orders-factories';
import { RappiSimulator } from '../../rappi-sim/simulator';
import { UberEatsSimulator } from '../../ubereats-sim/simulator';
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
type Json = Record<string, unknown>;

async function postJson(url: string, body: unknown): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(response.ok, `${url}: ${response.status} ${await response.clone().text()}`);
  return (await response.json()) as Json;
}

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

/**
 * A Spanish screen shows no string of the English tables; its picture is saved to look at. Each
 * screen's first state is also checked for accessibility (axe takes a few seconds a run).
 */
async function checkSpanish(page: Page, screen: string, { withAxe = true } = {}): Promise<void> {
  assert.deepEqual(await englishOn(page), [], `${screen}: untranslated strings`);
  if (withAxe) await assertAccessible(page, screen);
  await saveScreenshot(page, `delivery-${screen}`);
}

describe('web app: delivery orders (es-MX)', { skip: skipWithoutChromium }, () => {
  it('takes an Uber Eats and a Rappi order through the till and the kitchen while tables are served', async (t) => {
    // Both delivery apps, each against its simulator; Uber's webhooks reach the server's port.
    const uber = await UberEatsSimulator.start({ webhookRetryBaseMs: 20 });
    const rappi = await RappiSimulator.start();
    const { app, db, baseUrl, clock } = await startPlainWebServer(t, target, {
      env: deliveryAppsEnv({ uber, rappi }),
    });
    t.after(async () => {
      await uber.stop();
      await rappi.stop();
    });
    uber.webhooks.url = `${baseUrl}/channels/ubereats/webhook`;
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
    const manager = await insertUser(db, { role: 'manager', name: 'Olga', pin: '2468' });
    const cashier = await insertUser(db, { role: 'cashier', name: 'Lucía', pin: '1357' });
    const cook = await insertUser(db, { role: 'kitchen', name: 'Chuy', pin: '9753' });
    const browser = await launchBrowser(t);

    // The manager has tonight's orders wait for a person, sets Uber's commission and publishes the menu.
    const office = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(office.page, manager.name, manager.pin);
    await office.page.goto('/app/manager/delivery');
    await office.page.getByRole('heading', { name: 'Plataformas de entrega', level: 1 }).waitFor();
    const uberSettings = office.page.locator('.delivery-app[data-channel="ubereats"]');
    const rappiSettings = office.page.locator('.delivery-app[data-channel="rappi"]');
    await uberSettings.getByText('En línea').waitFor();
    await rappiSettings.getByText('900100001').waitFor();
    for (const settings of [uberSettings, rappiSettings]) {
      const autoAccept = settings.getByRole('switch', { name: 'Aceptar pedidos automáticamente' });
      await autoAccept.click();
      await settings.getByRole('status').getByText('Guardado').waitFor();
      assert.equal(await autoAccept.isChecked(), false);
    }
    await uberSettings.getByLabel('Comisión (%)').fill('25');
    await uberSettings.getByRole('button', { name: 'Guardar comisión' }).click();
    await uberSettings.getByRole('status').getByText('Guardado').waitFor();
    await uberSettings.getByRole('button', { name: 'Publicar menú Uber Eats' }).click();
    await uberSettings.getByText('Menú en cola para publicarse').waitFor();
    await checkSpanish(office.page, 'manager-settings');
    const stores = await db
      .selectFrom('channel_stores')
      .select(['channel', 'auto_accept', 'commission_bp'])
      .execute();
    assert.deepEqual(
      stores.map((store) => [store.channel, Number(store.auto_accept), Number(store.commission_bp)]).sort(),
      [
        ['rappi', 0, 0],
        ['ubereats', 0, 2500],
      ],
    );

    const till = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await countTones(till.page);
    await logInThroughScreen(till.page, cashier.name, cashier.pin);
    await till.page.getByRole('heading', { name: 'Caja: pedidos abiertos' }).waitFor();
    const kitchen = await openDevice(browser, baseUrl, 'tablet', 'es-MX');
    await logInThroughScreen(kitchen.page, cook.name, cook.pin);
    await kitchen.page.getByRole('heading', { name: 'Cocina: Cocina' }).waitFor();
    const link = till.page.getByRole('link', { name: /^Pedidos a domicilio/ });
    await link.waitFor();
    assert.equal(await till.page.locator('.delivery-count').count(), 0, 'nothing waits yet');

    // A customer orders on Uber Eats: its webhook, the inbox job, and the order waits for an answer.
    const placed = await postJson(`${uber.url}/sim/orders`, {
      items: [
        { external_id: pastor, quantity: 2, price: 13900, special_instructions: 'Sin cebolla' },
        { external_id: horchata, quantity: 1, price: 4200 },
      ],
      customer: { first_name: 'Mariana' },
      prep_minutes: 25,
    });
    const uberCode = String(placed.display_id);
    await till.page.getByRole('link', { name: /^Pedidos a domicilio 1/ }).waitFor();
    await till.page
      .getByRole('status')
      .getByText(`Nuevo pedido de Uber Eats ${uberCode}: espera respuesta`)
      .waitFor();
    assert.equal(await tonesOf(till.page), 2, 'one sound of two tones');
    await checkSpanish(till.page, 'till-badge');
    // The kitchen is told too, and has nothing to cook until someone accepts it.
    await kitchen.page.getByRole('link', { name: /^Pedidos a domicilio 1/ }).waitFor();
    assert.equal(await kitchen.page.locator('.kitchen-order[data-channel="ubereats"]').count(), 0);

    await link.click();
    await till.page.getByRole('heading', { name: /^Pedidos a domicilio/, level: 1 }).waitFor();
    await till.page.locator('.delivery-channel[data-channel="rappi"]').getByText('En línea').waitFor();
    const [uberOrder] = await db
      .selectFrom('orders')
      .select('id')
      .where('channel', '=', 'ubereats')
      .execute();
    assert.ok(uberOrder);
    const uberCard = till.page.locator(`.delivery-order[data-order-id="${uberOrder.id}"]`);
    await uberCard.getByText('Uber Eats', { exact: true }).waitFor();
    await uberCard.getByText('Mariana').waitFor();
    await uberCard.getByText('Espera respuesta').waitFor();
    await uberCard.getByText(/^Quedan 1[01]:\d\d para responder$/).waitFor();
    await uberCard.getByText('2 × Tacos al pastor · Sin cebolla').waitFor();
    await uberCard.getByText('1 × Agua de horchata').waitFor();

    // A Rappi order with a dish the menu lacks, read at Rappi's next read (45 s later: moved on here).
    const rappiPlaced = await postJson(`${rappi.url}/sim/orders`, {
      items: [
        { sku: 'suadero-7', name: 'Tacos de suadero', price: 30, quantity: 3 },
        { sku: gringa, name: 'Gringa', price: 99 },
      ],
      client: { first_name: 'Jorge' },
    });
    const rappiCode = String(rappiPlaced.order_id);
    rappi.advance(46_000);
    await db.updateTable('channel_stores').set({ next_read_at: 0 }).where('channel', '=', 'rappi').execute();
    await till.page.locator('.delivery-order[data-state="held"]').waitFor();
    const [rappiOrder] = await db.selectFrom('orders').select('id').where('channel', '=', 'rappi').execute();
    assert.ok(rappiOrder);
    const rappiCard = till.page.locator(`.delivery-order[data-order-id="${rappiOrder.id}"]`);
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
      [rappiOrder.id, uberOrder.id],
    );
    await checkSpanish(till.page, 'two-orders');

    // Accepted: Uber is told, and the kitchen gets it with its platform, code, customer and pickup time.
    await uberCard.getByRole('button', { name: `Aceptar Uber Eats ${uberCode}` }).click();
    await uberCard.getByText('Aceptado').waitFor();
    const uberInKitchen = kitchen.page.locator(`.kitchen-order[data-order-id="${uberOrder.id}"]`);
    await uberInKitchen.getByRole('heading', { name: `Uber Eats ${uberCode} Mariana` }).waitFor();
    await uberInKitchen.getByText(/Recoge a las \d/).waitFor();
    await uberInKitchen.getByText('Tacos al pastor').waitFor();
    assert.equal(await uberInKitchen.getByText('Agua de horchata').count(), 0, 'the drink is the bar’s');
    // The table's plates were sent first and are due first; the delivery order goes by its pickup.
    assert.deepEqual(
      await kitchen.page
        .locator('.kitchen-order')
        .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-order-id'))),
      [dineIn, uberOrder.id],
    );
    await checkSpanish(kitchen.page, 'kitchen');

    // The held item is matched to a dish of ours: the order then waits for an answer like the first…
    await rappiCard.getByRole('combobox', { name: 'Platillo para Tacos de suadero' }).selectOption(pastor);
    await rappiCard.getByRole('button', { name: 'Asignar platillos' }).click();
    await rappiCard.getByText('Espera respuesta').waitFor();
    await rappiCard.getByText('3 × Tacos al pastor').waitFor();
    await rappiCard.getByText('1 × Gringa').waitFor();
    // …and is denied, with a reason Rappi passes on.
    await rappiCard.getByRole('button', { name: `Rechazar Rappi ${rappiCode}` }).click();
    const dialog = till.page.getByRole('dialog', { name: `Rechazar pedido ${rappiCode}` });
    await dialog.getByRole('button', { name: 'La cocina está llena' }).click();
    await checkSpanish(till.page, 'deny-dialog');
    await dialog.getByRole('button', { name: 'Rechazar pedido' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rappiCard.getByText('Rechazado').waitFor();

    // The Uber order is ready: Uber is told, for its courier.
    await uberCard.getByRole('button', { name: `Marcar listo Uber Eats ${uberCode}` }).click();
    await uberCard.getByText('Listo para recoger').waitFor();
    await till.page.getByRole('heading', { name: 'Pedidos a domicilio', exact: true, level: 1 }).waitFor();
    await checkSpanish(till.page, 'done', { withAxe: false });

    // A full kitchen: the manager pauses Uber Eats for 20 minutes from the same screen.
    await office.page.goto('/app/delivery');
    const uberState = office.page.locator('.delivery-channel[data-channel="ubereats"]');
    await uberState.getByRole('button', { name: 'Pausar 20 min Uber Eats' }).click();
    await uberState.getByText(/^En pausa hasta las /).waitFor();
    await uberState.getByRole('button', { name: 'Reanudar Uber Eats' }).waitFor();
    await checkSpanish(office.page, 'paused', { withAxe: false });

    const stored = await db
      .selectFrom('orders')
      .select(['id', 'status', 'channel_state'])
      .where('channel', '<>', 'dine_in')
      .execute();
    assert.deepEqual(
      stored.map((order) => [order.id, order.status, order.channel_state]).sort(),
      [
        [uberOrder.id, 'completed', 'ready'],
        [rappiOrder.id, 'cancelled', 'denied'],
      ].sort(),
    );
    // The platforms hear it all from the calls job, within a second or two.
    const callsOf = () =>
      db.selectFrom('channel_calls').select(['channel', 'action', 'state']).orderBy('created_at').execute();
    for (let tries = 0; (await callsOf()).some((call) => call.state === 'pending'); tries++) {
      assert.ok(tries < 50, `calls still pending: ${JSON.stringify(await callsOf())}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual((await callsOf()).map((call) => [call.channel, call.action, call.state]).sort(), [
      ['rappi', 'deny', 'done'],
      ['ubereats', 'accept', 'done'],
      ['ubereats', 'menu', 'done'],
      ['ubereats', 'pause', 'done'],
      ['ubereats', 'ready', 'done'],
    ]);
    const seen = uber.snapshot();
    const order = (seen.orders as Json[]).find((candidate) => candidate.id === placed.order_id);
    assert.equal(order?.state, 'ACCEPTED');
    assert.ok(order?.readyAt, 'Uber was told the order is ready');
    const store = seen.store as Json;
    assert.deepEqual([store.status, store.statusReason, store.menuUploads], ['PAUSED', 'Cocina llena', 1]);
    for (const device of [office, till, kitchen]) assert.deepEqual(device.consoleErrors, []);
  });
});
