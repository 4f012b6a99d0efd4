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

  it('reads the exchange-rate source and its address', () => {
    assert.equal(loadConfig({}).rateSource, undefined);
    assert.equal(loadConfig({}).rateSourceUrl, undefined);
    assert.equal(loadConfig({ POS_RATE_SOURCE: 'fixed:1500000.25' }).rateSource, 'fixed:1500000.25');
    for (const source of ['coingecko', 'coinbase']) {
      const config = loadConfig({ POS_RATE_SOURCE: source, POS_RATE_SOURCE_URL: 'http://127.0.0.1:8080' });
      assert.equal(config.rateSource, source);
      assert.equal(config.rateSourceUrl, 'http://127.0.0.1:8080');
    }
  });

  it('refuses an unknown rate source, a bad address, and an address with nothing to use it', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems;
      }
    };
    for (const value of ['kraken', 'CoinGecko', 'fixed:', 'fixed:-1', 'fixed:0', 'fixed:abc']) {
      assert.match(problemsOf({ POS_RATE_SOURCE: value }).join(), /^POS_RATE_SOURCE must be/, value);
    }
    for (const url of ['not a url', 'ftp://example.com', 'file:///etc/passwd']) {
      assert.deepEqual(
        problemsOf({ POS_RATE_SOURCE: 'coinbase', POS_RATE_SOURCE_URL: url }),
        ['POS_RATE_SOURCE_URL must be an http:// or https:// URL'],
        url,
      );
    }
    const withoutPublicSource: Record<string, string>[] = [
      { POS_RATE_SOURCE_URL: 'https://example.com' },
      { POS_RATE_SOURCE: 'fixed:1500000', POS_RATE_SOURCE_URL: 'https://example.com' },
    ];
    for (const env of withoutPublicSource) {
      assert.deepEqual(problemsOf(env), ['POS_RATE_SOURCE_URL needs POS_RATE_SOURCE coingecko or coinbase']);
    }
  });
});
