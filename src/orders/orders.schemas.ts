import { type Static, Type } from 'typebox';
import { Money } from '../core/money';
import { Page } from '../core/paging';
import { OptionalText, roundTripBody, UnixMsQuery, Uuid } from '../core/schemas';

export const ORDER_STATUSES = ['pending', 'preparing', 'ready', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const OrderStatusSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('preparing'),
    Type.Literal('ready'),
    Type.Literal('completed'),
    Type.Literal('cancelled'),
  ],
  { description: 'pending → preparing → ready → completed; any non-final state → cancelled' },
);

export const DishStatusSchema = Type.Union(
  [
    Type.Literal('pending'),
    Type.Literal('sent'),
    Type.Literal('preparing'),
    Type.Literal('ready'),
    Type.Literal('served'),
    Type.Literal('voided'),
  ],
  {
    description: 'pending → sent → preparing → ready → served; any state before served → voided',
    example: 'sent',
  },
);

const Waiter = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', example: 'Ana' });
const Notes = Type.String({ maxLength: 500, example: 'No onions' });
const MAX_DISHES_PER_REQUEST = 200;
const Guests = Type.Integer({ minimum: 1, maximum: 99, example: 4 });

export const OrderBody = Type.Object(
  {
    user_id: Type.Optional(Uuid({ description: 'Defaults to the caller; must name a live user' })),
    table_id: Type.Optional(
      Type.Union([Uuid(), Type.Null()], { description: 'null for counter or take-away orders' }),
    ),
    waiter: Type.Optional(
      Type.String({ ...Waiter, description: "Defaults to the name of the order's user" }),
    ),
    status: Type.Optional(OrderStatusSchema),
    guests: Type.Optional(
      Type.Union([Guests, Type.Null()], { description: 'How many people it serves; null: not asked' }),
    ),
    total: Type.Optional(Money({ description: 'Ignored: the total is always the sum of the dishes' })),
  },
  { additionalProperties: false },
);
export type OrderBody = Static<typeof OrderBody>;

/** An update must change something: an empty body is refused rather than taken as "touch the order". */
export const OrderUpdateBody = Type.Object(OrderBody.properties, {
  additionalProperties: false,
  minProperties: 1,
});

/** How many plates one request may add, whatever its entries' quantities. */
export const MAX_PLATES_PER_REQUEST = 200;

const Seat = Type.Union([Type.Integer({ minimum: 1, maximum: 99, example: 2 }), Type.Null()], {
  description: 'The seat the plate goes to; null or omitted: none',
});
const Course = Type.Integer({
  minimum: 1,
  maximum: 9,
  example: 1,
  description: 'Which course the plate is fired with (POST /orders/{id}/send `{course}`)',
});
const ModifierIds = Type.Array(Uuid(), {
  uniqueItems: true,
  maxItems: 50,
  description: "Option ids of the dish's modifier groups; default none",
});

export const DishEntry = Type.Object(
  {
    dish_id: Uuid({ description: 'A live, available dish of the menu' }),
    price_at_order: Type.Optional(
      Money({
        description:
          "Defaults to the dish's current price; with modifiers, the server computes it (dish price + the options' deltas) and a different one is refused",
      }),
    ),
    notes: OptionalText(Notes, 'null or omitted: none'),
    modifiers: Type.Optional(ModifierIds),
    quantity: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 99,
        default: 1,
        description: 'n adds n plates, each with its own id',
      }),
    ),
    seat: Type.Optional(Seat),
    course: Type.Optional({ ...Course, default: 1 }),
  },
  { additionalProperties: false },
);
export type DishEntry = Static<typeof DishEntry>;

export const DishEntries = Type.Array(DishEntry, { minItems: 1, maxItems: MAX_DISHES_PER_REQUEST });

export const OrderWithDishesBody = Type.Object(
  {
    order: OrderBody,
    dishes: Type.Array(DishEntry, { maxItems: MAX_DISHES_PER_REQUEST }),
  },
  { additionalProperties: false },
);
export type OrderWithDishesBody = Static<typeof OrderWithDishesBody>;

