import { type Static, Type } from 'typebox';
import { Uuid } from '../core/schemas';

export const DashboardQuery = Type.Object(
  {
    date: Type.Optional(
      Type.String({
        format: 'date',
        description: "A local day (zone of GET /settings); today's by default",
        example: '2026-11-22',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DashboardQuery = Static<typeof DashboardQuery>;

const Money = (description: string) => Type.Number({ description });
const Minutes = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

const Spread = (what: string) =>
  Type.Object(
    {
      count: Type.Integer({ description: 'How many were measured' }),
      median: Minutes('Median, in minutes (one decimal); null when none'),
      p90: Minutes('90th percentile (nearest rank), in minutes (one decimal); null when none'),
    },
    { description: what },
  );

const DishRank = Type.Object({
  dish_id: Uuid(),
  name: Type.String(),
  quantity: Type.Integer({ description: "Plates of the day's Paid bills" }),
  amount: Money('Their net share of those bills (after discounts and refunds)'),
});

const Ranking = (what: string) =>
  Type.Array(DishRank, { description: `${what}; ties by name. Only dishes sold that day` });

export const Dashboard = Type.Object({
  date: Type.String({ format: 'date' }),
  from: Type.String({ format: 'date-time', description: 'Start of the local day' }),
  to: Type.String({ format: 'date-time', description: 'Start of the next local day' }),
  hours: Type.Array(
    Type.Object({
      hour: Type.Integer({ minimum: 0, maximum: 23, description: 'Local hour: 0 is 00:00–00:59' }),
      starts_at: Type.String({ format: 'date-time', description: 'When the hour starts (UTC)' }),
      sales: Money('Net sales (gross − discounts − refunds) of the bills paid in that hour'),
      covers: Type.Integer({
        description: 'Guests of the orders whose last bill was paid in that hour, once per order',
      }),
      usual: Type.Object(
        {
          sales: Money('The same hour’s sales on the same weekday of the last four weeks, averaged'),
          covers: Type.Number({ description: 'Their covers, averaged (two decimals)' }),
        },
        { description: 'The same weekday of the last four weeks; a week with nothing counts as 0' },
      ),
    }),
    {
      description:
        'The hours of the local day in order: 24, or 23 and 25 on the days the clocks change (a skipped ' +
        'hour is absent; a repeated one is there twice, each with its own starts_at)',
    },
  ),
  sales: Money(
    'Net sales (gross − discounts − refunds) of the bills paid that day: /reports/day’s net_sales',
  ),
  bills: Type.Integer({ description: 'Bills paid that day' }),
  covers: Type.Integer({
    description: 'Guests of the orders whose last bill was paid that day (orders without guests count 0)',
  }),
  average_bill: Type.Union([Type.Number(), Type.Null()], { description: 'sales / bills; null with no bill' }),
  average_per_cover: Type.Union([Type.Number(), Type.Null()], {
    description: 'sales / covers; null with no covers',
  }),
  tips: Money('Tips of the bills paid that day (not in sales)'),
  by_tender: Type.Array(
    Type.Object({
      method: Type.String({ description: 'The payment method code: cash, card, card_terminal, lightning…' }),
      sales: Money("Its payments' net share of the day's sales, tips apart"),
      tips: Money('Tips taken with it'),
    }),
    { description: "The day's sales by payment method, largest first: the lines add up to sales" },
  ),
  by_channel: Type.Array(
    Type.Object({
      channel: Type.String({ description: '`dine_in`, `ubereats` or `rappi`', example: 'ubereats' }),
      orders: Type.Integer({
        description:
          'Orders whose last bill was paid that day (an order paid over two days counts on the second, as its covers do)',
      }),
      sales: Money('Net sales of those bills'),
    }),
    { description: 'The sales by where the orders came from, dine in first: the lines add up to sales' },
  ),
  by_waiter: Type.Array(
    Type.Object({
      user_id: Uuid({ description: "The order's waiter (a delivery app's orders are its system user's)" }),
      name: Type.String(),
      bills: Type.Integer({ description: 'Bills of their orders paid that day' }),
      sales: Money('Net sales of those bills'),
      tips: Money('Tips of those bills'),
    }),
    { description: 'Per waiter, largest sales first: the lines add up to sales and tips' },
  ),
  dishes: Type.Object(
    {
      top_by_quantity: Ranking('The five dishes with the most plates'),
      bottom_by_quantity: Ranking('The five with the fewest'),
      top_by_amount: Ranking('The five with the largest amount'),
      bottom_by_amount: Ranking('The five with the smallest'),
    },
    { description: "Plates of the day's Paid bills (voided plates are not sold)" },
  ),
  out_of_stock: Type.Array(
    Type.Object({
      dish_id: Uuid(),
      name: Type.String(),
      at: Type.String({
        format: 'date-time',
        description: 'The last time that day it went off the menu',
      }),
      is_still_out: Type.Boolean({
        description: 'Whether it is still off the menu now (by hand, or an item of its recipe is out)',
      }),
    }),
    {
      description:
        "Dishes that went off the menu that day, in the order they went: 86'd by hand (PUT " +
        '/dishes/{id}/availability) or by their stock running out (an item of the recipe at or below zero), ' +
        'both audited as `dish.availability_changed`',
    },
  ),
  table_turn: Spread(
    "Dine-in orders whose last bill was paid that day: minutes from the order's creation (seated) to that bill",
  ),
  kitchen: Spread('Plates sent to the kitchen that day and made ready: minutes from sent to ready'),
  voids: Type.Object(
    {
      count: Type.Integer({ description: 'Plates voided that day' }),
      amount: Money('At their price'),
    },
    { description: "Plates voided that day on orders not deleted (/reports/day's voids)" },
  ),
  comps: Type.Object(
    {
      count: Type.Integer({ description: 'Discounted bills plus plates charged below their menu price' }),
      amount: Money('The discounts, plus each such plate’s menu price − its price'),
    },
    {
      description:
        'What was given away that day: the bills made that day with a discount (100 % comps and partial ' +
        'discounts, not cancelled), at the amount discounted, and the plates whose price was overridden ' +
        "below the menu's that day (the audited `dish.price_overridden`), at the difference",
    },
  ),
  now: Type.Object(
    {
      open_tables: Type.Integer({ description: 'Orders seated at a table and not completed or cancelled' }),
      open_bills: Type.Integer({ description: 'Pending bills' }),
      open_bills_balance: Money('What the Pending bills still owe (total − paid)'),
    },
    { description: 'What is open at the time of the request, whatever the date asked' },
  ),
});
export type Dashboard = Static<typeof Dashboard>;
