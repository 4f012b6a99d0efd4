import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CURRENCY_CODES } from '../config';
import type { AppContext } from '../core/context';
import { errors } from '../core/schemas';
import { loadSettings } from '../settings/settings.api';

const ExchangeRateView = Type.Object({
  currency: Type.Enum([...CURRENCY_CODES], {
    type: 'string',
    description: 'The base currency (POS_BASE_CURRENCY)',
  }),
  btc_price: Type.Number({
    minimum: 0,
    description: 'The price of 1 BTC in the base currency, always above 0',
  }),
  source: Type.String({
    description: 'Where the price came from: coingecko, coinbase, fixed:<price> or identity',
  }),
  fetched_at: Type.Integer({ description: 'When the source gave this price, Unix ms' }),
});

export const ratesRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/exchange-rate',
    {
      schema: {
        operationId: 'getExchangeRate',
        tags: ['Rates'],
        summary: 'The current price of 1 BTC in the base currency',
        description:
          'The rate Lightning bills are priced at. A price is reused for 60 s; when the source fails the ' +
          'last good one serves until it is 10 minutes old. A price outside the plausible band (1,000 … ' +
          '10,000,000 USD, 10,000 … 200,000,000 MXN) counts as a failure and is logged. With a BTC base ' +
          'currency the rate is 1. No usable rate: 503 `Exchange rate unavailable`.',
        response: { 200: ExchangeRateView, ...errors(401, 503) },
      },
    },
    async () => {
      const rate = await ctx.rates.current((await loadSettings(ctx.db)).baseCurrency);
      return {
        currency: rate.currency,
        btc_price: rate.btcPrice,
        source: rate.source,
        fetched_at: rate.fetchedAt,
      };
    },
  );
};
