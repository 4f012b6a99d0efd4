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
  tablets: Tablet[];
  menu: Menu;
};

const TABLET_HEADER = 'x-bench-tablet';
type LoopContext = { orderId?: string };
type RequestData = { headers: Record<string, string>; path: string; body?: string | Buffer };
type Step = {
  label: string;
  method: string;
  build: (tablet: Tablet, orderId: string | undefined) => Partial<RequestData> | null;
  onResponse?: (status: number, body: string, context: LoopContext) => void;
};

/**
 * The dinner rush one tablet repeats: seat a table with three dishes, add a dessert, read the ticket,
 * glance at the floor, move the order through the kitchen, check what is pending, and close it.
 */
function dinnerRush(menu: Menu): Step[] {
  const pick = (offset: number) => {
    const index = (Math.floor(Math.random() * menu.dishes.length) + offset) % menu.dishes.length;
    return { dish_id: menu.dishes[index]?.id as string };
  };
  // Every step after the first needs the order it opened; without one the rest of the loop is skipped.
  const onOrder = (
    label: string,
    method: string,
    build: (orderId: string) => Partial<RequestData>,
  ): Step => ({
    label,
    method,
    build: (_tablet, orderId) => (orderId ? build(orderId) : null),
  });
  const moveTo = (status: string) =>
    onOrder(status, 'PUT', (id) => ({ path: `/orders/${id}`, body: JSON.stringify({ status }) }));
  return [
    {
      label: 'with-dishes',
      method: 'POST',
      build: (tablet) => ({
        path: '/orders/with-dishes',
        body: JSON.stringify({ order: { table_id: tablet.tableId }, dishes: [pick(0), pick(1), pick(2)] }),
      }),
      onResponse: (status, body, context) => {
        if (status === 201) context.orderId = (JSON.parse(body) as { id: string }).id;
      },
    },
    onOrder('add dish', 'POST', (id) => ({
      path: `/orders/${id}/dishes`,
      body: JSON.stringify([{ ...pick(3), notes: 'dessert' }]),
    })),
    onOrder('complete', 'GET', (id) => ({ path: `/orders/${id}/complete` })),
    onOrder('tables', 'GET', () => ({ path: '/tables' })),
    moveTo('preparing'),
    onOrder('pending list', 'GET', () => ({ path: '/orders?status=pending' })),
    moveTo('ready'),
    moveTo('completed'),
  ];
}

export async function runRush(options: RushOptions): Promise<RushResult> {
  const failures: Record<string, number> = {};
  const requests = dinnerRush(options.menu).map((step) => ({
    method: step.method,
    setupRequest: (request: RequestData, context: LoopContext) => {
      // autocannon builds the first request once before setupClient names the tablet; it rebuilds it after.
      const tablet = options.tablets[Number(request.headers[TABLET_HEADER])];
      if (!tablet) return request;
      const built = step.build(tablet, context.orderId);
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
    },
  }));

  let nextTablet = 0;
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
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
 * A run stops mid-loop, leaving tables seated; the next run starts from a free floor, so it cancels
 * what is still open (through the same routes, so it works against the baseline too).
 */
export async function cancelOpenOrders(baseUrl: string, cookie: string | undefined): Promise<void> {
  const headers = { 'content-type': 'application/json', ...(cookie && { cookie }) };
  for (const status of ['pending', 'preparing', 'ready']) {
    const response = await fetch(`${baseUrl}/orders?status=${status}&limit=1000`, { headers });
    const orders = response.status === 200 ? ((await response.json()) as { id: string }[]) : [];
    for (const order of orders) {
      const cancel = await fetch(`${baseUrl}/orders/${order.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ status: 'cancelled' }),
      });
      await cancel.arrayBuffer();
    }
  }
}
