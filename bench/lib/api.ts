/** A small HTTP client for the scenarios: one login session, JSON in and out, nothing retried. */
export type ApiReply = { status: number; body: unknown };

export class ApiSession {
  private constructor(
    readonly baseUrl: string,
    readonly cookie: string,
    readonly userId: string,
  ) {}

  static async login(baseUrl: string, name: string, pin: string): Promise<ApiSession> {
    const response = await fetch(`${baseUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, pin }),
    });
    const body = (await response.json()) as { user?: { id: string } };
    if (response.status !== 200 || !body.user) {
      throw new Error(`login of ${name} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return new ApiSession(baseUrl, cookieOf(response), body.user.id);
  }

  /** The session with a new access token, as a tablet renews it before the minute it lives is up. */
  async refreshed(): Promise<ApiSession> {
    const response = await fetch(`${this.baseUrl}/auth/refresh`, {
      method: 'POST',
      headers: { cookie: this.cookie },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`refresh answered ${response.status}`);
    return new ApiSession(this.baseUrl, cookieOf(response), this.userId);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiReply> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...headers,
        cookie: this.cookie,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : safeJson(text) };
  }

  /** The reply body, or an error naming the request when the status is not the expected one. */
  async expect<T>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const reply = await this.request(method, path, body);
    if (reply.status !== status) {
      throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
    return reply.body as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A dish whose plates need a choice in each of its modifier groups, in the dish's group order. */
export type ModifierDish = {
  id: string;
  priceCents: number;
  groups: {
    name: string;
    minSelect: number;
    maxSelect: number;
    options: { id: string; deltaCents: number }[];
  }[];
};

export type Menu = {
  dishes: { id: string; priceCents: number }[];
  modifierDish: ModifierDish;
  tableIds: string[];
};

type GroupView = {
  id: string;
  name: string;
  min_select: number;
  max_select: number;
  options: { id: string; price_delta: number }[];
};

/**
 * A menu of priced dishes and a dining room, created through the API like a manager would, and a
 * dish with two modifier groups: a required tortilla (one of two, both free) and up to three extras
 * (two of them priced). The plain dishes link no group, so any of them may be ordered bare.
 */
export async function seedMenuAndFloor(
  admin: ApiSession,
  size: { dishes: number; tables: number },
): Promise<Menu> {
  const category = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Mains',
    type: 'dish',
  });
  const dishes: Menu['dishes'] = [];
  for (let index = 0; index < size.dishes; index++) {
    const priceCents = 450 + ((index * 737) % 2500);
    const dish = await admin.expect<{ id: string }>(201, 'POST', '/dishes', {
      name: `Dish ${index + 1}`,
      price: priceCents / 100,
      category_id: category.id,
    });
    dishes.push({ id: dish.id, priceCents });
  }
  const groups: GroupView[] = [];
  for (const body of [
    {
      name: 'Tortilla',
      min_select: 1,
      max_select: 1,
      options: [
        { name: 'Corn', price_delta: 0 },
        { name: 'Flour', price_delta: 0 },
      ],
    },
    {
      name: 'Extras',
      min_select: 0,
      max_select: 3,
      options: [
        { name: 'Extra cheese', price_delta: 1.5 },
        { name: 'Guacamole', price_delta: 2.25 },
        { name: 'No onion', price_delta: 0 },
      ],
    },
  ]) {
    const created = await admin.expect<{ id: string }>(201, 'POST', '/modifier-groups', body);
    groups.push(await admin.expect<GroupView>(200, 'GET', `/modifier-groups/${created.id}`));
  }
  const tacosCents = 1250;
  const tacos = await admin.expect<{ id: string }>(201, 'POST', '/dishes', {
    name: 'Tacos',
    price: tacosCents / 100,
    category_id: category.id,
    modifier_group_ids: groups.map((group) => group.id),
    recipe: await tacoRecipe(admin),
  });
  const modifierDish: ModifierDish = {
    id: tacos.id,
    priceCents: tacosCents,
    groups: groups.map((group) => ({
      name: group.name,
      minSelect: group.min_select,
      maxSelect: group.max_select,
      options: group.options.map((option) => ({
        id: option.id,
        deltaCents: Math.round(option.price_delta * 100),
      })),
    })),
  };
  const space = await admin.expect<{ id: string }>(201, 'POST', '/spaces', { name: 'Dining room' });
  const tableIds: string[] = [];
  for (let index = 0; index < size.tables; index++) {
    const table = await admin.expect<{ id: string }>(201, 'POST', '/tables', {
      name: `T${String(index + 1).padStart(3, '0')}`,
      space_id: space.id,
    });
    tableIds.push(table.id);
  }
  return { dishes, modifierDish, tableIds };
}

/**
 * What a plate of tacos uses, in three ingredients: each plate sent records three sale movements. The
 * stock is far more than a run sells, so the dish never runs out (and is never refused) mid-run.
 */
async function tacoRecipe(admin: ApiSession): Promise<{ ingredient_id: string; quantity: number }[]> {
  const pantry = await admin.expect<{ id: string }>(201, 'POST', '/categories', {
    name: 'Taco pantry',
    type: 'ingredient',
  });
  const recipe = [];
  for (const [name, quantity] of [
    ['Tortillas', 0.12],
    ['Beef', 0.15],
    ['Salsa', 0.04],
  ] as const) {
    const ingredient = await admin.expect<{ id: string }>(201, 'POST', '/ingredients', {
      name,
      category_id: pantry.id,
      quantity: 1_000_000,
      unit: 'kg',
    });
    recipe.push({ ingredient_id: ingredient.id, quantity });
  }
  return recipe;
}

export type Waiter = { name: string; pin: string };

/** Staff accounts, one per tablet: logins are rate limited per name, so tablets do not share one. */
export async function createWaiters(
  admin: ApiSession,
  count: number,
  prefix = 'waiter',
  role = 'staff',
): Promise<Waiter[]> {
  const waiters: Waiter[] = [];
  for (let index = 0; index < count; index++) {
    const waiter = { name: `${prefix}-${String(index + 1).padStart(2, '0')}`, pin: '7391' };
    await admin.expect(201, 'POST', '/users', { ...waiter, role });
    waiters.push(waiter);
  }
  return waiters;
}

/**
 * Logs each user in, one after another: the login limiter counts attempts in flight against the
 * per-address budget (30), so a burst of 32 parallel logins from one address is rightly refused.
 */
export async function loginEach(
  baseUrl: string,
  users: readonly { name: string; pin: string }[],
): Promise<ApiSession[]> {
  const sessions: ApiSession[] = [];
  for (const user of users) sessions.push(await ApiSession.login(baseUrl, user.name, user.pin));
  return sessions;
}

/** The cookies a login or refresh set, as the next request sends them. */
function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}
