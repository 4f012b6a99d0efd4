import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

type Instruction = { keyword: string; argument: string };

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function dockerfileInstructions(): Instruction[] {
  return read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), argument: rest.join(' ') };
    });
}

function isCommandAvailable(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

describe('Dockerfile', () => {
  const instructions = dockerfileInstructions();
  const stages = instructions.filter(({ keyword }) => keyword === 'FROM');
  const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1) as Instruction));
  const find = (keyword: string) => runtime.filter((instruction) => instruction.keyword === keyword);

  it('builds in one stage and runs the compiled server with plain node in a slim one, not as root', () => {
    assert.equal(stages.length, 2);
    assert.match(stages[0]?.argument ?? '', / AS build$/);
    assert.match(stages[1]?.argument ?? '', /-slim$/);
    assert.ok(
      instructions.some(({ argument }) => /npm run build/.test(argument) && /--omit=dev/.test(argument)),
    );
    assert.ok(find('COPY').some(({ argument }) => argument === '--from=build /app/dist ./dist'));
    assert.deepEqual(find('USER'), [{ keyword: 'USER', argument: 'node' }]);
    const [command] = find('CMD');
    const argv = JSON.parse(command?.argument ?? '[]') as string[];
    assert.equal(argv[0], 'node', 'node is PID 1 and gets the SIGTERM itself');
    assert.equal(argv.at(-1), 'dist/server.js');
  });

  it('listens on every interface, keeps the database in a volume and checks its health', () => {
    const env = find('ENV')
      .map(({ argument }) => argument)
      .join(' ');
    assert.match(env, /HOST=0\.0\.0\.0/);
    assert.match(env, /DATABASE_URL=sqlite:\/data\/pos\.db/);
    assert.deepEqual(find('VOLUME'), [{ keyword: 'VOLUME', argument: '/data' }]);
    assert.match(find('HEALTHCHECK')[0]?.argument ?? '', /\/health\/live/);
    assert.deepEqual(find('STOPSIGNAL'), [{ keyword: 'STOPSIGNAL', argument: 'SIGTERM' }]);
  });

  it('shows a run that passes the keys and binds 127.0.0.1 only', () => {
    const header = read('Dockerfile')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .join('\n');
    assert.match(header, /docker run .*-p 127\.0\.0\.1:9154:9154/);
    assert.match(header, /-e POS_JWT_SECRET -e POS_PIN_KEY/);
  });

  it('keeps node_modules, data and databases out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '*.db', '.git'])
      assert.ok(ignored.includes(entry), entry);
  });

  it('builds with Docker', async (t) => {
    if (!isCommandAvailable('docker', ['info'])) {
      t.skip(
        'not run in CI: no Docker engine here (`docker info` fails), so the image is not built; the Dockerfile is only parsed above',
      );
      return;
    }
    await run('docker', ['build', '--tag', 'restaurant-pos:test', root], { maxBuffer: 64 * 1024 * 1024 });
  });
});

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'));
  const pos = compose.services?.pos;
  const postgres = compose.services?.postgres;

  it('runs the POS image on PostgreSQL once the database is healthy', () => {
    assert.equal(pos.build, '.');
    assert.deepEqual(pos.depends_on, { postgres: { condition: 'service_healthy' } });
    assert.match(postgres.image, /^postgres:\d+/);
    assert.match(postgres.healthcheck.test.join(' '), /pg_isready/);
    assert.equal(
      pos.environment.DATABASE_URL,
      `postgres://${postgres.environment.POSTGRES_USER}:\${POSTGRES_PASSWORD}@postgres:5432/${postgres.environment.POSTGRES_DB}`,
    );
    assert.deepEqual(Object.keys(compose.volumes), [
      'postgres-data',
      'pos-data',
      'caddy-data',
      'caddy-config',
      'caddy-public-data',
      'caddy-public-config',
    ]);
  });

  it('requires the secrets from outside the database and checks readiness through /health', () => {
    for (const name of ['POS_JWT_SECRET', 'POS_PIN_KEY']) {
      assert.match(pos.environment[name], new RegExp(`^\\$\\{${name}:\\?`), `${name} must be set`);
    }
    assert.match(postgres.environment.POSTGRES_PASSWORD, /^\$\{POSTGRES_PASSWORD:\?/);
    assert.match(pos.healthcheck.test.join(' '), /\/health'/);
    assert.deepEqual(pos.ports, ['127.0.0.1:9154:9154']);
  });

  it('names every variable the server reads: passed on, set by the image, or said not to apply', () => {
    const variables = [...read('src/config.ts').matchAll(/read\('([A-Z_]+)'\)/g)].map(
      (match) => match[1] as string,
    );
    assert.ok(variables.length > 30, 'the variables config.ts reads');
    const text = read('compose.yaml');
    const comments = text
      .split('\n')
      .filter((line) => line.trim().startsWith('#'))
      .join('\n');
    for (const name of new Set(variables)) {
      const isPassed = name in pos.environment;
      assert.ok(isPassed || new RegExp(`\\b${name}\\b`).test(comments), `${name} is not in compose.yaml`);
    }
  });

  it('passes only variables the server reads', () => {
    const documented = read('README.md');
    for (const name of Object.keys(pos.environment))
      assert.match(documented, new RegExp(`\`${name}\``), name);
  });

  it('passes every variable a restaurant needs, the proxy settings together', () => {
    for (const name of [
      'POS_RATE_SOURCE',
      'POS_BUSINESS_NAME',
      'POS_ALLOWED_HOSTS',
      'POS_TRUST_PROXY',
      'POS_ADMIN_NAME',
      'POS_ADMIN_PIN',
      'POS_ADMIN_WALLET_PASSWORD',
      'LOG_FORMAT',
      'LOG_LEVEL',
      'PHOENIXD_PASSWORD',
      'PHOENIXD_WEBHOOK_SECRET',
    ]) {
      assert.ok(name in pos.environment, name);
    }
    assert.match(pos.environment.POS_ALLOWED_HOSTS, /^\$\{POS_ALLOWED_HOSTS:\?/);
    assert.equal(pos.environment.POS_TRUST_PROXY, `\${POS_TRUST_PROXY:-1}`);
    assert.ok(postgres.volumes.includes('./backups:/backups'), 'pg_dump writes into ./backups');
  });

  it('serves HTTPS on the LAN through Caddy with tls internal under the tls profile', () => {
    const caddy = compose.services?.caddy;
    assert.deepEqual(caddy.profiles, ['tls']);
    assert.match(caddy.image, /^caddy:2/);
    assert.ok(caddy.ports.includes('443:443'));
    assert.ok(caddy.volumes.includes('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro'));
    assert.equal(caddy.environment.POS_PUBLIC_NAME, `\${POS_ALLOWED_HOSTS:?set POS_ALLOWED_HOSTS in .env}`);
    // The shipped site's rules are run by the real caddy in test/e2e/behind-proxy.test.ts.
    assert.equal(caddy.environment.POS_UPSTREAM, 'pos:9154');
    assert.match(read('deploy/Caddyfile'), /^\{\$POS_PUBLIC_NAME:[^}]+\} \{$/m);
  });

  it('serves only the guest site from the internet through a second Caddy under the public profile', () => {
    const site = compose.services?.['caddy-public'];
    assert.deepEqual(site.profiles, ['public']);
    assert.match(site.image, /^caddy:2/);
    assert.ok(site.volumes.includes('./deploy/Caddyfile.public:/etc/caddy/Caddyfile:ro'));
    assert.match(site.environment.POS_GUEST_NAME, /^\$\{POS_GUEST_NAME:\?/);
    assert.equal(pos.environment.POS_PUBLIC_URL, `\${POS_PUBLIC_URL:-}`);
    // Its rules are run by the real caddy in test/e2e/public-site.test.ts.
    assert.equal(site.environment.POS_UPSTREAM, 'pos:9154');
    assert.match(read('deploy/Caddyfile.public'), /^\{\$POS_GUEST_NAME:[^}]+\} \{$/m);
  });

  it('keeps .env and backups out of git and of the image', () => {
    for (const file of ['.gitignore', '.dockerignore']) {
      const ignored = read(file).split('\n');
      assert.ok(ignored.includes('.env'), `${file}: .env`);
    }
  });

  it('is a valid Compose file for docker compose', async (t) => {
    if (!isCommandAvailable('docker', ['compose', 'version'])) {
      t.skip(
        'not run in CI: no `docker compose` here (.ci/run installs no Docker), so compose.yaml is only parsed above',
      );
      return;
    }
    const env = {
      ...process.env,
      POSTGRES_PASSWORD: 'p',
      POS_JWT_SECRET: 'j'.repeat(32),
      POS_PIN_KEY: 'k'.repeat(32),
      POS_ALLOWED_HOSTS: 'pos.restaurant.lan',
    };
    await run('docker', ['compose', '--file', join(root, 'compose.yaml'), 'config', '--quiet'], { env });
  });
});

describe('systemd unit', () => {
  const unit = read('deploy/restaurant-pos.service');
  const settings = new Map(
    unit
      .split('\n')
      .filter((line) => /^\w+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

  it('runs plain node on the compiled server and stops it with SIGTERM', () => {
    assert.equal(settings.get('Type'), 'simple');
    assert.equal(settings.get('KillSignal'), 'SIGTERM');
    assert.match(settings.get('ExecStart') ?? '', /^\/usr\/bin\/node .*dist\/server\.js$/);
    assert.equal(settings.get('NoNewPrivileges'), 'yes');
    assert.equal(settings.get('ProtectSystem'), 'strict');
    assert.equal(settings.get('StateDirectoryMode'), '0700');
  });

  it('is a unit systemd accepts without a warning', async (t) => {
    if (!isCommandAvailable('systemd-analyze', ['--version'])) {
      t.skip('no systemd-analyze here: .ci/run installs systemd for it, so CI does run this check');
      return;
    }
    const { stdout, stderr } = await run('systemd-analyze', [
      'verify',
      join(root, 'deploy/restaurant-pos.service'),
    ]);
    assert.equal(stdout + stderr, '');
  });
});
