import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildTestApp, describeEachDatabase } from '../helpers/app';
import { loggedInUser } from '../helpers/auth';
import { databaseDigest } from '../helpers/db-digest';
import { insertCategory, insertDish, insertOrder, insertTable, insertUser } from '../helpers/factories';
import { damagedValue, hostileValue, type IdPool, type JsonSchema, validValue } from './schema-arbitraries';

type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema: JsonSchema };
type Operation = { method: string; path: string; parameters: Parameter[]; body?: JsonSchema };

/**
 * Logging out would end the fuzzer's session; the event stream answers a valid request by staying
 * open, which is its job (test/events-stream.test.ts covers it), not a hang.
 */
const EXCLUDED = new Set(['POST /auth/logout', 'GET /events']);
/**
 * A refused login is recorded on purpose: the audit log keeps failed logins and the throttle counts
 * them (test/audit.test.ts and test/login-hardening.test.ts cover both). A wrong PIN or wallet
 * password on the wallet's routes is counted by the same throttle (test/wallet-access.test.ts), and
 * so is a manager's wrong PIN on an approval (test/manager-approvals.test.ts), and a display's wrong
 * pairing code (test/customer-display.test.ts).
 */
const RECORDS_ITS_REFUSALS = new Set([
  'POST /auth/login',
  'POST /auth/approvals',
  'POST /displays/pair',
  'PUT /users/me/wallet-password',
  'POST /wallet/auth',
]);
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const REQUEST_TIMEOUT_MS = 10_000;

async function operationsOf(app: FastifyInstance): Promise<Operation[]> {
  const document = (await app.inject({ method: 'GET', url: '/swagger/json' })).json();
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, Record<string, unknown>>>(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (EXCLUDED.has(`${method.toUpperCase()} ${path}`)) continue;
      const body = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters as Parameter[]) ?? [],
        body,
      });
    }
  }
  return operations;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function requestFor(operation: Operation, ids: IdPool): fc.Arbitrary<InjectOptions> {
  const pathValues = operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) =>
      fc.tuple(fc.constant(parameter.name), damagedValue(parameter.schema, ids).map(asText)),
    );
  const queryValues = operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) =>
      fc.option(fc.tuple(fc.constant(parameter.name), damagedValue(parameter.schema, ids).map(asText))),
    );
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = operation.body
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: validValue(operation.body, ids).map((value) => ({ payload: JSON.stringify(value) })),
        },
        {
          weight: 4,
          arbitrary: damagedValue(operation.body, ids).map((value) => ({ payload: JSON.stringify(value) })),
        },
        {
          weight: 1,
          arbitrary: fc.string().map((text) => ({ payload: `{"${text}":`, contentType: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: fc.constant({
            payload: 'name=x&pin=1234',
            contentType: 'application/x-www-form-urlencoded',
          }),
        },
        { weight: 1, arbitrary: fc.constant({}) },
      )
    : fc.oneof(
        fc.constant({}),
        hostileValue.map((value) => ({ payload: JSON.stringify(value) })),
      );

  return fc
    .tuple(fc.tuple(...pathValues), fc.tuple(...queryValues), body)
    .map(([path, query, { payload, contentType }]) => {
      let url = operation.path;
      for (const [name, value] of path) url = url.replace(`{${name}}`, encodeURIComponent(value) || '%20');
      const search = new URLSearchParams(query.filter((entry): entry is [string, string] => entry !== null));
      return {
        method: operation.method as InjectOptions['method'],
        url: search.size > 0 ? `${url}?${search}` : url,
        ...(payload !== undefined && { payload }),
        headers: { 'content-type': contentType ?? 'application/json' },
      };
    });
}

function withTimeout<T>(promise: Promise<T>, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${label}`)),
      REQUEST_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A 503 is the contract's answer while the Lightning node or its webhook secret is not configured,
 * while no exchange-rate source is, and for guest links while POS_PUBLIC_URL is unset (the fuzzed app
 * has none of them).
 */
const isExpectedUnavailable = (status: number, body: string) =>
  status === 503 && /is not configured|Exchange rate unavailable|Guest links need POS_PUBLIC_URL/.test(body);

describeEachDatabase('API fuzzing from the OpenAPI document', (target) => {
  it('never answers 5xx, never hangs, and a refused request changes nothing', async (t) => {
    const { app, db } = await buildTestApp(t, target);
    // The fuzzer's own admin id is never offered as a path id, so it cannot delete itself mid-run.
    const { cookies } = await loggedInUser(app, db, 'admin');
    const accessOnly = cookies
      .split('; ')
      .filter((cookie) => cookie.startsWith('accessToken='))
      .join('; ');
    const table = await insertTable(db);
    const freeTable = await insertTable(db, { spaceId: table.spaceId });
    const dish = await insertDish(db);
    const categories = await Promise.all(
      (['dish', 'ingredient', 'product'] as const).map((type) => insertCategory(db, { type })),
    );
    const staff = await insertUser(db);
    const order = await insertOrder(db, { tableId: table.id, userId: staff.id });
    const categoryIds = [dish.categoryId, ...categories.map((category) => category.id)];
    const ids: IdPool = {
      candidates: [table.id, freeTable.id, table.spaceId, dish.id, ...categoryIds, staff.id, order.id],
      byField: {
        category_id: categoryIds,
        space_id: [table.spaceId],
        table_id: [table.id, freeTable.id],
        dish_id: [dish.id],
        user_id: [staff.id],
        order_id: [order.id],
      },
    };
    const operations = await operationsOf(app);
    assert.ok(operations.length > 10, 'the document lists the routes');

    const statuses = new Map<number, number>();
    const request = fc.constantFrom(...operations).chain((operation) => requestFor(operation, ids));
    await fc.assert(
      fc.asyncProperty(request, async (options) => {
        const before = await databaseDigest(db);
        const label = `${options.method} ${options.url}`;
        const response = await withTimeout(
          app.inject({ ...options, headers: { ...options.headers, cookie: accessOnly } }),
          label,
        );
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        assert.ok(
          response.statusCode < 500 || isExpectedUnavailable(response.statusCode, response.body),
          `${label} answered ${response.statusCode}: ${response.body.slice(0, 300)}`,
        );
        if (response.statusCode >= 400 && !RECORDS_ITS_REFUSALS.has(label)) {
          assert.equal(
            await databaseDigest(db),
            before,
            `${label} was refused with ${response.statusCode} but changed data`,
          );
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    const health = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200, 'the server is still healthy');
    const reachedHandlers = [...statuses].some(([status]) => status < 300);
    assert.ok(reachedHandlers, `some requests must succeed, got ${JSON.stringify([...statuses])}`);
    t.diagnostic(`answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  });
});
