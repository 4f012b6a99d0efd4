import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertUser } from '../../helpers/factories';
import {
  assertAccessible,
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { deleteThroughScreen } from './manager-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

/** Deleting a group a dish links is refused (400) on purpose; Chromium logs that answer. */
const EXPECTED_REFUSAL =
  /^Failed to load resource: the server responded with a status of 400 .*\/modifier-groups\/[0-9a-f-]+\)$/;

type MenuBoard = {
  categories: {
    dishes: {
      name: string;
      modifier_groups: {
        name: string;
        min_select: number;
        options: { name: string; price_delta: number }[];
      }[];
    }[];
  }[];
};

describe('web app: the manager edits modifier groups', { skip: skipWithoutChromium }, () => {
  it('creates a group with two options, links it to a dish, and the menu offers them', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const manager = await insertUser(db, { name: 'Marta', role: 'manager' });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    await insertDish(db, { name: 'Tacos', priceCents: 1200, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page, consoleErrors } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, manager.name, manager.pin);
    await page.goto('/app/manager/modifiers');
    await page.getByRole('heading', { level: 1, name: 'Modifiers' }).waitFor();

    const form = page.getByRole('form', { name: 'New modifier group' });
    await form.getByLabel('Group name').fill('Tortilla');
    await form.getByLabel('Choose at least').fill('1');
    await form.getByLabel('Choose at most').fill('1');
    await form.getByRole('group', { name: 'Option 1' }).getByLabel('Option name').fill('Maíz');
    await form.getByRole('button', { name: 'Add option' }).click();
    const second = form.getByRole('group', { name: 'Option 2' });
    await second.getByLabel('Option name').fill('Harina');
    await second.getByLabel('Price change').fill('5.50');
    await assertAccessible(page, 'new modifier group');
    await saveScreenshot(page, 'manager-modifiers');
    await form.getByRole('button', { name: 'Add group' }).click();
    await page.getByRole('cell', { name: 'Maíz, Harina' }).waitFor();

    // The dish links the group from the menu's dish editor.
    await page
      .getByRole('navigation', { name: 'Manager sections' })
      .getByRole('link', { name: 'Menu' })
      .click();
    await page.getByRole('button', { name: 'Edit Tacos', exact: true }).click();
    const dishForm = page.getByRole('form', { name: 'Edit dish: Tacos' });
    await dishForm.getByLabel('Description').fill('Three corn tacos');
    await dishForm.getByLabel('Tortilla').check();
    await dishForm.getByLabel('1. Tortilla').waitFor();
    await assertAccessible(page, 'dish with a modifier group');
    await saveScreenshot(page, 'manager-dish-modifiers');
    await dishForm.getByRole('button', { name: 'Save' }).click();
    await dishForm.waitFor({ state: 'detached' });

    const menu = (await (await page.request.get('/menu')).json()) as MenuBoard;
    const tacos = menu.categories
      .flatMap((category) => category.dishes)
      .find((dish) => dish.name === 'Tacos');
    assert.deepEqual(tacos?.modifier_groups, [
      {
        ...tacos?.modifier_groups[0],
        name: 'Tortilla',
        min_select: 1,
        options: [
          { ...tacos?.modifier_groups[0]?.options[0], name: 'Maíz', price_delta: 0 },
          { ...tacos?.modifier_groups[0]?.options[1], name: 'Harina', price_delta: 5.5 },
        ],
      },
    ]);

    // A group a dish uses stays: the server's refusal is shown.
    await page.goto('/app/manager/modifiers');
    await deleteThroughScreen(page, 'Tortilla');
    await page.getByRole('alert').filter({ hasText: 'Modifier group is in use' }).waitFor();
    assert.deepEqual(
      consoleErrors.filter((error) => !EXPECTED_REFUSAL.test(error)),
      [],
    );
  });
});
