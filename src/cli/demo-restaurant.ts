import { COMMAND_LINE_ACTOR } from '../audit/record-audit';
import type { CategoryBody } from '../categories/categories.schemas';
import { createCategory, listCategories } from '../categories/categories.service';
import type { Principal } from '../core/auth-guard';
import type { AppContext } from '../core/context';
import { ConflictError } from '../core/errors';
import type { RecipeLine } from '../inventory/recipes';
import { sendOrder } from '../kitchen/kitchen.service';
import { dishesService } from '../menu/dishes.service';
import { ingredientsService } from '../menu/ingredients.service';
import { productsService } from '../menu/products.service';
import { createGroup, getGroup } from '../modifiers/modifiers.service';
import type { DishEntry, OrderStatus } from '../orders/orders.schemas';
import { createOrder } from '../orders/orders.service';
import { grantedPermissions, parsePermissions } from '../permissions/permissions';
import { findRoleByName } from '../roles/roles.repo';
import { updateSettings } from '../settings/settings.service';
import { completeInitialSetup, isInitialized } from '../setup/setup.service';
import { createSpace, listSpaces } from '../spaces/spaces.service';
import { createTable } from '../tables/tables.service';
import type { UserView } from '../users/users.schemas';
import { createUser } from '../users/users.service';

export const DEMO_ADMIN = { name: 'Demo Admin', pin: '1234', walletPassword: 'demo-wallet-password' };
/** A shift's team: two waiters (the demo orders are theirs), the kitchen's screen, the till and a manager. */
export const DEMO_STAFF = [
  { name: 'Lucía', pin: '2222', role: 'waiter' },
  { name: 'Mateo', pin: '3333', role: 'waiter' },
  { name: 'Rosa', pin: '4444', role: 'kitchen' },
  { name: 'Jorge', pin: '5555', role: 'cashier' },
  { name: 'Elena', pin: '6666', role: 'manager' },
] as const;

/**
 * The kitchen's stock by category: [name, unit, stock, reorder level]. The pineapple is already below
 * its reorder level, so the inventory screen has something to order on the first look.
 */
const INGREDIENTS: Record<string, [name: string, unit: string, stock: number, reorderLevel: number][]> = {
  Carnes: [
    ['Carne al pastor', 'kg', 6, 2],
    ['Arrachera', 'kg', 4, 1],
    ['Pollo deshebrado', 'kg', 3, 1],
  ],
  'Frutas y verduras': [
    ['Piña', 'kg', 0.45, 0.5],
    ['Aguacate', 'kg', 3, 1],
    ['Cebolla', 'kg', 2.5, 0.5],
    ['Jitomate', 'kg', 3, 1],
    ['Tomate verde', 'kg', 2, 0.5],
  ],
  Abarrotes: [
    ['Tortilla de maíz', 'pza', 150, 40],
    ['Pasta de mole', 'kg', 1.5, 0.3],
    ['Arroz', 'kg', 5, 1],
    ['Flor de jamaica', 'kg', 1, 0.25],
    ['Café molido', 'kg', 1, 0.25],
    ['Piloncillo', 'kg', 1, 0.2],
  ],
  Lácteos: [['Queso Oaxaca', 'kg', 2, 0.5]],
};

/** What is bought and kept by the unit: [name, SKU, price, stock, reorder level]. */
const PRODUCTS: Record<
  string,
  [name: string, sku: string, price: number, stock: number, reorderLevel: number][]
> = {
  'Botanas y refrescos': [
    ['Totopos (bolsa 200 g)', 'TOTOPOS-200', 25, 20, 5],
    ['Coca-Cola 355 ml', 'COCA-355', 35, 24, 6],
  ],
};

/** What one plate or option uses, by item name, in the item's unit. */
type Recipe = Readonly<Record<string, number>>;

