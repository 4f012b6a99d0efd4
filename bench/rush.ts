import autocannon from 'autocannon';
import type { Menu } from './lib/api';

/** Who a connection is: its login session (none for the baseline) and the table its waiter serves. */
export type Tablet = { cookie: string | undefined; tableId: string };

export type RushResult = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** `step status body` → count, for every answer that was not 2xx. */
  failures: Record<string, number>;
};

export type RushOptions = {
  baseUrl: string;
  connections: number;
  seconds: number;
  /** Requests per second for all this run's connections together; none: as fast as answers come. */
  rate?: number | undefined;
  tablets: Tablet[];
  menu: Menu;
  /**
   * Pays a Lightning invoice from outside (the phoenixd simulator, whose webhook then settles the
   * bill); without it, as for the baseline, which has no node, every bill is paid in cash.
   */
  payInvoice?: (invoice: string) => void;
  /** Told of every answer as the tablet receives it (the step's label, status and body). */
  onAnswer?: (step: string, status: number, body: string) => void;
};

/** The share of bills the customer pays by Lightning when a node is there. */
const LIGHTNING_SHARE = 0.1;

const TABLET_HEADER = 'x-bench-tablet';
type LoopContext = { orderId?: string; ticketId?: string; dueCents?: number; isLightning?: boolean };
type RequestData = { headers: Record<string, string>; path: string; body?: string | Buffer };
type Step = {
  label: string;
  method: string;
  build: (tablet: Tablet, context: LoopContext) => Partial<RequestData> | null;
  onResponse?: (status: number, body: string, context: LoopContext) => void;
};

/**
 * The dinner rush one tablet repeats: seat a table with three dishes and a plate of tacos with a
 * tortilla and an extra chosen (a dish with two modifier groups and a recipe of three ingredients), add
 * a dessert, send the plates to the kitchen (which takes the tacos' ingredients off the stock), read the ticket,
 * glance at the floor, move the order through the kitchen, check what is pending, bill the table,
 * take the payment (cash with change, or now and then Lightning) and close the order.
 */
function dinnerRush(menu: Menu, payInvoice: RushOptions['payInvoice']): Step[] {
  const picks = (context: LoopContext, offsets: number[]) =>
    offsets.map((offset) => {
      const dish =
        menu.dishes[(Math.floor(Math.random() * menu.dishes.length) + offset) % menu.dishes.length];
      context.dueCents = (context.dueCents ?? 0) + (dish?.priceCents ?? 0);
      return { dish_id: dish?.id as string };
    });
  // The dish with two modifier groups: one tortilla (free) and one priced extra, the server adding the deltas.
  const [tortilla, extras] = menu.modifierDish.groups;
  const pricedExtras = extras?.options.filter((option) => option.deltaCents > 0) ?? [];
  const plated = (context: LoopContext) => {
    const choices = [randomItem(tortilla?.options ?? []), randomItem(pricedExtras)];
    context.dueCents =
      (context.dueCents ?? 0) +
      choices.reduce((sum, option) => sum + option.deltaCents, menu.modifierDish.priceCents);
    return { dish_id: menu.modifierDish.id, modifiers: choices.map((option) => option.id) };
  };
  // Every step after the first needs the order it opened; without one the rest of the loop is skipped.
  const onOrder = (
    label: string,
    method: string,
    build: (orderId: string, context: LoopContext) => Partial<RequestData>,
    onResponse?: Step['onResponse'],
  ): Step => ({
    label,
    method,
    build: (_tablet, context) => (context.orderId ? build(context.orderId, context) : null),
    ...(onResponse && { onResponse }),
  });
  const moveTo = (status: string) =>
    onOrder(status, 'PUT', (id) => ({ path: `/orders/${id}`, body: JSON.stringify({ status }) }));
  const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;
  return [
    {
      label: 'with-dishes',
      method: 'POST',
      build: (tablet, context) => {
        context.orderId = undefined;
        context.ticketId = undefined;
        context.dueCents = 0;
        context.isLightning = payInvoice !== undefined && Math.random() < LIGHTNING_SHARE;
        return {
          path: '/orders/with-dishes',
          body: JSON.stringify({
            order: { table_id: tablet.tableId },
            dishes: [...picks(context, [0, 1, 2]), plated(context)],
          }),
        };
      },
      onResponse: (status, body, context) => {
        if (status === 201) context.orderId = idOf(body);
      },
    },
    onOrder('add dish', 'POST', (id, context) => ({
      path: `/orders/${id}/dishes`,
      body: JSON.stringify([{ ...picks(context, [3])[0], notes: 'dessert' }]),
    })),
    onOrder('send', 'POST', (id) => ({ path: `/orders/${id}/send`, body: '{}' })),
    onOrder('complete', 'GET', (id) => ({ path: `/orders/${id}/complete` })),
    onOrder('tables', 'GET', () => ({ path: '/tables' })),
    moveTo('preparing'),
    onOrder('pending list', 'GET', () => ({ path: '/orders?status=pending' })),
    moveTo('ready'),
    onOrder(
      'bill',
      'POST',
      (id) => ({ path: `/orders/${id}/tickets`, body: '{}' }),
      (status, body, context) => {
        if (status === 201) context.ticketId = idOf(body);
      },
    ),
    {
      label: 'pay',
      method: 'POST',
      build: (_tablet, context) => {
        if (!context.ticketId) return null;
        if (context.isLightning) return { path: `/tickets/${context.ticketId}/lightning`, body: '{}' };
        const due = (context.dueCents ?? 0) / 100;
        return {
          path: `/tickets/${context.ticketId}/payments`,
          body: JSON.stringify({ method: 'cash', amount: due, tendered: Math.ceil(due / 10) * 10 + 10 }),
        };
      },
      onResponse: (status, body, context) => {
        if (status !== 201 || !context.isLightning) return;
        payInvoice?.((JSON.parse(body) as { lightning: { invoice: string } }).lightning.invoice);
      },
    },
    moveTo('completed'),
  ];
}

