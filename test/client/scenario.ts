import createClient, { type Middleware } from 'openapi-fetch';
// Generated from the live document by test/openapi-client.test.ts before this file is compiled.
import type { paths } from './generated/api';

/** What a client program saw, for the test to compare with what the server stored. */
export type ScenarioReport = {
  initializedBefore: boolean;
  adminId: string;
  loggedInAs: string;
  categoryId: string;
  dishCategories: { id: string; name: string }[];
  duplicate: { status: number; message: string };
  anonymous: { status: number; message: string };
};

/**
 * Node's fetch keeps no cookies, so the client does what a browser does with the session cookies:
 * keeps the ones each answer sets and sends them back.
 */
function cookieJar(): Middleware {
  const jar = new Map<string, string>();
  return {
    onRequest({ request }) {
      if (jar.size > 0)
        request.headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      return request;
    },
    onResponse({ response }) {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const separator = pair.indexOf('=');
        const name = pair.slice(0, separator).trim();
        const value = pair.slice(separator + 1).trim();
        if (value === '' || /;\s*max-age=0\b/i.test(cookie)) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    },
  };
}

function fail(step: string, status: number, body: unknown): never {
  throw new Error(`${step}: unexpected ${status} ${JSON.stringify(body)}`);
}

/** First start, login, a category created and listed, and refusals, all through the typed client. */
export async function runScenario(
  baseUrl: string,
  admin: { name: string; pin: string },
): Promise<ScenarioReport> {
  const client = createClient<paths>({ baseUrl });
  client.use(cookieJar());
  const anonymousClient = createClient<paths>({ baseUrl });

  const status = await client.GET('/initial-setup');
  if (!status.data) return fail('getSetupStatus', status.response.status, status.error);

  const setup = await client.POST('/initial-setup', { body: { name: admin.name, pin: admin.pin } });
  if (!setup.data) return fail('createFirstAdmin', setup.response.status, setup.error);

  const login = await client.POST('/auth/login', { body: admin });
  if (!login.data) return fail('loginUser', login.response.status, login.error);

  const created = await client.POST('/categories', { body: { name: 'Desserts', type: 'dish' } });
  if (!created.data) return fail('createCategory', created.response.status, created.error);

  const listed = await client.GET('/categories', { params: { query: { type: 'dish' } } });
  if (!listed.data) return fail('listCategories', listed.response.status, listed.error);

  const duplicate = await client.POST('/categories', { body: { name: 'Desserts', type: 'dish' } });
  if (!duplicate.error) return fail('createCategory (duplicate)', duplicate.response.status, duplicate.data);

  const anonymous = await anonymousClient.GET('/categories', { params: { query: { type: 'dish' } } });
  if (!anonymous.error) return fail('listCategories (anonymous)', anonymous.response.status, anonymous.data);

  return {
    initializedBefore: status.data.initialized,
    adminId: setup.data.id,
    loggedInAs: login.data.user.name,
    categoryId: created.data.id,
    dishCategories: listed.data,
    duplicate: { status: duplicate.response.status, message: duplicate.error.message },
    anonymous: { status: anonymous.response.status, message: anonymous.error.message },
  };
}
