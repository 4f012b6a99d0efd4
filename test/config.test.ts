import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { ConfigError, loadConfig } from '../src/config';
import { startupSummary } from '../src/core/startup';

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
    assert.equal(
      loadConfig({ POS_RATE_SOURCE: 'coingecko', POS_RATE_SOURCE_KEY: 'CG-1' }).rateSourceKey,
      'CG-1',
    );
    assert.match(
      problemsOf({ POS_RATE_SOURCE: 'coinbase', POS_RATE_SOURCE_KEY: 'CG-1' }).join(),
      /needs POS_RATE_SOURCE coingecko/,
    );
  });

  it('reads POS_PUBLIC_URL without its trailing slash and refuses anything but an http(s) URL', () => {
    assert.equal(loadConfig({}).publicUrl, undefined);
    assert.equal(
      loadConfig({ POS_PUBLIC_URL: 'https://mesa.laesquina.mx/' }).publicUrl,
      'https://mesa.laesquina.mx',
    );
    // The name guests reach the server by is one of its names, besides the tablets' own.
    assert.deepEqual(
      loadConfig({ POS_PUBLIC_URL: 'https://Mesa.laesquina.mx', POS_ALLOWED_HOSTS: 'pos.lan' }).allowedHosts,
      ['pos.lan', 'mesa.laesquina.mx'],
    );
    for (const url of ['mesa.laesquina.mx', 'ftp://example.com', 'https://']) {
      assert.throws(
        () => loadConfig({ POS_PUBLIC_URL: url }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.join() === 'POS_PUBLIC_URL must be an http:// or https:// URL',
        url,
      );
    }
  });

  describe('POS_TRUST_PROXY', () => {
    it('trusts nobody when unset, a hop count, or a list of addresses and CIDRs', () => {
      assert.equal(loadConfig({}).trustProxy, false);
      assert.equal(loadConfig({ POS_TRUST_PROXY: '1' }).trustProxy, 1);
      assert.deepEqual(loadConfig({ POS_TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8' }).trustProxy, [
        '127.0.0.1',
        '10.0.0.0/8',
        '::1',
        'fd00::/8',
      ]);
    });

    it('refuses trusting everyone, names and malformed ranges', () => {
      for (const value of ['true', '0', '11', 'caddy', '10.0.0.0/33', '::1/129', '127.0.0.1/8/1', ',']) {
        assert.throws(
          () => loadConfig({ POS_TRUST_PROXY: value }),
          /POS_TRUST_PROXY must be a hop count/,
          value,
        );
      }
    });
  });

  describe('scheduled backups', () => {
    it('are off by default and keep 14', () => {
      assert.deepEqual(loadConfig({}).backups, { dir: undefined, everyMs: undefined, keep: 14 });
    });

    it('read the folder, the interval and how many to keep', () => {
      const config = loadConfig({ POS_BACKUP_DIR: '/backups', POS_BACKUP_EVERY: '6h', POS_BACKUP_KEEP: '3' });
      assert.deepEqual(config.backups, { dir: '/backups', everyMs: 6 * 3_600_000, keep: 3 });
      assert.equal(loadConfig({ POS_BACKUP_DIR: '/b', POS_BACKUP_EVERY: '30m' }).backups.everyMs, 1_800_000);
      assert.equal(loadConfig({ POS_BACKUP_DIR: '/b', POS_BACKUP_EVERY: '1d' }).backups.everyMs, 86_400_000);
    });

    it('refuse a bad interval, an interval without a folder, a bad count and PostgreSQL', () => {
      assert.throws(
        () => loadConfig({ POS_BACKUP_DIR: '/b', POS_BACKUP_EVERY: '6 hours' }),
        /POS_BACKUP_EVERY must be/,
      );
      assert.throws(
        () => loadConfig({ POS_BACKUP_DIR: '/b', POS_BACKUP_EVERY: '10s' }),
        /POS_BACKUP_EVERY must be/,
      );
      assert.throws(() => loadConfig({ POS_BACKUP_EVERY: '6h' }), /POS_BACKUP_EVERY needs POS_BACKUP_DIR/);
      assert.throws(() => loadConfig({ POS_BACKUP_KEEP: '0' }), /POS_BACKUP_KEEP must be/);
      assert.throws(
        () => loadConfig({ DATABASE_URL: 'postgres://x/y', POS_BACKUP_DIR: '/b', POS_BACKUP_EVERY: '6h' }),
        /back up PostgreSQL with pg_dump/,
      );
    });
  });

  describe('delivery apps', () => {
    const UBER = {
      POS_UBEREATS_CLIENT_ID: 'uber-id',
      POS_UBEREATS_CLIENT_SECRET: 'uber-secret',
      POS_UBEREATS_STORE_ID: 'uber-store',
    };
    const RAPPI = {
      POS_RAPPI_CLIENT_ID: 'rappi-id',
      POS_RAPPI_CLIENT_SECRET: 'rappi-secret',
      POS_RAPPI_STORE_ID: '900100001',
    };

    it('are off until their id, secret and store are set, and the summary says so', () => {
      const config = loadConfig({});
      assert.deepEqual(config.deliveryApps, { ubereats: undefined, rappi: undefined });
      const summary = startupSummary(config, { address: null, hasAdmin: true });
      assert.ok(
        summary.includes(
          '  uber eats: off (set POS_UBEREATS_CLIENT_ID, POS_UBEREATS_CLIENT_SECRET and POS_UBEREATS_STORE_ID)',
        ),
      );
      assert.ok(
        summary.includes(
          '  rappi:     off (set POS_RAPPI_CLIENT_ID, POS_RAPPI_CLIENT_SECRET and POS_RAPPI_STORE_ID)',
        ),
      );
    });

    it("are on with their platform's addresses by default; the summary names store and URL, never the secret", () => {
      const config = loadConfig({ ...UBER, ...RAPPI });
      assert.deepEqual(config.deliveryApps.ubereats, {
        clientId: 'uber-id',
        clientSecret: 'uber-secret',
        storeId: 'uber-store',
        apiUrl: 'https://api.uber.com',
        authUrl: 'https://auth.uber.com',
        timeoutMs: 10_000,
      });
      assert.deepEqual(config.deliveryApps.rappi, {
        clientId: 'rappi-id',
        clientSecret: 'rappi-secret',
        storeId: '900100001',
        apiUrl: 'https://api.rappi.com.mx',
        timeoutMs: 10_000,
      });
      const summary = startupSummary(config, { address: null, hasAdmin: true }).join('\n');
      assert.match(summary, /uber eats: on, store uber-store at https:\/\/api\.uber\.com/);
      assert.match(
        summary,
        /rappi: {5}on, store 900100001 at https:\/\/api\.rappi\.com\.mx, orders read \(set POS_PUBLIC_URL for its webhooks\)/,
      );
      assert.doesNotMatch(summary, /secret/);
      const withPublicUrl = loadConfig({ ...RAPPI, POS_PUBLIC_URL: 'https://mesa.example.mx' });
      assert.match(
        startupSummary(withPublicUrl, { address: null, hasAdmin: true }).join('\n'),
        /rappi: {5}on, store 900100001 at \S+, webhooks at https:\/\/mesa\.example\.mx\/channels\/rappi\/webhook/,
      );
    });

    it('read other addresses and timeouts, without a trailing slash', () => {
      const config = loadConfig({
        ...UBER,
        ...RAPPI,
        POS_UBEREATS_API_URL: 'http://127.0.0.1:9770/',
        POS_UBEREATS_AUTH_URL: 'http://127.0.0.1:9770',
        POS_UBEREATS_TIMEOUT_MS: '3000',
        POS_RAPPI_API_URL: 'http://127.0.0.1:9741/',
      });
      assert.equal(config.deliveryApps.ubereats?.apiUrl, 'http://127.0.0.1:9770');
      assert.equal(config.deliveryApps.ubereats?.authUrl, 'http://127.0.0.1:9770');
      assert.equal(config.deliveryApps.ubereats?.timeoutMs, 3000);
      assert.equal(config.deliveryApps.rappi?.apiUrl, 'http://127.0.0.1:9741');
    });

    it('refuse a platform partly set, a bad address and a bad timeout', () => {
      assert.throws(
        () =>
          loadConfig({
            POS_UBEREATS_CLIENT_ID: 'uber-id',
            POS_RAPPI_CLIENT_SECRET: 'rappi-secret',
            POS_RAPPI_API_URL: 'ftp://rappi',
            POS_RAPPI_TIMEOUT_MS: '0',
          }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.deepEqual(error.problems, [
            'POS_UBEREATS_CLIENT_ID, POS_UBEREATS_CLIENT_SECRET, POS_UBEREATS_STORE_ID must be set together (missing POS_UBEREATS_CLIENT_SECRET, POS_UBEREATS_STORE_ID)',
            'POS_RAPPI_API_URL must be an http:// or https:// URL',
            'POS_RAPPI_TIMEOUT_MS must be a positive integer',
            'POS_RAPPI_CLIENT_ID, POS_RAPPI_CLIENT_SECRET, POS_RAPPI_STORE_ID must be set together (missing POS_RAPPI_CLIENT_ID, POS_RAPPI_STORE_ID)',
          ]);
          return true;
        },
      );
    });
  });

  describe('secrets from files', () => {
    function secretFile(t: TestContext, content: string): string {
      const folder = mkdtempSync(join(tmpdir(), 'pos-config-'));
      t.after(() => rmSync(folder, { recursive: true, force: true }));
      const path = join(folder, 'secret');
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    }

    it('reads every secret from its _FILE variable, without the trailing newline', (t) => {
      const jwt = 'j'.repeat(40);
      const config = loadConfig({
        POS_JWT_SECRET_FILE: secretFile(t, `${jwt}\n`),
        POS_PIN_KEY_FILE: secretFile(t, 'k'.repeat(40)),
        PHOENIXD_PASSWORD_FILE: secretFile(t, 'node-password\n'),
        PHOENIXD_WEBHOOK_SECRET_FILE: secretFile(t, 'hook-secret\n'),
        POS_ADMIN_NAME: 'Owner',
        POS_ADMIN_PIN_FILE: secretFile(t, '123456\n'),
        POS_ADMIN_WALLET_PASSWORD_FILE: secretFile(t, 'wallet pass\n'),
        DATABASE_URL_FILE: secretFile(t, 'postgres://pos:pw@db/pos\n'),
      });
      assert.equal(config.jwtSecret, jwt);
      assert.equal(config.pinKey, 'k'.repeat(40));
      assert.equal(config.phoenixd.password, 'node-password');
      assert.equal(config.phoenixd.webhookSecret, 'hook-secret');
      assert.deepEqual(config.adminBootstrap, {
        name: 'Owner',
        pin: '123456',
        walletPassword: 'wallet pass',
      });
      assert.equal(config.databaseUrl, 'postgres://pos:pw@db/pos');
    });

    it("reads the delivery apps' client secrets from their _FILE variables", (t) => {
      const config = loadConfig({
        POS_UBEREATS_CLIENT_ID: 'uber-id',
        POS_UBEREATS_CLIENT_SECRET_FILE: secretFile(t, 'uber-secret\n'),
        POS_UBEREATS_STORE_ID: 'uber-store',
        POS_RAPPI_CLIENT_ID: 'rappi-id',
        POS_RAPPI_CLIENT_SECRET_FILE: secretFile(t, 'rappi-secret\n'),
        POS_RAPPI_STORE_ID: '900100001',
      });
      assert.equal(config.deliveryApps.ubereats?.clientSecret, 'uber-secret');
      assert.equal(config.deliveryApps.rappi?.clientSecret, 'rappi-secret');
    });

    it('validates a secret from a file like one from the environment', (t) => {
      assert.throws(
        () => loadConfig({ POS_JWT_SECRET_FILE: secretFile(t, 'short\n') }),
        /POS_JWT_SECRET must be at least 32 characters/,
      );
    });

    it('refuses a file it cannot read and a secret given both ways', (t) => {
      assert.throws(
        () => loadConfig({ POS_PIN_KEY_FILE: '/nonexistent/pin-key' }),
        /POS_PIN_KEY_FILE \/nonexistent\/pin-key cannot be read \(ENOENT\)/,
      );
      assert.throws(
        () => loadConfig({ PHOENIXD_PASSWORD: 'a', PHOENIXD_PASSWORD_FILE: secretFile(t, 'b') }),
        /PHOENIXD_PASSWORD and PHOENIXD_PASSWORD_FILE are both set: keep one/,
      );
    });

    it('reads at most 64 KiB of a secret file, so a file without end cannot hang the start', (t) => {
      assert.throws(
        () => loadConfig({ POS_JWT_SECRET_FILE: '/dev/zero' }),
        /POS_JWT_SECRET_FILE \/dev\/zero holds more than 64 KiB: it must hold the one value/,
      );
      assert.throws(
        () => loadConfig({ POS_PIN_KEY_FILE: secretFile(t, 'k'.repeat(64 * 1024 + 1)) }),
        /POS_PIN_KEY_FILE .* holds more than 64 KiB/,
      );
      assert.equal(
        loadConfig({ POS_PIN_KEY_FILE: secretFile(t, 'k'.repeat(64 * 1024)) }).pinKey?.length,
        64 * 1024,
      );
    });
  });
});
