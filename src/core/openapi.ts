import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const OPENAPI_TAGS = [
  { name: 'General', description: 'Public system endpoints' },
  { name: 'Setup', description: 'First start: create the first administrator' },
  { name: 'Auth', description: 'Login sessions carried in HttpOnly cookies' },
  { name: 'Users', description: 'Staff accounts, each with one role (users.manage, except /users/me)' },
  { name: 'Roles', description: 'Named sets of permissions, and the permissions there are' },
  { name: 'Settings', description: 'The business: name, receipt texts, tax, time zone, base currency' },
  { name: 'Categories', description: 'Inventory categories by type: dish, ingredient, product' },
  { name: 'Dishes', description: 'The menu: dishes, their availability, and the whole menu in one answer' },
  { name: 'Modifier groups', description: 'Choices a dish offers (tortilla, extras) and what each adds' },
  { name: 'Ingredients', description: 'Kitchen stock' },
  { name: 'Products', description: 'Items sold as they are' },
  {
    name: 'Inventory',
    description:
      'Stock that moves: sales on send, voids, deliveries, waste, adjustments, counts and low stock',
  },
  { name: 'Spaces', description: 'Rooms and areas of the restaurant' },
  { name: 'Tables', description: 'Tables inside the spaces' },
  { name: 'Orders', description: 'Orders, their dishes, filters and sales' },
  { name: 'Kitchen', description: 'Dishes through the kitchen: send, status moves, voids, station queues' },
  { name: 'Tickets', description: 'Bills of an order: whole or split by dishes or amount' },
  { name: 'Payments', description: 'Payments on bills and the payment methods' },
  {
    name: 'Card terminal',
    description:
      "Mercado Pago Point beside the till: the account's terminals, charging a bill on one, and the provider's notifications",
  },
  { name: 'Guests', description: "The guest's phone: links to a bill's guest page, and the page's own API" },
  {
    name: 'Customer display',
    description:
      'A screen facing the guest at the counter, paired to one till: the bill being paid and its QR',
  },
  {
    name: 'E-invoice (CFDI)',
    description: "Mexico's e-invoice through a PAC: receipts of paid bills, invoices, the global invoice",
  },
  { name: 'Shifts', description: 'Cash drawer shifts, pay-ins and pay-outs, close and Z report' },
  {
    name: 'Reports',
    description: 'Sales by day, hour, payment method, dish, category and waiter; open balances',
  },
  { name: 'Printers', description: 'Network receipt and kitchen printers and their print jobs' },
  { name: 'Audit', description: 'The tamper-evident log of sensitive actions and its verification' },
  { name: 'Rates', description: 'The BTC exchange rate Lightning bills are priced at' },
  { name: 'Events', description: 'The live stream of changes (Server-Sent Events)' },
  { name: 'Wallet', description: 'The Lightning wallet, proxied to phoenixd (administrators)' },
  { name: 'Webhooks', description: 'Calls from the Lightning node' },
  {
    name: 'Delivery apps',
    description: 'Uber Eats and Rappi: their orders into the kitchen, their stores, their webhooks',
  },
];

const API_DESCRIPTION = [
  'Point-of-sale back-end with a Lightning wallet. Money is a number with 2 decimals; ids are UUID v4.',
  '',
  '**Logging in.** Sessions travel in HttpOnly cookies, not in a header. `POST /auth/login` with a name ' +
    'and PIN sets the `accessToken` and `refreshToken` cookies; the client sends them back with every ' +
    'later request, and `POST /auth/refresh` renews the access token. The wallet adds a third cookie, ' +
    '`walletAccessToken`, set by `POST /wallet/auth` with the wallet password.',
  '',
  '**In this page.** The "Authorize" button cannot help: a page cannot write HttpOnly cookies. Instead, ' +
    'open `POST /auth/login`, choose "Try it out" and execute it with your name and PIN, in this same ' +
    'browser tab; the browser keeps the cookies and every later "Try it out" carries them.',
  '',
  '**Other clients** keep the cookies from the `Set-Cookie` headers of the login answer and send them ' +
    'back in a `Cookie` header.',
].join('\n');

