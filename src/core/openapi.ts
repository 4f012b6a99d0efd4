import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const OPENAPI_TAGS = [
  { name: 'General', description: 'Public system endpoints' },
  { name: 'Setup', description: 'First start: create the first administrator' },
  { name: 'Auth', description: 'Login sessions carried in HttpOnly cookies' },
  { name: 'Users', description: 'Staff accounts (administrators only, except /users/me)' },
  { name: 'Categories', description: 'Inventory categories by type: dish, ingredient, product' },
  { name: 'Dishes', description: 'The menu' },
  { name: 'Ingredients', description: 'Kitchen stock' },
  { name: 'Products', description: 'Items sold as they are' },
  { name: 'Spaces', description: 'Rooms and areas of the restaurant' },
  { name: 'Tables', description: 'Tables inside the spaces' },
  { name: 'Orders', description: 'Orders, their dishes, filters and sales' },
  { name: 'Tickets', description: 'Bills of an order: whole or split by dishes or amount' },
  { name: 'Payments', description: 'Payments on bills and the payment methods' },
  { name: 'Rates', description: 'The BTC exchange rate Lightning bills are priced at' },
  { name: 'Wallet', description: 'The Lightning wallet, proxied to phoenixd (administrators)' },
  { name: 'Webhooks', description: 'Calls from the Lightning node' },
];

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

/** The OpenAPI document is generated from the route schemas; Swagger UI at /swagger reads it. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    const responses = route.schema?.response as Record<string, { description?: string }> | undefined;
    if (!responses) return;
    for (const [status, schema] of Object.entries(responses)) {
      if (!schema.description && STATUS_MEANINGS[status]) {
        responses[status] = { ...schema, description: STATUS_MEANINGS[status] };
      }
    }
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Restaurant POS API',
        version: '0.1.0',
        description:
          'Point-of-sale back-end with a Lightning wallet. Log in with POST /auth/login; the browser then ' +
          'carries the accessToken and refreshToken cookies. Money is a number with 2 decimals; ids are UUID v4.',
      },
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'cookie', name: 'accessToken' },
          walletAccessToken: { type: 'apiKey', in: 'cookie', name: 'walletAccessToken' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger', staticCSP: true });
}
