import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { syncMenu } from '../../src/channels/channels.service';
import { DEMO_ADMIN, seedDemoRestaurant } from '../../src/cli/demo-restaurant';
import { loadConfig } from '../../src/config';
import { systemClock } from '../../src/core/clock';
import type { AppContext } from '../../src/core/context';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../src/core/db/database';
import { ConflictError } from '../../src/core/errors';
import { createContext } from '../../src/create-context';
import { getMenuBoard } from '../../src/menu/menu.api';
import { deliveryAppsEnv } from '../helpers/delivery-sims';
import { readWhole, runSimulator } from '../helpers/sim-process';
import { RappiSimulator } from '../rappi-sim/simulator';
import { UberEatsSimulator } from '../ubereats-sim/simulator';

const HELP = `npm run demo:night [-- --help]

A night of service with delivery orders, all on this machine: the Uber Eats and Rappi simulators
start in this process, the demo restaurant is seeded (as npm run seed does, into an empty database;
a database that already has a restaurant is used as it is), the POS server starts against both
simulators, its menu is published to Uber Eats, and a delivery order is placed at each platform,
then one more every minute, Uber Eats and Rappi in turn. Ctrl-C stops everything.

Environment (besides the server's own, e.g. LOG_LEVEL):
  DATABASE_URL        the database                        default sqlite:./data/demo-night.db
  PORT, HOST          where the server listens            default 9154 on 127.0.0.1 (PORT=0: a free port)
  POS_PUBLIC_URL      where the platforms' webhooks reach the server   default http://127.0.0.1:<PORT>
  DEMO_ORDER_EVERY_S  seconds between delivery orders     default 60
`;

/** Who orders, in turn. */
const CUSTOMERS = ['Ana', 'Luis', 'Sofía', 'Diego', 'Valeria', 'Javier'];

type DemoDish = {
  id: string;
  name: string;
  priceCents: number;
  /** The first options of each required group, so the platform's order is one the kitchen can cook. */
  options: { id: string; priceCents: number }[];
};

const cents = (amount: number) => Math.round(amount * 100);

/** The dishes that can be ordered now, with the options their required groups need. */
async function orderableDishes(ctx: AppContext): Promise<DemoDish[]> {
  const board = await getMenuBoard(ctx);
  return board.categories.flatMap((category) =>
    category.dishes
      .filter((dish) => dish.available)
      .map((dish) => ({
        id: dish.id,
        name: dish.name,
        priceCents: cents(dish.price),
        options: dish.modifier_groups.flatMap((group) =>
          group.options
            .filter((option) => option.available)
            .slice(0, group.min_select)
            .map((option) => ({ id: option.id, priceCents: cents(option.price_delta) })),
        ),
      })),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** The customers of both platforms, ordering through the simulators' `/sim/orders` in turn. */
class DeliveryCustomers {
  private turn = 0;

  constructor(
    private readonly uber: UberEatsSimulator,
    private readonly rappi: RappiSimulator,
    private readonly dishes: DemoDish[],
  ) {}

  async placeNext(): Promise<void> {
    const dish = this.dishes[this.turn % this.dishes.length];
    const customer = CUSTOMERS[this.turn % CUSTOMERS.length] ?? 'Ana';
    const isUber = this.turn % 2 === 0;
    this.turn += 1;
    if (!dish) return;
    const quantity = 1 + (this.turn % 2);
    if (isUber) {
      const placed = await post(`${this.uber.url}/sim/orders`, {
        items: [
          {
            external_id: dish.id,
            title: dish.name,
            quantity,
            price: dish.priceCents,
            options: dish.options.map((option) => ({ external_id: option.id, price: option.priceCents })),
          },
        ],
        customer: { first_name: customer },
      });
      console.log(`Uber Eats order ${placed.display_id}: ${quantity} × ${dish.name} for ${customer}`);
    } else {
      const placed = await post(`${this.rappi.url}/sim/orders`, {
        items: [
          {
            sku: dish.id,
            name: dish.name,
            quantity,
            price: dish.priceCents / 100,
            toppings: dish.options.map((option) => ({ sku: option.id, price: option.priceCents / 100 })),
          },
        ],
        client: { first_name: customer },
      });
      console.log(`Rappi order ${placed.order_id}: ${quantity} × ${dish.name} for ${customer}`);
    }
  }
}

/** Seeds the demo restaurant unless the database already has one, and queues the menu for Uber Eats. */
async function prepareRestaurant(ctx: AppContext): Promise<void> {
  try {
    const summary = await seedDemoRestaurant(ctx);
    console.log(`Demo restaurant created: ${summary.dishes} dishes, ${summary.tables} tables.`);
    for (const user of summary.users) console.log(`  ${user.role.padEnd(7)}  ${user.name}  PIN ${user.pin}`);
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    console.log('The database already has a restaurant: the night uses it as it is.');
  }
  // Rappi's menu is loaded through its portal; the simulator takes any SKU.
  await syncMenu(ctx, 'ubereats');
}

async function main(argv: string[], env: NodeJS.ProcessEnv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return undefined;
  }
  const orderEveryMs = Math.max(1, readWhole(env, 'DEMO_ORDER_EVERY_S', 60)) * 1000;
  const uber = await UberEatsSimulator.start({ port: 0 });
  const rappi = await RappiSimulator.start({ port: 0 });
  let database: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = async () => {
    clearInterval(timer);
    await app?.close();
    await database?.close();
    await uber.stop();
    await rappi.stop();
  };
  try {
    const port = readWhole(env, 'PORT', 9154, 65535) || (await freePort());
    const publicUrl = env.POS_PUBLIC_URL?.trim() || `http://127.0.0.1:${port}`;
    const config = loadConfig({
      ...env,
      DATABASE_URL: env.DATABASE_URL?.trim() || 'sqlite:./data/demo-night.db',
      PORT: String(port),
      POS_PUBLIC_URL: publicUrl,
      ...deliveryAppsEnv({ uber, rappi }),
    });
    database = openDatabase(config.databaseUrl);
    await migrateToLatest(database.db);
    const ctx = await createContext(config, database, systemClock);
    await prepareRestaurant(ctx);
    app = await buildApp(config, { database });
    await app.listen({ port: config.port, host: config.host });
    uber.webhooks.url = `${publicUrl}/channels/ubereats/webhook`;
    console.log(
      `POS server on http://127.0.0.1:${port} (log in as ${DEMO_ADMIN.name}, PIN ${DEMO_ADMIN.pin})`,
    );
    console.log(`Uber Eats simulator on ${uber.url}, Rappi simulator on ${rappi.url} (controls under /sim)`);
    const customers = new DeliveryCustomers(uber, rappi, await orderableDishes(ctx));
    const placeNext = () => customers.placeNext().catch((error: unknown) => console.error(error));
    // A couple of orders at once, one per platform, then one every interval.
    await placeNext();
    await placeNext();
    timer = setInterval(placeNext, orderEveryMs);
    console.log(`A delivery order every ${orderEveryMs / 1000} s. Ctrl-C stops the night.`);
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { stop };
}

runSimulator(main);
