import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { appOnSharedDatabase, runScript } from './helpers/cli';

const SEED = 'seed';

type Recipe = ({ ingredient_id: string } | { product_id: string })[];

describeEachDatabase('demo seed (npm run seed)', (target) => {
  it('fills an empty database through the services, prints working PINs, and refuses a second run', async (t) => {
    const { app, db, databaseUrl } = await appOnSharedDatabase(t, target);
    const startedAt = Date.now();
    const seed = await runScript(SEED, [], { databaseUrl });
    const endedAt = Date.now();
    assert.equal(seed.code, 0, seed.stderr);
    assert.match(seed.stdout, /^Demo restaurant created: 10 dishes, 6 tables, 3 orders of today\.$/m);

    const printedUsers = [
      ...seed.stdout.matchAll(/^ {2}(admin|waiter|kitchen|cashier|manager) +(.+) {2}PIN (\d+)$/gm),
    ];
    assert.deepEqual(
      printedUsers.map(([, role]) => role),
      ['admin', 'waiter', 'waiter', 'kitchen', 'cashier', 'manager'],
      'a waiter for each demo order, the kitchen screen, the till and a manager',
    );
    let adminCookies = '';
    for (const [, role, name, pin] of printedUsers) {
      const cookies = await login(app, name as string, pin as string);
      const me = await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
      assert.equal(me.json().role, role);
      if (role === 'admin') adminCookies = cookies;
    }
    const walletPassword = /^Wallet password of .+: (.+)$/m.exec(seed.stdout)?.[1];
    const unlocked = await app.inject({
      method: 'POST',
      url: '/wallet/auth',
      headers: { cookie: adminCookies },
      payload: { password: walletPassword },
    });
    assert.equal(unlocked.statusCode, 200);

    const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: adminCookies } });
    const dishes = (await get('/dishes')).json() as {
      name: string;
      modifier_group_ids: string[];
      recipe: Recipe;
    }[];
    assert.equal(dishes.length, 10);
    // The Mexican menu's questions: tortilla, salsa, a steak's término, a drink's size, linked in order.
    const groups = (await get('/modifier-groups')).json() as {
      id: string;
      name: string;
      min_select: number;
      options: { name: string; price_delta: number; recipe: Recipe }[];
    }[];
    const groupNamed = (name: string) => groups.find((group) => group.name === name);
    assert.deepEqual(groups.map((group) => group.name).sort(), [
      'Extras',
      'Salsa',
      'Tamaño',
      'Tortilla',
      'Término',
    ]);
    assert.equal(groupNamed('Tortilla')?.min_select, 1);
    assert.deepEqual(
      groupNamed('Tamaño')?.options.map((option) => [option.name, option.price_delta]),
      [
        ['Chico', 0],
        ['Mediano', 10],
        ['Grande', 20],
      ],
    );
    assert.deepEqual(dishes.find((dish) => dish.name === 'Arrachera')?.modifier_group_ids, [
      groupNamed('Término')?.id,
      groupNamed('Tortilla')?.id,
      groupNamed('Salsa')?.id,
    ]);
    const categories = (await get('/categories?type=dish')).json() as { name: string; station: string }[];
    assert.deepEqual(categories.map(({ name, station }) => [name, station]).sort(), [
      ['Bebidas', 'bar'],
      ['Entradas', 'kitchen'],
      ['Platos fuertes', 'kitchen'],
    ]);
    // The screen offers "None" for an optional single choice: no option of the menu says it again.
    assert.deepEqual(
      groupNamed('Salsa')?.options.map((option) => option.name),
      ['Verde', 'Roja'],
    );

    // The menu uses the stock: every dish has a recipe, and so does the extra pineapple of the tacos.
    const stock = (await get('/inventory/stock')).json() as {
      item_type: string;
      id: string;
      name: string;
      stock: number;
      reorder_level: number;
      low: boolean;
    }[];
    const itemNamed = (name: string) => stock.find((item) => item.name === name);
    assert.equal(stock.filter((item) => item.item_type === 'ingredient').length, 15);
    assert.equal(stock.filter((item) => item.item_type === 'product').length, 2);
    assert.ok(dishes.every((dish) => dish.recipe.length > 0));
    assert.deepEqual(dishes.find((dish) => dish.name === 'Guacamole con totopos')?.recipe, [
      { ingredient_id: itemNamed('Aguacate')?.id, quantity: 0.25 },
      { ingredient_id: itemNamed('Cebolla')?.id, quantity: 0.03 },
      { product_id: itemNamed('Totopos (bolsa 200 g)')?.id, quantity: 1 },
    ]);
    assert.deepEqual(
      groupNamed('Extras')?.options.map((option) => [option.name, option.recipe]),
      [
        ['Extra piña', [{ ingredient_id: itemNamed('Piña')?.id, quantity: 0.03 }]],
        ['Extra queso', [{ ingredient_id: itemNamed('Queso Oaxaca')?.id, quantity: 0.04 }]],
      ],
    );
    // One item to order on the first look.
    assert.deepEqual(
      ((await get('/inventory/low-stock')).json() as typeof stock).map((item) => [
        item.name,
        item.stock,
        item.reorder_level,
      ]),
      [['Piña', 0.45, 0.5]],
    );
    // The order being prepared went to the kitchen through the send, which took its stock; the
    // order still pending took none.
    assert.equal(itemNamed('Arrachera')?.stock, 3.7);
    assert.equal(itemNamed('Café molido')?.stock, 0.96);
    assert.equal(itemNamed('Carne al pastor')?.stock, 6);
    const sales = (await get('/inventory/movements?limit=500')).json() as { reason: string }[];
    // One per plate and item: the arrachera's two, the mole's three, two for each café de olla.
    assert.equal(sales.filter((movement) => movement.reason === 'sale').length, 9);
    assert.equal((await get('/spaces')).json().length, 2);
    const tables = (await get('/tables')).json() as { status: string; order_id: string | null }[];
    assert.equal(tables.length, 6);
    assert.equal(tables.filter((table) => table.status === 'occupied' && table.order_id).length, 2);

    const orders = await get('/orders');
    assert.equal(orders.headers['x-total-count'], '3');
    const orderList = orders.json() as { id: string; total: number; status: string; created_at: string }[];
    for (const order of orderList) {
      const createdAt = Date.parse(order.created_at);
      assert.ok(createdAt >= startedAt && createdAt <= endedAt, 'made during the seed run');
      const dishes = (await get(`/orders/${order.id}/dishes`)).json() as { price_at_order: number }[];
      assert.ok(dishes.length > 0);
      assert.equal(
        order.total,
        Math.round(dishes.reduce((sum, dish) => sum + dish.price_at_order * 100, 0)) / 100,
      );
    }
    const settings = (await get('/settings')).json();
    assert.equal(settings.business_name, 'La Esquina');
    assert.equal(settings.tax_rate, 16);
    assert.equal(settings.prices_include_tax, true);
    assert.equal(settings.timezone, 'America/Mexico_City');
    assert.equal(settings.base_currency, 'MXN');

    // The restaurant's day, in Mexico City: at 23:30 there it is already the next day in UTC.
    const completed = orderList.find((order) => order.status === 'completed');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(
      new Date(completed?.created_at ?? 0),
    );
    assert.deepEqual((await get(`/orders/total-sales/${today}`)).json(), {
      date: today,
      total_sales: 125,
      orders_count: 1,
    });

    const countRows = async () => ({
      users: (await db.selectFrom('users').select('id').execute()).length,
      dishes: (await db.selectFrom('dishes').select('id').execute()).length,
      orders: (await db.selectFrom('orders').select('id').execute()).length,
    });
    const before = await countRows();
    const again = await runScript(SEED, [], { databaseUrl });
    assert.equal(again.code, 1);
    assert.equal(
      again.stderr,
      'error: The database already has data; the demo restaurant only goes into an empty database\n',
    );
    assert.deepEqual(await countRows(), before);
  });
});
