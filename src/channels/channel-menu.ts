import { createHash } from 'node:crypto';
import type { AppContext } from '../core/context';
import type { Db } from '../core/db/database';
import type { DeliveryChannel, DeliveryPlatform, PlatformMenu } from '../core/delivery-platform';
import { toCents } from '../core/money';
import type { MenuBoard } from '../menu/menu.api';
import { loadSettings } from '../settings/settings.api';
import * as channels from './channels.repo';

/** How long an edited menu must hold still before it is published again: one upload per editing session. */
export const MENU_SETTLE_MS = 30_000;
const UPLOAD_WINDOW_MS = 60 * 60_000;

/**
 * Queues the whole menu for upload (the platform's upload replaces what it had) and records it as the
 * published one; what each item's availability was told is then what the menu said. The caller's
 * transaction holds the store row's lock (lockPublishedAvailability).
 */
export async function queueMenuUpload(trx: Db, channel: DeliveryChannel, menu: PlatformMenu, now: number) {
  await channels.enqueueCall(trx, {
    channel,
    action: 'menu',
    orderId: null,
    payload: menu,
    now,
    giveUpAt: now + UPLOAD_WINDOW_MS,
  });
  await channels.updateStore(trx, channel, {
    menu_hash: menuHashOf(menu),
    menu_seen_hash: null,
    menu_seen_at: null,
    updated_at: now,
  });
  await channels.savePublishedAvailability(trx, channel, [
    ...menu.dishes.map((dish) => ({ id: dish.id, kind: 'dish' as const, isAvailable: dish.isAvailable })),
    ...menu.modifierGroups.flatMap((group) =>
      group.options.map((option) => ({
        id: option.id,
        kind: 'option' as const,
        isAvailable: option.isAvailable,
      })),
    ),
  ]);
}

/** What an upload would change: everything but availability, which suspensions carry on their own. */
function menuHashOf(menu: PlatformMenu): string {
  const withoutAvailability = {
    ...menu,
    dishes: menu.dishes.map(({ isAvailable: _isAvailable, ...dish }) => dish),
    modifierGroups: menu.modifierGroups.map((group) => ({
      ...group,
      options: group.options.map(({ isAvailable: _isAvailable, ...option }) => option),
    })),
  };
  return createHash('sha256').update(JSON.stringify(withoutAvailability)).digest('hex');
}

/**
 * Menu edits publish again by themselves once the menu has held still for MENU_SETTLE_MS, on every
 * platform it was published to by hand before (a restaurant that loads its menu in the platform's
 * portal never gets it overwritten).
 */
export async function republishEditedMenus(
  ctx: AppContext,
  platforms: readonly DeliveryPlatform[],
  board: MenuBoard,
  now: number,
): Promise<void> {
  const menu = platformMenuOf(board, (await loadSettings(ctx.db)).baseCurrency);
  const hash = menuHashOf(menu);
  for (const { channel } of platforms) {
    const store = await channels.ensureStore(ctx.db, channel, now);
    if (store.menu_hash === null) continue;
    if (hash === store.menu_hash) {
      if (store.menu_seen_hash !== null)
        await channels.updateStore(ctx.db, channel, {
          menu_seen_hash: null,
          menu_seen_at: null,
          updated_at: now,
        });
    } else if (hash !== store.menu_seen_hash) {
      await channels.updateStore(ctx.db, channel, {
        menu_seen_hash: hash,
        menu_seen_at: now,
        updated_at: now,
      });
    } else if (now - Number(store.menu_seen_at) >= MENU_SETTLE_MS) {
      await ctx.db.transaction().execute(async (trx) => {
        await channels.lockPublishedAvailability(trx, channel);
        // Another instance published it since we looked.
        if ((await channels.ensureStore(trx, channel, now)).menu_hash === hash) return;
        await queueMenuUpload(trx, channel, menu, now);
      });
    }
  }
}

/** The menu in the port's vocabulary, with each dish's price (a price per channel is not kept yet). */
export function platformMenuOf(board: MenuBoard, currency: string): PlatformMenu {
  const groups = new Map<string, PlatformMenu['modifierGroups'][number]>();
  for (const category of board.categories) {
    for (const dish of category.dishes) {
      for (const group of dish.modifier_groups) {
        groups.set(group.id, {
          id: group.id,
          name: group.name,
          minChoices: group.min_select,
          maxChoices: group.max_select,
          options: group.options.map((option) => ({
            id: option.id,
            name: option.name,
            priceCents: toCents(option.price_delta),
            isAvailable: option.available,
          })),
        });
      }
    }
  }
  return {
    currency,
    categories: board.categories
      .filter((category) => category.dishes.length > 0)
      .map((category) => ({
        id: category.id,
        name: category.name,
        dishIds: category.dishes.map((dish) => dish.id),
      })),
    dishes: board.categories.flatMap((category) =>
      category.dishes.map((dish) => ({
        id: dish.id,
        name: dish.name,
        description: dish.description === '' ? null : dish.description,
        priceCents: toCents(dish.price),
        photoUrl: null,
        modifierGroupIds: dish.modifier_groups.map((group) => group.id),
        isAvailable: dish.available,
      })),
    ),
    modifierGroups: [...groups.values()],
    hours: [],
  };
}
