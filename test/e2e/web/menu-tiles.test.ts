import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { databaseTargets } from '../../helpers/database';
import { insertCategory, insertDish, insertSpace, insertTable, insertUser } from '../../helpers/factories';
import {
  launchBrowser,
  logInThroughScreen,
  openDevice,
  saveScreenshot,
  skipWithoutChromium,
  startPlainWebServer,
} from './browser';
import { goToFloor, openFreeTable } from './floor-order-steps';

const [target] = databaseTargets as [(typeof databaseTargets)[number]];

const LONG_NAMES = [
  'Enchiladas suizas gratinadas con pollo deshebrado',
  'Chilaquilesrojosconhuevoestrellado',
  'Tacos al pastor',
  'Sopa de tortilla con aguacate, chicharrón y crema',
];

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, 'on screen');
  return box;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('web app: the menu tiles on a 1280 px tablet', { skip: skipWithoutChromium }, () => {
  it('keeps each dish’s "…" button inside its own cell, clear of the next tile, whatever the name', async (t) => {
    const { baseUrl, db } = await startPlainWebServer(t, target);
    const waiter = await insertUser(db, { role: 'waiter' });
    const space = await insertSpace(db, { name: 'Dining room' });
    await insertTable(db, { name: '4', spaceId: space.id });
    const mains = await insertCategory(db, { name: 'Mains', type: 'dish' });
    for (const name of LONG_NAMES) await insertDish(db, { name, priceCents: 14500, categoryId: mains.id });

    const browser = await launchBrowser(t);
    const { page } = await openDevice(browser, baseUrl);
    await logInThroughScreen(page, waiter.name, waiter.pin);
    await goToFloor(page);
    await openFreeTable(page, '4');
    const cells = page.locator('.menu-dish-cell');
    await cells.nth(LONG_NAMES.length - 1).waitFor();
    await saveScreenshot(page, 'menu-tiles-1280');

    const cellOf = (name: string) => cells.filter({ has: page.getByText(name, { exact: true }) });
    const tiles = await Promise.all(LONG_NAMES.map((name) => boxOf(cellOf(name).locator('.menu-dish'))));
    for (const [index, name] of LONG_NAMES.entries()) {
      const cell = await boxOf(cellOf(name));
      const more = await boxOf(page.getByRole('button', { name: `Quantity, seat and course for ${name}` }));
      assert.ok(
        more.x >= cell.x && more.x + more.width <= cell.x + cell.width + 0.5,
        `${name}: "…" inside its cell`,
      );
      assert.ok(
        tiles[index] && tiles[index].x + tiles[index].width <= more.x + 0.5,
        `${name}: tile ends before "…"`,
      );
      for (const [other, tile] of tiles.entries()) {
        if (other !== index) assert.ok(!overlaps(more, tile), `${name}: "…" clear of ${LONG_NAMES[other]}`);
      }
    }
  });
});