function randomItem<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('the bench menu lacks the options the rush chooses');
  return item;
}

export async function runRush(options: RushOptions): Promise<RushResult> {
  const failures: Record<string, number> = {};
  const requests = dinnerRush(options.menu, options.payInvoice).map((step) => ({
    method: step.method,
    setupRequest: (request: RequestData, context: LoopContext) => {
      // autocannon builds the first request once before setupClient names the tablet; it rebuilds it after.
      const tablet = options.tablets[Number(request.headers[TABLET_HEADER])];
      if (!tablet) return request;
      const built = step.build(tablet, context);
      if (!built) return null;
      const headers = tablet.cookie ? { ...request.headers, cookie: tablet.cookie } : request.headers;
      return { ...request, ...built, headers };
    },
    onResponse: (status: number, body: string, context: LoopContext) => {
      if (status >= 300) {
        const key = `${step.label} ${status} ${body.slice(0, 100)}`;
        failures[key] = (failures[key] ?? 0) + 1;
      }
      step.onResponse?.(status, body, context);
      options.onAnswer?.(step.label, status, body);
    },
  }));

  let nextTablet = 0;
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate && { overallRate: options.rate }),
    timeout: 10,
    requests: requests as autocannon.Request[],
    setupClient: (client) => {
      client.setHeaders({ 'content-type': 'application/json', [TABLET_HEADER]: String(nextTablet++) });
    },
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    failures,
  };
}

/**
 * A run stops mid-loop, leaving tables seated; the next run starts from a free floor, so it closes
 * what is still open (through the same routes, so it works against the baseline too). A ready order
 * may already be billed and paid, which forbids cancelling it, so it is completed instead.
 */
export async function closeOpenOrders(baseUrl: string, cookie: string | undefined): Promise<void> {
  const headers = { 'content-type': 'application/json', ...(cookie && { cookie }) };
  const closing = { pending: 'cancelled', preparing: 'cancelled', ready: 'completed' };
  for (const [status, next] of Object.entries(closing)) {
    const response = await fetch(`${baseUrl}/orders?status=${status}&limit=1000`, { headers });
    const orders = response.status === 200 ? ((await response.json()) as { id: string }[]) : [];
    for (const order of orders) {
      const closed = await fetch(`${baseUrl}/orders/${order.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ status: next }),
      });
      await closed.arrayBuffer();
    }
  }
}
