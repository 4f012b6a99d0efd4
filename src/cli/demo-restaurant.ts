import { COMMAND_LINE_ACTOR } from '../audit/record-audit';
import type { CategoryBody } from '../categories/categories.schemas';
import { createCategory, listCategories } from '../categories/categories.service';
import type { AppContext } from '../context';
import type { Principal } from '../core/auth-guard';
import { ConflictError } from '../core/errors';
import { dishesService } from '../menu/dishes.service';
import { createGroup, getGroup } from '../modifiers/modifiers.service';
import type { DishEntry, OrderStatus } from '../orders/orders.schemas';
import { createOrder } from '../orders/orders.service';
import { grantedPermissions, parsePermissions } from '../roles/permissions';
import { findRoleByName } from '../roles/roles.repo';
import { updateSettings } from '../settings/settings.service';
import { completeInitialSetup, isInitialized } from '../setup/setup.service';
import { createSpace, listSpaces } from '../spaces/spaces.service';
import { createTable } from '../tables/tables.service';
import type { UserView } from '../users/users.schemas';
import { createUser } from '../users/users.service';

export const DEMO_ADMIN = { name: 'Demo Admin', pin: '1234', walletPassword: 'demo-wallet-password' };
export const DEMO_STAFF = [
  { name: 'Lucía', pin: '2222' },
  { name: 'Mateo', pin: '3333' },
];

/** The choices a Mexican kitchen asks for: [option, price delta] each; `min` 1 makes a group required. */
const MODIFIER_GROUPS = {
  tortilla: {
    name: 'Tortilla',
    min: 1,
    max: 1,
    options: [
      ['Maíz', 0],
      ['Harina', 0],
    ],
  },
  salsa: {
    name: 'Salsa',
    min: 0,
    max: 1,
    options: [
      ['Verde', 0],
      ['Roja', 0],
      ['Sin salsa', 0],
    ],
  },
  termino: {
    name: 'Término',
    min: 1,
    max: 1,
    options: [
      ['Rojo', 0],
      ['Término medio', 0],
      ['Tres cuartos', 0],
      ['Bien cocido', 0],
    ],
  },
  tamano: {
    name: 'Tamaño',
    min: 1,
    max: 1,
    options: [
      ['Chico', 0],
      ['Mediano', 10],
      ['Grande', 20],
    ],
  },
} as const satisfies Record<
  string,
  { name: string; min: number; max: number; options: readonly (readonly [string, number])[] }
>;
type GroupKey = keyof typeof MODIFIER_GROUPS;

/** Each dish: name, price and the groups a waiter asks, in the order asked. */
const MENU: Record<string, [name: string, price: number, groups: GroupKey[]][]> = {
  Entradas: [
    ['Guacamole con totopos', 95, ['salsa']],
    ['Sopa de tortilla', 85, []],
    ['Quesadillas (2)', 90, ['tortilla', 'salsa']],
  ],
  'Platos fuertes': [
    ['Tacos al pastor (3)', 120, ['tortilla', 'salsa']],
    ['Enchiladas verdes', 145, []],
    ['Mole poblano', 180.5, []],
    ['Arrachera', 260, ['termino', 'tortilla', 'salsa']],
  ],
  Bebidas: [
    ['Agua de jamaica', 35, ['tamano']],
    ['Agua de horchata', 35, ['tamano']],
    ['Café de olla', 40, []],
  ],
};

/** A Mexico City restaurant: IVA of 16 % included in menu prices, days counted in local time. */
export const DEMO_SETTINGS = {
  business_name: 'La Esquina',
  tax_rate: 16,
  prices_include_tax: true,
  timezone: 'America/Mexico_City',
  base_currency: 'MXN',
} as const;

const FLOOR: Record<string, string[]> = {
  Salón: ['S1', 'S2', 'S3', 'S4'],
  Terraza: ['T1', 'T2'],
};

export type DemoSummary = {
  users: { name: string; role: string; pin: string }[];
  dishes: number;
  tables: number;
  orders: number;
};

/**
 * Fills an empty database with a small restaurant, through the same services as the API so every
 * rule holds. Each service call is its own transaction, so instead of one transaction the seed
 * refuses any database that already has users, a menu or a floor: a second run changes nothing, and
 * two runs at once collide on the first admin (the initial-setup marker) and only one goes on.
 */
