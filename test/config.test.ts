import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('works with no variables at all', () => {
    const config = loadConfig({});
    assert.equal(config.port, 9154);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, 'sqlite:./data/pos.db');
    assert.equal(config.timeZone, 'UTC');
    assert.equal(config.baseCurrency, 'MXN');
    assert.equal(config.cookieSecure, false);
    assert.equal(config.phoenixd.url, 'http://127.0.0.1:9740');
    assert.ok(Object.isFrozen(config));
  });

  it('turns the Secure cookie flag on in production', () => {
    assert.equal(loadConfig({ NODE_ENV: 'production' }).cookieSecure, true);
    assert.equal(loadConfig({ NODE_ENV: 'production', POS_COOKIE_SECURE: 'false' }).cookieSecure, false);
  });

  it('lists every bad value in one error', () => {
    assert.throws(
      () =>
        loadConfig({
          PORT: 'eighty',
          DATABASE_URL: 'mysql://x',
          POS_TIMEZONE: 'Mars/Olympus',
          POS_BASE_CURRENCY: 'EUR',
          POS_ADMIN_NAME: 'Boss',
          POS_JWT_SECRET: 'short',
          LOG_LEVEL: 'loud',
          LOG_FORMAT: 'colourful',
          POS_ALLOWED_HOSTS: 'pos.example, https://pos.example:443',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 9);
        for (const name of [
          'PORT',
          'DATABASE_URL',
          'POS_TIMEZONE',
          'POS_BASE_CURRENCY',
          'POS_ADMIN_PIN',
          'POS_JWT_SECRET',
          'LOG_LEVEL',
          'LOG_FORMAT',
          'POS_ALLOWED_HOSTS',
        ]) {
          assert.match(error.message, new RegExp(name));
        }
        return true;
      },
    );
  });

  it('reads the bootstrap admin and the CORS origins', () => {
    const config = loadConfig({
      POS_ADMIN_NAME: 'Boss',
      POS_ADMIN_PIN: '1234',
      POS_CORS_ORIGINS: 'https://a.example/, https://b.example',
      POS_TIMEZONE: 'America/Mexico_City',
    });
    assert.deepEqual(config.adminBootstrap, { name: 'Boss', pin: '1234', walletPassword: undefined });
    assert.deepEqual(config.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(config.timeZone, 'America/Mexico_City');
  });

  it('reads the allowed host names and the log format', () => {
    const config = loadConfig({ POS_ALLOWED_HOSTS: ' POS.example., till.lan ', LOG_FORMAT: 'pretty' });
    assert.deepEqual(config.allowedHosts, ['pos.example', 'till.lan']);
    assert.equal(config.logFormat, 'pretty');
    assert.deepEqual(loadConfig({}).allowedHosts, []);
    assert.equal(loadConfig({}).logFormat, 'json');
  });
});
