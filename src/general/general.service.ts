import type { AppContext } from '../core/context';
import * as repo from './general.repo';

export function listCurrencies(ctx: AppContext) {
  return repo.listCurrencies(ctx.db);
}

export async function getBaseCurrency(ctx: AppContext): Promise<{ currency_id: string }> {
  const currency = await repo.findCurrencyByCode(ctx.db, ctx.config.baseCurrency);
  if (!currency)
    throw new Error(`Base currency ${ctx.config.baseCurrency} is missing from the currencies table`);
  return { currency_id: currency.id };
}
