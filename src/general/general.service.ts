import type { AppContext } from '../core/context';
import { loadSettings } from '../settings/settings.api';
import * as repo from './general.repo';

export function listCurrencies(ctx: AppContext) {
  return repo.listCurrencies(ctx.db);
}

export async function getBaseCurrency(ctx: AppContext): Promise<{ currency_id: string }> {
  const { baseCurrency } = await loadSettings(ctx.db);
  const currency = await repo.findCurrencyByCode(ctx.db, baseCurrency);
  if (!currency) throw new Error(`Base currency ${baseCurrency} is missing from the currencies table`);
  return { currency_id: currency.id };
}