/** A chosen option as a plate's view shows it; sent back by a PUT, only its `option_id` counts. */
export const ModifierSnapshot = Type.Object({
  option_id: Uuid(),
  group_name: Type.String({ example: 'Extras' }),
  name: Type.String({ example: 'Extra pineapple' }),
  price_delta: Type.Number({ example: 10 }),
});

export const OrderDishUpdateBody = Type.Object(
  {
    price_at_order: Type.Optional(Money()),
    notes: OptionalText(Notes, 'null or empty: none'),
    seat: Type.Optional(Seat),
    course: Type.Optional(Course),
    modifiers: Type.Optional(
      Type.Array(
        Type.Union([
          Uuid(),
          Type.Object(
            {
              option_id: Uuid(),
              group_name: Type.Optional(Type.String()),
              name: Type.Optional(Type.String()),
              price_delta: Type.Optional(Type.Number()),
            },
            { additionalProperties: false },
          ),
        ]),
        {
          maxItems: 50,
          description:
            'The whole new choice: option ids, or the modifiers of the view sent back. Only while the plate is pending',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type OrderDishUpdateBody = Static<typeof OrderDishUpdateBody>;

export const ChannelStateSchema = Type.Union([
  Type.Literal('held'),
  Type.Literal('awaiting'),
  Type.Literal('accepted'),
  Type.Literal('ready'),
  Type.Literal('picked_up'),
  Type.Literal('delivered'),
  Type.Literal('denied'),
  Type.Literal('cancelled'),
]);

export const OrderView = Type.Object({
  id: Uuid(),
  user_id: Uuid(),
  table_id: Type.Union([Uuid(), Type.Null()]),
  waiter: Type.String(),
  status: OrderStatusSchema,
  guests: Type.Union([Guests, Type.Null()], { description: 'How many people it serves; null: not asked' }),
  total: Type.Number({ example: 25.5 }),
  discount: Type.Optional(
    Type.Number({
      description:
        'Sum of the discounts on its live (not cancelled) bills. This and `paid` and `balance` are what ' +
        'its bills say: left out for a caller who may not read bills (the kitchen, a display)',
    }),
  ),
  paid: Type.Optional(
    Type.Number({ description: 'Settled payments on its bills minus refunds, tips excluded' }),
  ),
  balance: Type.Optional(
    Type.Number({
      description:
        'What is still owed: total − discount − paid, plus what refunds gave back on Paid bills (a refund ' +
        'is money returned after the sale, not a new debt). Negative: overpaid',
    }),
  ),
  created_at: Type.String({ format: 'date-time', example: '2026-11-22T18:00:00.000Z' }),
  channel: Type.Union([Type.Literal('dine_in'), Type.Literal('ubereats'), Type.Literal('rappi')], {
    description: '`dine_in` for every order taken in the restaurant; else the delivery app it came through',
  }),
  channel_order_id: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "Delivery orders only: the platform's id" }),
  ),
  channel_code: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Delivery orders only: the short code the courier says at the counter',
      example: 'A7F3C',
    }),
  ),
  customer_first_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  pickup_at: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the courier comes for it, as the platform says',
    }),
  ),
  channel_state: Type.Optional(
    Type.Union([ChannelStateSchema, Type.Null()], {
      description:
        '`held`: items that map to nothing on our menu (`unmapped_items`), map them or deny; `awaiting`: ' +
        'accept or deny before `accept_by`; `accepted`: cooking; `ready`: the platform was told; ' +
        '`picked_up`, `delivered`: as the platform reports them (asked every 30 s for 3 h after ready); ' +
        '`denied`, `cancelled`',
    }),
  ),
  accept_by: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: "The platform's deadline to accept or deny",
    }),
  ),
  unmapped_items: Type.Optional(
    Type.Array(
      Type.Object(
        {
          index: Type.Integer({ minimum: 0, description: "The line's place in the platform's cart" }),
          name: Type.String(),
          quantity: Type.Integer({ minimum: 1 }),
          reason: Type.String({
            description: '`unknown_dish`, `unknown_option`, `unavailable`, or why its options do not fit',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  ),
});
export type OrderView = Static<typeof OrderView>;

export const OrderDishView = Type.Object({
  id: Uuid(),
  order_id: Uuid(),
  dish_id: Uuid(),
  price_at_order: Type.Number({ example: 12.5 }),
  notes: Type.String(),
  status: DishStatusSchema,
  dish_name: Type.String({ example: 'Margherita' }),
  station: Type.String({ example: 'kitchen', description: "The station of the dish's category" }),
  sent_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ready_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  void_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it was voided; null otherwise' }),
  voided_by: Type.Union([Type.String(), Type.Null()], {
    description: 'The name of who voided it; null otherwise, and on voids from before it was kept',
  }),
  void_approved_by: Type.Union([Type.String(), Type.Null()], {
    description: 'The manager whose approval (POST /auth/approvals) let a user without `dishes.void` void it',
  }),
  ticket_id: Type.Union([Uuid(), Type.Null()], {
    description:
      'The live bill the plate is on (it can be neither voided nor billed again); null when on none',
  }),
  modifiers: Type.Array(ModifierSnapshot, {
    description: 'The options chosen, as they were when the plate was ordered',
  }),
  seat: Type.Union([Type.Integer(), Type.Null()]),
  course: Type.Integer(),
});
export type OrderDishView = Static<typeof OrderDishView>;

/** A page of orders; the header, read by @fastify/swagger, documents X-Total-Count. */
export const OrderPageReply = Type.Array(OrderView, {
  headers: { 'X-Total-Count': { type: 'integer', description: 'How many orders match, across all pages' } },
});

export const CompleteOrderView = Type.Object({ order: OrderView, dishes: Type.Array(OrderDishView) });
export type CompleteOrderView = Static<typeof CompleteOrderView>;

export const OrdersQuery = Type.Object(
  {
    ...Page.properties,
    user_id: Type.Optional(Uuid()),
    table_id: Type.Optional(Uuid()),
    status: Type.Optional(OrderStatusSchema),
    channel: Type.Optional(
      Type.Union(
        [Type.Literal('dine_in'), Type.Literal('ubereats'), Type.Literal('rappi'), Type.Literal('delivery')],
        {
          description: 'The channel the orders came through; `delivery`: any delivery app',
          example: 'delivery',
        },
      ),
    ),
    from: Type.Optional(UnixMsQuery('Created at or after (Unix ms)')),
    to: Type.Optional(UnixMsQuery('Created at or before (Unix ms)')),
    date: Type.Optional(
      Type.String({
        format: 'date',
        description: 'Local day in the time zone of GET /settings',
        example: '2026-11-22',
      }),
    ),
  },
  { additionalProperties: false },
);
export type OrdersQuery = Static<typeof OrdersQuery>;

export const DateRangeQuery = Type.Object(
  {
    ...Page.properties,
    start_date: Type.String({ format: 'date', example: '2026-11-01' }),
    end_date: Type.String({ format: 'date', example: '2026-11-30' }),
  },
  { additionalProperties: false },
);
export type DateRangeQuery = Static<typeof DateRangeQuery>;

export const TotalSalesView = Type.Object({
  date: Type.String({ format: 'date', example: '2026-11-22' }),
  total_sales: Type.Number({ example: 1520.5 }),
  orders_count: Type.Integer({ example: 37 }),
});
export type TotalSalesView = Static<typeof TotalSalesView>;

/** What a list query selects, whichever route it came from. */
export type OrderFilter = {
  userId?: string | undefined;
  tableId?: string | undefined;
  status?: OrderStatus | undefined;
  /** Came through this channel (`dine_in`, `ubereats`, `rappi`). */
  channel?: string | undefined;
  /** Came through any delivery app; present or not (a prepared query's shape), never false. */
  isDelivery?: true | undefined;
  /** Created at or after, Unix ms. */
  from?: number | undefined;
  /** Created strictly before, Unix ms. */
  before?: number | undefined;
};

/** `PUT /orders/{id}/dishes/{dishId}`: the plate as a GET shows it; its `status` only as it is (see routes). */
export const OrderDishUpdateRequest = roundTripBody(OrderDishView, OrderDishUpdateBody, ['status']);
export type OrderDishUpdateRequest = Static<typeof OrderDishUpdateRequest>;
