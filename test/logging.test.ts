import assert from 'node:assert/strict';
import { it } from 'node:test';
import { buildTestApp, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { billableOrder, createBill } from './helpers/checkout-factories';
import { insertUser } from './helpers/factories';
import { captureLogs } from './helpers/log-capture';

type LogLine = { msg: string; level: number; userId?: string; req?: { url: string }; res?: unknown };

function jsonLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);
}

describeEachDatabase('logging', (target) => {
  it('names the caller on the request completed line once the guard resolved them', async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'info' }, logStream: logs.stream });
    const user = await insertUser(db);
    const cookies = await login(app, user.name, user.pin);

    await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    await app.inject({ method: 'GET', url: '/currencies' });
    await app.inject({ method: 'GET', url: '/users/me' });

    const completed = jsonLines(logs.text()).filter((line) => line.msg === 'request completed');
    assert.equal(completed.length, 4);
    const [loginLine, meLine, publicLine, anonymousLine] = completed;
    assert.equal(loginLine?.userId, undefined);
    assert.equal(meLine?.userId, user.id);
    assert.equal(publicLine?.userId, undefined);
    assert.equal(anonymousLine?.userId, undefined);
  });

  it('writes no per-request lines for health checks at info, and writes them at debug', async (t) => {
    const infoLogs = captureLogs();
    const { app } = await buildTestApp(t, target, { env: { LOG_LEVEL: 'info' }, logStream: infoLogs.stream });
    for (const url of ['/health', '/health/live', '/currencies']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 200);
    }
    const infoUrls = jsonLines(infoLogs.text()).flatMap((line) => (line.req ? [line.req.url] : []));
    assert.deepEqual(infoUrls, ['/currencies']);

    const debugLogs = captureLogs();
    const debug = await buildTestApp(t, target, { env: { LOG_LEVEL: 'debug' }, logStream: debugLogs.stream });
    await debug.app.inject({ method: 'GET', url: '/health/live' });
    const debugLines = jsonLines(debugLogs.text());
    assert.deepEqual(
      debugLines.filter((line) => line.msg === 'incoming request').map((line) => line.req?.url),
      ['/health/live'],
    );
    assert.ok(debugLines.some((line) => line.msg === 'request completed' && line.level === 20));
  });

  it("blanks a guest link's token from the logged URLs of the guest page and the guest API", async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, {
      env: { LOG_LEVEL: 'info', POS_PUBLIC_URL: 'https://mesa.example.mx' },
      logStream: logs.stream,
    });
    const { call, orderId } = await billableOrder(app, db);
    const ticketId = await createBill(call, orderId, {});
    const minted = await call('POST', `/tickets/${ticketId}/guest-link`);
    assert.equal(minted.statusCode, 201, minted.body);
    const { token } = minted.json() as { token: string };

    for (const url of [`/g/${token}`, `/guest/${token}`, `/guest/${token}/payments/x?y=1`]) {
      await app.inject({ method: 'GET', url });
    }

    const text = logs.text();
    assert.ok(!text.includes(token), 'the token is not in the log');
    const urls = jsonLines(text).flatMap((line) => (line.req ? [line.req.url] : []));
    for (const url of ['/g/[redacted]', '/guest/[redacted]', '/guest/[redacted]/payments/x?y=1']) {
      assert.ok(urls.includes(url), `${url} in ${urls.join(' ')}`);
    }
  });

  it('prints readable lines with LOG_FORMAT=pretty, still redacted', async (t) => {
    const logs = captureLogs();
    const { app, db } = await buildTestApp(t, target, {
      env: { LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
      logStream: logs.stream,
    });
    const user = await insertUser(db, { pin: '97531' });
    const cookies = await login(app, user.name, user.pin);
    await app.inject({ method: 'GET', url: '/users/me', headers: { cookie: cookies } });
    app.log.info({ body: { pin: '11223', password: 'hunter22' } }, 'a careless line');

    const text = logs.text();
    assert.match(text, /INFO.*: request completed/);
    assert.match(text, new RegExp(`userId: "${user.id}"`));
    assert.match(text, /"pin": "\[redacted\]"/);
    assert.ok(!text.includes('{"level"'), 'no JSON lines');
    for (const secret of ['97531', '11223', 'hunter22', cookies.slice(12, 60)]) {
      assert.ok(!text.includes(secret), `log must not contain ${secret}`);
    }
  });
});
