import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { FISCAL_JOB } from '../../src/fiscal/fiscal-job';
import { PacSimulator } from '../pac-sim/simulator';
import { buildTestApp } from './app';
import { loggedInUser, login } from './auth';
import { billableOrder } from './checkout-factories';
import type { DatabaseTarget } from './database';
import type { UserFixture } from './factories';
import { type Caller, callerFor } from './orders-factories';

type TestContext = Parameters<typeof buildTestApp>[0];

/** The restaurant of the e-invoice tests: a valid RFC of the SAT's test set, IVA 16 % in prices. */
export const RESTAURANT_FISCAL = {
  enabled: true,
  rfc: 'EKU9003173C9',
  legal_name: 'ESCUELA KEMPER URGATE',
  tax_regime: '601',
  postal_code: '42501',
};

/** A guest whose RFC, name and postal code the simulated SAT knows. */
export const GUEST_CUSTOMER = {
  rfc: 'URE180429TM6',
  legal_name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  tax_regime: '601',
  postal_code: '86991',
};

/**
 * A PAC simulator on a real port that knows GUEST_CUSTOMER, whose clock is `now` (the app's, which
 * exists only once the app is built with `env`), and the server's env pointing at it.
 */
export async function startPacSimulator(
  t: TestContext,
  now: () => number,
  options: { selfInvoiceDomain?: string | null } = {},
) {
  const sim = new PacSimulator({
    now: () => new Date(now()),
    ...(options.selfInvoiceDomain !== undefined && { selfInvoiceDomain: options.selfInvoiceDomain }),
  });
  const url = await sim.start(0);
  t.after(() => sim.stop());
  sim.addReceiver({
    rfc: GUEST_CUSTOMER.rfc,
    legalName: GUEST_CUSTOMER.legal_name,
    zip: GUEST_CUSTOMER.postal_code,
    regimes: ['601'],
  });
  return { sim, env: { POS_PAC_URL: url, POS_PAC_KEY: 'sk_test_pac_sim' } };
}

/**
 * An app with e-invoicing on against a PAC simulator on a real port whose clock is the app's, and an
 * administrator's caller. Background jobs run when the test says (`runJob`).
 */
export async function buildFiscalApp(
  t: TestContext,
  target: DatabaseTarget,
  options: { selfInvoiceDomain?: string | null; env?: Record<string, string> } = {},
) {
  let now: (() => number) | undefined;
  const { sim, env } = await startPacSimulator(t, () => (now ? now() : Date.now()), options);
  const built = await buildTestApp(t, target, {
    env: { ...env, POS_TIMEZONE: 'America/Mexico_City', ...options.env },
  });
  now = () => built.clock.now();
  const admin = relogging(built.app, await loggedInUser(built.app, built.db, 'admin'));
  const business = await admin('PUT', '/settings', { tax_rate: 16, prices_include_tax: true });
  assert.equal(business.statusCode, 200, business.body);
  const fiscal = await admin('PUT', '/settings/fiscal', RESTAURANT_FISCAL);
  assert.equal(fiscal.statusCode, 200, fiscal.body);
  return { ...built, sim, admin, runJob: () => built.app.jobs.run(FISCAL_JOB) };
}

/** A caller that signs in again when the test's clock has outrun its session. */
export function relogging(app: FastifyInstance, signedIn: { user: UserFixture; cookies: string }): Caller {
  let call = callerFor(app, signedIn.cookies);
  return async (method, url, payload, headers) => {
    const response = await call(method, url, payload, headers);
    if (response.statusCode !== 401) return response;
    call = callerFor(app, await login(app, signedIn.user.name, signedIn.user.pin));
    return call(method, url, payload, headers);
  };
}

export type FiscalApp = Awaited<ReturnType<typeof buildFiscalApp>>;

/** A bill of dishes at these prices, with an optional discount, paid in full (plus a tip) by `method`. */
export async function paidBill(
  fx: Pick<FiscalApp, 'app' | 'db' | 'admin'>,
  options: {
    pricesCents?: number[];
    discount?: { type: 'percent' | 'amount'; value: number };
    tip?: number;
    method?: string;
    caller?: Caller;
  } = {},
): Promise<{ ticketId: string; total: number; paymentId: string }> {
  const { orderId } = await billableOrder(fx.app, fx.db, options.pricesCents ?? [10000, 25000, 3550]);
  const call = options.caller ?? fx.admin;
  const created = await call('POST', `/orders/${orderId}/tickets`, {
    ...(options.discount && { discount: { ...options.discount, reason: 'Cliente frecuente' } }),
  });
  assert.equal(created.statusCode, 201, created.body);
  const ticketId = created.json().id as string;
  const total = (await call('GET', `/tickets/${ticketId}`)).json().total as number;
  const paid = await call('POST', `/tickets/${ticketId}/payments`, {
    method: options.method ?? 'card',
    amount: total,
    ...(options.tip !== undefined && { tip: options.tip }),
  });
  assert.equal(paid.statusCode, 201, paid.body);
  return { ticketId, total, paymentId: paid.json().id as string };
}

export async function fiscalOf(fx: FiscalApp, ticketId: string) {
  const response = await fx.admin('GET', `/tickets/${ticketId}/fiscal`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
}
