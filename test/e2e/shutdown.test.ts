import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { exitCodeOf, startServerProcess } from '../helpers/server-process';

describe('graceful shutdown', () => {
  it('finishes a request in flight when SIGTERM arrives, then exits cleanly', async () => {
    const path = `/tmp/pos-shutdown-${process.pid}-${Date.now()}.db`;
    const server = await startServerProcess({ DATABASE_URL: `sqlite:${path}` });
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
    // Half a body: the request is accepted and in flight when the signal lands.
    pending.write(body.slice(0, 10));
    await server.untilOutput(/incoming request/);
    server.child.kill('SIGTERM');
    await server.untilOutput(/shutting down/);
    pending.end(body.slice(10));

    const { status, text } = await answer;
    assert.equal(status, 201, text);
    assert.equal(await exitCodeOf(server.child), 0, server.output());
    await assert.rejects(fetch(`${server.baseUrl}/`), 'no longer accepting connections');
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
