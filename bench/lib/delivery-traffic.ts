import { deliveryAppsEnv } from '../../test/helpers/delivery-sims';
import { RappiSimulator } from '../../test/rappi-sim/simulator';
import { UberEatsSimulator } from '../../test/ubereats-sim/simulator';
import type { Menu } from './api';

/** One delivery order every this often, Uber Eats and Rappi in turn: ten a minute, a busy Friday's share. */
const ORDER_EVERY_MS = 6000;
/** Rappi's orders are read at most every 45 s: the last one placed may wait that long to be taken. */
const SETTLE_TIMEOUT_MS = 60_000;

export type DeliveryFigures = Record<
  'ubereats' | 'rappi',
  { placed: number; accepted: number; p50Seconds: number | null; maxSeconds: number | null }
>;

/**
 * Uber Eats and Rappi stores (their simulators) sending a delivery order every few seconds while the
 * rush runs, and what became of each: accepted at the platform (by our server, exactly once) and
 * how long after it was placed.
 */
export class DeliveryTraffic {
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;
  private readonly placed = { ubereats: new Map<string, number>(), rappi: new Map<string, number>() };

  private constructor(
    readonly uber: UberEatsSimulator,
    readonly rappi: RappiSimulator,
  ) {}

  static async start(): Promise<DeliveryTraffic> {
    return new DeliveryTraffic(
      await UberEatsSimulator.start({ webhookRetryBaseMs: 250 }),
      await RappiSimulator.start(),
    );
  }

  /** The server's settings for both platforms. */
  env(): Record<string, string> {
    return deliveryAppsEnv({ uber: this.uber, rappi: this.rappi });
  }

  /** Where Uber's webhooks go once the server listens. */
  deliverTo(baseUrl: string): void {
    this.uber.webhooks.url = `${baseUrl}/channels/ubereats/webhook`;
  }

  begin(menu: Menu): void {
    this.placed.ubereats.clear();
    this.placed.rappi.clear();
    this.timer = setInterval(() => void this.placeNext(menu).catch(console.error), ORDER_EVERY_MS);
  }

  end(): void {
    clearInterval(this.timer);
  }

  private async placeNext(menu: Menu): Promise<void> {
    const dish = menu.dishes[this.turn % menu.dishes.length];
    if (!dish) return;
    const isUber = this.turn++ % 2 === 0;
    const answer = isUber
      ? await post(`${this.uber.url}/sim/orders`, {
          items: [{ external_id: dish.id, quantity: 2, price: dish.priceCents }],
          customer: { first_name: 'Lucía' },
        })
      : await post(`${this.rappi.url}/sim/orders`, {
          items: [{ sku: dish.id, quantity: 2, price: dish.priceCents / 100 }],
          client: { first_name: 'Ana' },
        });
    const id = String(answer.order_id ?? answer.id);
    this.placed[isUber ? 'ubereats' : 'rappi'].set(id, Date.now());
  }

  /** Waits until every order placed was accepted at its platform (or the wait runs out), and says how it went. */
  async settle(): Promise<DeliveryFigures> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let figures = await this.figures();
    while (
      Date.now() < deadline &&
      (['ubereats', 'rappi'] as const).some((c) => figures[c].accepted < figures[c].placed)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      figures = await this.figures();
    }
    return figures;
  }

  private async figures(): Promise<DeliveryFigures> {
    const uberOrders = this.uber.snapshot().orders as { id: string; accepted?: { at: number } }[];
    const uberWaits = uberOrders.flatMap((order) => {
      const placedAt = this.placed.ubereats.get(order.id);
      return placedAt === undefined || !order.accepted ? [] : [order.accepted.at - placedAt];
    });
    const rappiWaits: number[] = [];
    for (const [id, placedAt] of this.placed.rappi) {
      const order = await (await fetch(`${this.rappi.url}/sim/orders/${id}`)).json();
      const taken = (order.history as { status: string; at: string | number }[] | undefined)?.find(
        (step) => step.status === 'TAKEN',
      );
      if (taken) rappiWaits.push(new Date(taken.at).getTime() - placedAt);
    }
    return {
      ubereats: summary(this.placed.ubereats.size, uberWaits),
      rappi: summary(this.placed.rappi.size, rappiWaits),
    };
  }

  async stop(): Promise<void> {
    this.end();
    await this.uber.stop();
    await this.rappi.stop();
  }
}

function summary(placed: number, waitsMs: number[]) {
  const sorted = [...waitsMs].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
  const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms / 100) / 10);
  return {
    placed,
    accepted: sorted.length,
    p50Seconds: seconds(at(0.5)),
    maxSeconds: seconds(sorted.at(-1)),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: the simulators' answers are read field by field.
async function post(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}
