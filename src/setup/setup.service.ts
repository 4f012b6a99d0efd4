import type { SetupCountry } from '../config';
import type { AppContext } from '../core/context';
import { isUniqueViolation } from '../core/db/locks';
import { ForbiddenError } from '../core/errors';
import { newId } from '../core/ids';
import { hashWalletPassword } from '../core/pin';
import type { RestaurantFact } from '../core/startup';
import { isFiscalOn, loadFiscalSettings } from '../fiscal/fiscal.api';
import { loadSettings, updateSettings } from '../settings/settings.api';
import { countUsers, insertNewUser } from '../users/users.api';
import type { UserView } from '../users/users.schemas';
import { COUNTRY_PRESETS } from './country-presets';

const SETUP_MARKER = 'initial_setup';
const ALREADY_DONE = 'Initial setup already completed';

export async function isInitialized(ctx: AppContext): Promise<boolean> {
  return (await countUsers(ctx.db)) > 0;
}

/**
 * Creates the first administrator and prepares the settings for the restaurant's country (asked, or
 * POS_COUNTRY). The marker row's primary key makes concurrent calls collide in the database, so
 * exactly one admin is ever created this way.
 */
export async function completeInitialSetup(
  ctx: AppContext,
  input: {
    name: string;
    pin: string;
    walletPassword?: string | undefined;
    country?: SetupCountry | undefined;
  },
): Promise<UserView> {
  const preset = COUNTRY_PRESETS[input.country ?? ctx.config.country ?? 'other'];
  const id = newId();
  const walletPasswordHash =
    input.walletPassword === undefined
      ? null
      : await hashWalletPassword(input.walletPassword, ctx.secrets.pinKey, id);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('app_settings')
        .values({ name: SETUP_MARKER, value: String(ctx.clock.now()) })
        .execute();
      if ((await countUsers(trx)) > 0) throw new ForbiddenError(ALREADY_DONE);
      // No bill can exist before the first user, so the currency may change here unguarded.
      if (preset) await updateSettings(trx, { ...preset, updated_at: ctx.clock.now() });
      return insertNewUser(
        ctx,
        { id, name: input.name, pin: input.pin, role: 'admin', walletPasswordHash },
        trx,
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ForbiddenError(ALREADY_DONE);
    throw error;
  }
}

/** `POS_ADMIN_*` at start-up: the same setup, done unattended, and a no-op once anyone exists. */
export async function bootstrapAdminFromConfig(ctx: AppContext): Promise<UserView | undefined> {
  const admin = ctx.config.adminBootstrap;
  if (!admin || (await isInitialized(ctx))) return undefined;
  try {
    return await completeInitialSetup(ctx, admin);
  } catch (error) {
    if (error instanceof ForbiddenError) return undefined;
    throw error;
  }
}

/** What the start-up summary says about the restaurant's settings. */
export async function restaurantAtStart(ctx: AppContext): Promise<RestaurantFact> {
  const settings = await loadSettings(ctx.db);
  const fiscal = await loadFiscalSettings(ctx.db);
  return {
    taxRateBasisPoints: settings.taxRateBasisPoints,
    pricesIncludeTax: settings.pricesIncludeTax,
    timeZone: settings.timeZone,
    baseCurrency: settings.baseCurrency,
    locale: settings.locale,
    invoicing: isFiscalOn(ctx, fiscal) ? 'on' : fiscal.enabled ? 'needs-key' : 'off',
  };
}