/** The choices a Mexican kitchen asks for: [option, price delta, recipe?] each; `min` 1 makes a group required. */
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
  // Optional and single: the order screen offers "Ninguno" itself, so no "Sin salsa" option repeats it.
  salsa: {
    name: 'Salsa',
    min: 0,
    max: 1,
    options: [
      ['Verde', 0, { 'Tomate verde': 0.03 }],
      ['Roja', 0, { Jitomate: 0.03 }],
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
  extras: {
    name: 'Extras',
    min: 0,
    max: 2,
    options: [
      ['Extra piña', 10, { Piña: 0.03 }],
      ['Extra queso', 15, { 'Queso Oaxaca': 0.04 }],
    ],
  },
} as const satisfies Record<
  string,
  {
    name: string;
    min: number;
    max: number;
    options: readonly (readonly [string, number] | readonly [string, number, Recipe])[];
  }
>;
type GroupKey = keyof typeof MODIFIER_GROUPS;

/** Each dish: name, price, the groups a waiter asks (in the order asked) and what one plate uses. */
const MENU: Record<string, [name: string, price: number, groups: GroupKey[], recipe: Recipe][]> = {
  Entradas: [
    ['Guacamole con totopos', 95, ['salsa'], { Aguacate: 0.25, Cebolla: 0.03, 'Totopos (bolsa 200 g)': 1 }],
    ['Sopa de tortilla', 85, [], { Jitomate: 0.15, 'Tortilla de maíz': 3, 'Queso Oaxaca': 0.03 }],
    ['Quesadillas (2)', 90, ['tortilla', 'salsa'], { 'Queso Oaxaca': 0.12 }],
  ],
  'Platos fuertes': [
    [
      'Tacos al pastor (3)',
      120,
      ['tortilla', 'salsa', 'extras'],
      { 'Carne al pastor': 0.18, Piña: 0.03, Cebolla: 0.02 },
    ],
    [
      'Enchiladas verdes',
      145,
      [],
      { 'Pollo deshebrado': 0.15, 'Tortilla de maíz': 4, 'Tomate verde': 0.12, 'Queso Oaxaca': 0.04 },
    ],
    ['Mole poblano', 180.5, [], { 'Pollo deshebrado': 0.25, 'Pasta de mole': 0.1, Arroz: 0.08 }],
    ['Arrachera', 260, ['termino', 'tortilla', 'salsa'], { Arrachera: 0.3, Cebolla: 0.05 }],
  ],
  Bebidas: [
    ['Agua de jamaica', 35, ['tamano'], { 'Flor de jamaica': 0.02 }],
    ['Agua de horchata', 35, ['tamano'], { Arroz: 0.05 }],
    ['Café de olla', 40, [], { 'Café molido': 0.02, Piloncillo: 0.015 }],
  ],
};

/** Drinks are made at the bar, with its own screen and printer; the rest in the kitchen. */
const STATIONS: Record<string, string> = { Entradas: 'kitchen', 'Platos fuertes': 'kitchen', Bebidas: 'bar' };

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
      await createUser(ctx, user, undefined, {
        actor: COMMAND_LINE_ACTOR,
        action: 'cli.user_created',
      }),
    );

  // The stock first, so the recipes of options and dishes can name it.
  const stockItems = await createStock(ctx, owner);
  const recipeOf = (recipe: Recipe = {}): RecipeLine[] =>
    Object.entries(recipe).map(([name, quantity]) => {
      const item = stockItems.get(name);
      if (!item) throw new Error(`The demo recipe names an item it does not stock: ${name}`);
      return item.type === 'ingredient'
        ? { ingredient_id: item.id, quantity }
        : { product_id: item.id, quantity };
    });

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
      options: group.options.map(([name, price_delta, recipe]) => ({
        name,
        price_delta,
        recipe: recipeOf(recipe),
      })),
    };
    groupIds[key] = await createGroup(ctx, body, undefined);
    for (const option of (await getGroup(ctx, groupIds[key])).options)
      optionIds.set(`${key}/${option.name}`, option.id);
  }

  const dishIds = new Map<string, string>();
  for (const [categoryName, dishes] of Object.entries(MENU)) {
    // CategoryBody's Static type loses the literals of its mapped union; the value is a valid body.
    const body = {
      name: categoryName,
      type: 'dish',
      station: STATIONS[categoryName],
    } as unknown as CategoryBody;
    const categoryId = await createCategory(ctx, body, undefined);
    for (const [name, price, groups, recipe] of dishes) {
      const modifier_group_ids = groups.map((key) => groupIds[key]);
      dishIds.set(
        name,
        await dishesService.create(
          ctx,
          { name, price, category_id: categoryId, modifier_group_ids, recipe: recipeOf(recipe) },
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

  const [lucia, mateo] = (await Promise.all(staff.slice(0, 2).map((user) => asPrincipal(ctx, user)))) as [
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
    const { id } = await createOrder(ctx, order.by, {
      order: { table_id: order.table, status: order.status },
      dishes: order.dishes,
      claim: undefined,
    });
    // The kitchen is cooking this one: its plates went there as a waiter sends them, taking their stock.
    if (order.status === 'preparing') await sendOrder(ctx, order.by, id, {});
  }

  return {
    users: [
      { name: admin.name, role: 'admin', pin: DEMO_ADMIN.pin },
      ...DEMO_STAFF.map((user) => ({ name: user.name, role: user.role, pin: user.pin })),
    ],
    dishes: dishIds.size,
    tables: tableIds.length,
    orders: orders.length,
  };
}

/** Ingredients and products with their opening stock, by name; each category through its service. */
async function createStock(
  ctx: AppContext,
  owner: Principal,
): Promise<Map<string, { type: 'ingredient' | 'product'; id: string }>> {
  const items = new Map<string, { type: 'ingredient' | 'product'; id: string }>();
  for (const [categoryName, ingredients] of Object.entries(INGREDIENTS)) {
    const body = { name: categoryName, type: 'ingredient' } as unknown as CategoryBody;
    const category_id = await createCategory(ctx, body, undefined);
    for (const [name, unit, quantity, reorder_level] of ingredients) {
      const id = await ingredientsService.create(
        ctx,
        { name, unit, quantity, reorder_level, category_id },
        undefined,
        owner,
      );
      items.set(name, { type: 'ingredient', id });
    }
  }
  for (const [categoryName, products] of Object.entries(PRODUCTS)) {
    const body = { name: categoryName, type: 'product' } as unknown as CategoryBody;
    const category_id = await createCategory(ctx, body, undefined);
    for (const [name, sku, price, quantity, reorder_level] of products) {
      const id = await productsService.create(
        ctx,
        { name, sku, price, quantity, reorder_level, category_id },
        undefined,
        owner,
      );
      items.set(name, { type: 'product', id });
    }
  }
  return items;
}

/** The seed acts as each waiter would; no login session is involved. */
async function asPrincipal(ctx: AppContext, user: UserView): Promise<Principal> {
  const role = await findRoleByName(ctx.db, user.role);
  const permissions = grantedPermissions(user.role, role ? parsePermissions(role.permissions) : []);
  return { id: user.id, name: user.name, role: user.role, permissions, sessionId: '' };
}
