import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DRAIN_LIMIT_MS } from '../../src/core/shutdown';
import { exitCodeOf, type ServerProcess, startServerProcess } from '../helpers/server-process';

function databaseIn(t: TestContext): string {
  const folder = mkdtempSync(join(tmpdir(), 'pos-shutdown-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return `sqlite:${join(folder, 'pos.db')}`;
}

/**
 * POST /initial-setup with only part of its body sent: the server has taken the request and waits
 * for the rest. `finish()` sends the rest; `answer` is the response.
 */
function requestInFlight(server: ServerProcess) {
  const body = JSON.stringify({ name: 'Owner', pin: '1234' });
  const pending = request(`${server.baseUrl}/initial-setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    pending.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    pending.on('error', reject);
  });
  pending.write(body.slice(0, 10));
  return { answer, finish: () => pending.end(body.slice(10)) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function isRefused(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('graceful shutdown', () => {
  for (const how of ['node', 'npm'] as const) {
    const command = how === 'npm' ? 'npm start' : 'node scripts/start.mjs';
    it(`${command}: SIGTERM to that process lets a request in flight finish, then everything exits`, async (t) => {
      const server = await startServerProcess({ DATABASE_URL: databaseIn(t) }, { how });
      t.after(() => {
        if (isAlive(server.serverPid)) process.kill(server.serverPid, 'SIGKILL');
      });
      assert.equal(server.serverPid === server.child.pid, how === 'node', 'npm runs the server as its child');

      const inFlight = requestInFlight(server);
      await server.waitForOutput(/"url":"\/initial-setup".*"msg":"incoming request"/);
      server.child.kill('SIGTERM');
      await server.waitForOutput(/"signal":"SIGTERM".*"msg":"shutting down"/);
      inFlight.finish();

      const { status, text } = await inFlight.answer;
      assert.equal(status, 201, text);
      assert.equal(await exitCodeOf(server.child), 0, server.output());
      assert.equal(isAlive(server.serverPid), false, 'the server process is gone');
      assert.ok(await isRefused(server.baseUrl), 'nothing listens on the port any more');
    });
  }

  it('npm start: a client that never finishes its request holds the exit no longer than the drain limit', async (t) => {
    const server = await startServerProcess({ DATABASE_URL: databaseIn(t) }, { how: 'npm' });
    t.after(() => {
      if (isAlive(server.serverPid)) process.kill(server.serverPid, 'SIGKILL');
    });
    const stuck = requestInFlight(server);
    stuck.answer.catch(() => {});
    await server.waitForOutput(/"url":"\/initial-setup".*"msg":"incoming request"/);
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    // Node's own limit on a request is 5 minutes: without the drain limit the exit waited that long.
    const code = await Promise.race([
      exitCodeOf(server.child),
      sleep(DRAIN_LIMIT_MS + 15_000, 'still running'),
    ]);
    assert.equal(code, 0, server.output());
    assert.ok(Date.now() - signalled >= DRAIN_LIMIT_MS, 'the request had its time to finish');
    assert.equal(isAlive(server.serverPid), false, 'the server process is gone');
  });

  it('refuses to start with a bad configuration and says why', async () => {
    await assert.rejects(
      startServerProcess({ POS_TIMEZONE: 'Nowhere/Atlantis', PORT: '99999' }),
      (error: Error) => {
        assert.match(error.message, /POS_TIMEZONE/);
        assert.match(error.message, /PORT/);
        return true;
      },
    );
  });
});