/**
 * OpenAPI 3.0 schemas take one `example`, not the JSON Schema `examples` array; @fastify/swagger
 * converts it only on the paths it walks (not inside `anyOf` and the like), so every remaining one is
 * converted here. `examples` maps (media types, parameters) are objects and stay as they are.
 */
/** Marks a body schema a route accepts absent (the route then treats no body as `{}`). */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * @fastify/swagger marks every request body required, which a generated client then insists on; a
 * body schema flagged OPTIONAL_BODY is documented as optional, as its route takes it.
 */
function withOptionalBodies<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      const body = (
        operation as { requestBody?: { required?: boolean; content?: Record<string, { schema?: object }> } }
      ).requestBody;
      const schemas = Object.values(body?.content ?? {}).map(
        (media) => media.schema as Record<string, unknown>,
      );
      if (body && schemas.some((schema) => schema?.[OPTIONAL_BODY] === true)) body.required = false;
    }
  }
  return document;
}

export function withSingleExamples<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withSingleExamples) as T;
  if (node === null || typeof node !== 'object') return node;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' && Array.isArray(value)) {
      if (value.length > 0 && !('example' in node)) converted.example = value[0];
    } else {
      converted[key] = DATA_KEYWORDS.has(key) ? value : withSingleExamples(value);
    }
  }
  return converted as T;
}

/** Keys whose values are instances, not schemas (`value` of an Example Object): nothing inside is a keyword. */
const DATA_KEYWORDS = new Set(['example', 'default', 'enum', 'const', 'value']);

/** The spec's meaning of each status code, for responses whose schema does not describe itself. */
const STATUS_MEANINGS: Record<string, string> = {
  200: 'Successful operation',
  201: 'Resource created',
  204: 'No content (empty list or successful deletion)',
  400: 'Missing or invalid parameters',
  401: 'Not authenticated, or invalid token',
  403: 'Insufficient permissions',
  404: 'Resource not found',
  409: 'Conflict',
  429: 'Too many requests',
  503: 'A dependency is unavailable',
};

/**
 * A response schema with its status's meaning as description, the same object for every app: the
 * serializers are compiled once per schema object (core/validation.ts), and a copy made by each app
 * compiled them all again (a third of building an app, which the test suite does for every test).
 */
const described = new WeakMap<object, Map<string, object>>();
function withMeaning(schema: object, status: string, meaning: string): object {
  const byStatus = described.get(schema) ?? new Map<string, object>();
  described.set(schema, byStatus);
  const copy = byStatus.get(status) ?? { ...schema, description: meaning };
  byStatus.set(status, copy);
  return copy;
}

/** The OpenAPI document is generated from the route schemas; Swagger UI at /swagger reads it. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const responses = route.schema?.response as Record<string, { description?: string }> | undefined;
    if (!responses) return;
    for (const [status, schema] of Object.entries(responses)) {
      const meaning = STATUS_MEANINGS[status];
      if (!schema.description && meaning) responses[status] = withMeaning(schema, status, meaning);
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Restaurant POS API',
        version: '0.1.0',
        description: API_DESCRIPTION,
      },
      // Relative: the document describes the server that serves it, whatever host and port that is.
      servers: [{ url: '/' }],
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'cookie', name: 'accessToken' },
          walletAccessToken: { type: 'apiKey', in: 'cookie', name: 'walletAccessToken' },
        },
      },
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? withOptionalBodies(withSingleExamples(document.openapiObject))
        : document.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: '/swagger', staticCSP: true });
  // Where a newcomer looks for the API's docs first: the same page.
  app.get('/docs', { schema: { hide: true }, config: { public: true } }, (_request, reply) =>
    reply.redirect('/swagger'),
  );
}