export async function seedDemoRestaurant(ctx: AppContext): Promise<DemoSummary> {
  const hasData =
    (await isInitialized(ctx)) ||
    (await listCategories(ctx, 'dish')).length > 0 ||
    (await listSpaces(ctx)).length > 0;
  if (hasData) {
    throw new ConflictError(
      'The database already has data; the demo restaurant only goes into an empty database',
    );
  }

  const admin = await completeInitialSetup(ctx, DEMO_ADMIN);
  // Before any order, so today's orders fall on the restaurant's local day.
  const owner = await asPrincipal(ctx, admin);
  await updateSettings(ctx, owner, DEMO_SETTINGS);
  const staff: UserView[] = [];
  for (const user of DEMO_STAFF)
    staff.push(
      await createUser(ctx, { ...user, role: 'waiter' }, undefined, {
        actor: COMMAND_LINE_ACTOR,
        action: 'cli.user_created',
      }),
    );

  // Groups first, so each dish links its own; option ids by "group/option" for the orders below.
  const groupIds = {} as Record<GroupKey, string>;
  const optionIds = new Map<string, string>();
  for (const [key, group] of Object.entries(MODIFIER_GROUPS) as [
    GroupKey,
    (typeof MODIFIER_GROUPS)[GroupKey],
  ][]) {
    const body = {
      name: group.name,
      min_select: group.min,
      max_select: group.max,
      options: group.options.map(([name, price_delta]) => ({ name, price_delta })),
    };
    groupIds[key] = await createGroup(ctx, body, undefined);
    for (const option of (await getGroup(ctx, groupIds[key])).options)
      optionIds.set(`${key}/${option.name}`, option.id);
  }

  const dishIds = new Map<string, string>();
  for (const [categoryName, dishes] of Object.entries(MENU)) {
    // CategoryBody's Static type loses the literals of its mapped union; the value is a valid body.
    const body = { name: categoryName, type: 'dish' } as unknown as CategoryBody;
    const categoryId = await createCategory(ctx, body, undefined);
    for (const [name, price, groups] of dishes) {
      const modifier_group_ids = groups.map((key) => groupIds[key]);
      dishIds.set(
        name,
        await dishesService.create(
          ctx,
          { name, price, category_id: categoryId, modifier_group_ids },
          undefined,
          owner,
        ),
      );
    }
  }

  const tableIds: string[] = [];
  for (const [spaceName, tableNames] of Object.entries(FLOOR)) {
    const spaceId = await createSpace(ctx, { name: spaceName }, undefined);
    for (const name of tableNames)
      tableIds.push(await createTable(ctx, { name, space_id: spaceId }, undefined));
  }

  const [lucia, mateo] = (await Promise.all(staff.map((user) => asPrincipal(ctx, user)))) as [
    Principal,
    Principal,
  ];
  /** A plate by the dish's name, its options as "group/option". */
  const dish = (name: string, options: string[] = [], notes?: string): DishEntry => ({
    dish_id: dishIds.get(name) as string,
    ...(options.length > 0 && { modifiers: options.map((option) => optionIds.get(option) as string) }),
    ...(notes && { notes }),
  });
  const orders: { by: Principal; table: string | null; status: OrderStatus; dishes: DishEntry[] }[] = [
    {
      by: lucia,
      table: tableIds[0] ?? null,
      status: 'pending',
      dishes: [
        dish('Guacamole con totopos', ['salsa/Roja']),
        dish('Tacos al pastor (3)', ['tortilla/Maíz', 'salsa/Verde'], 'Sin cebolla'),
        dish('Agua de jamaica', ['tamano/Mediano']),
      ],
    },
    {
      by: mateo,
      table: tableIds[4] ?? null,
      status: 'preparing',
      dishes: [
        dish('Arrachera', ['termino/Término medio', 'tortilla/Harina']),
        dish('Mole poblano'),
        dish('Café de olla'),
        dish('Café de olla'),
      ],
    },
    { by: lucia, table: null, status: 'completed', dishes: [dish('Sopa de tortilla'), dish('Café de olla')] },
  ];
  for (const order of orders) {
    await createOrder(ctx, order.by, {
      order: { table_id: order.table, status: order.status },
      dishes: order.dishes,
      claim: undefined,
    });
  }

  return {
    users: [
      { name: admin.name, role: 'admin', pin: DEMO_ADMIN.pin },
      ...DEMO_STAFF.map((user) => ({ name: user.name, role: 'waiter', pin: user.pin })),
    ],
    dishes: dishIds.size,
    tables: tableIds.length,
    orders: orders.length,
  };
}

/** The seed acts as each waiter would; no login session is involved. */
async function asPrincipal(ctx: AppContext, user: UserView): Promise<Principal> {
  const role = await findRoleByName(ctx.db, user.role);
  const permissions = grantedPermissions(user.role, role ? parsePermissions(role.permissions) : []);
  return { id: user.id, name: user.name, role: user.role, permissions, sessionId: '' };
}
