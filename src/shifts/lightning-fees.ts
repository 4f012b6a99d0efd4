import { sql } from 'kysely';
import { fromCents } from '../core/money';

/**
 * The liquidity fees phoenixd took from the Lightning payments of a group of `payments` rows: the
 * cost of taking Lightning. Each fee is in millisatoshis and is valued at its own payment's rate
 * (1 BTC in the base currency), as the payment itself was; rows of other methods have neither.
 */
export function liquidityFeeColumns() {
  return [
    sql<number>`coalesce(sum(fees_msat), 0)`.as('fees_msat'),
    sql<number>`coalesce(sum(fees_msat * rate), 0)`.as('fees_msat_value'),
  ] as const;
}

/** msat × (base currency per BTC) to cents: 1 BTC is 10^11 msat, a unit 100 cents. */
function liquidityFeeCents(msatValue: number): number {
  return Math.round(Number(msatValue) / 1e9);
}

/** A report's Lightning figures from its rows of Lightning payments (sats arrived, fees). */
export function lightningFigures(rows: { sats: number; fees_msat: number; fees_msat_value: number }[]) {
  const total = (pick: (row: (typeof rows)[number]) => number) =>
    rows.reduce((sum, row) => sum + Number(pick(row)), 0);
  return {
    lightning_sats: total((row) => row.sats),
    lightning_fees_msat: total((row) => row.fees_msat),
    lightning_fees: fromCents(liquidityFeeCents(total((row) => row.fees_msat_value))),
  };
}
