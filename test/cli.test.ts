import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cookieHeader, describeEachDatabase } from './helpers/app';
import { login } from './helpers/auth';
import { appOnSharedDatabase, runScript } from './helpers/cli';

const CLI = 'pos';

describeEachDatabase('admin CLI (npm run pos)', (target) => {
  it('creates users with the PIN from the environment or standard input, and they can log in', async (t) => {
    const { app, databaseUrl } = await appOnSharedDatabase(t, target);
    const fromEnvironment = await runScript(CLI, ['create-user', '--name', 'Ana', '--role', 'admin'], {
      databaseUrl,
      env: { POS_CLI_PIN: '482913' },
    });
    assert.equal(fromEnvironment.code, 0, fromEnvironment.stderr);
    assert.match(fromEnvironment.stdout, /^Created admin "Ana" \(id [0-9a-f-]{36}\)\.\n$/);
    const fromInput = await runScript(CLI, ['create-user', '--name', 'Luis'], {
      databaseUrl,
      input: '735102\n',
    });
    assert.equal(fromInput.code, 0, fromInput.stderr);
    assert.ok(!`${fromInput.stdout}${fromInput.stderr}`.includes('735102'));

    const ana = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Ana', pin: '482913' },
    });
    assert.equal(ana.statusCode, 200);
    assert.deepEqual(ana.json().user.role, 'admin');
    const luis = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Luis', pin: '735102' },
    });
    assert.equal(luis.statusCode, 200);
    assert.equal(luis.json().user.role, 'staff');

    const duplicate = await runScript(CLI, ['create-user', '--name', 'Ana'], {
      databaseUrl,
      input: '1111\n',
    });
    assert.equal(duplicate.code, 1);
    assert.equal(duplicate.stderr, 'error: A user with this name already exists\n');
  });

  it('creates a user in every built-in role and refuses a role that does not exist', async (t) => {
    const { app, databaseUrl } = await appOnSharedDatabase(t, target);
    for (const [index, role] of ['waiter', 'cashier', 'kitchen', 'manager', 'admin', 'staff'].entries()) {
      const name = `User ${role}`;
      const created = await runScript(CLI, ['create-user', '--name', name, '--role', role], {
        databaseUrl,
        env: { POS_CLI_PIN: `${4000 + index}` },
      });
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.stdout, new RegExp(`^Created ${role} "${name}"`));
      const loggedIn = await app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { name, pin: `${4000 + index}` },
      });
      assert.equal(loggedIn.json().user.role, role);
    }
    const unknown = await runScript(CLI, ['create-user', '--name', 'Nobody', '--role', 'sommelier'], {
      databaseUrl,
      env: { POS_CLI_PIN: '5555' },
    });
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'error: Unknown role\n');
  });

  it('resets a PIN through the users service: the old PIN stops working, the new one logs in', async (t) => {
    const { app, databaseUrl } = await appOnSharedDatabase(t, target);
    await runScript(CLI, ['create-user', '--name', 'Marta'], { databaseUrl, env: { POS_CLI_PIN: '1234' } });
    const reset = await runScript(CLI, ['reset-pin', '--name', ' Marta '], { databaseUrl, input: '98765\n' });
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal(reset.stdout, 'PIN of "Marta" changed.\n');

    const oldPin = await app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { name: 'Marta', pin: '1234' },
    });
    assert.equal(oldPin.statusCode, 401);
    await login(app, 'Marta', '98765');

    const unknown = await runScript(CLI, ['reset-pin', '--name', 'Nobody'], {
      databaseUrl,
      input: '98765\n',
    });
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr, 'error: No user named "Nobody"\n');
    const badPin = await runScript(CLI, ['reset-pin', '--name', 'Marta'], { databaseUrl, input: '12ab\n' });
    assert.equal(badPin.code, 1);
    assert.equal(badPin.stderr, 'error: The PIN must be 4 to 12 digits\n');
    await login(app, 'Marta', '98765');
  });

  it("sets an admin's wallet password, which then unlocks the wallet", async (t) => {
    const { app, databaseUrl } = await appOnSharedDatabase(t, target);
    await runScript(CLI, ['create-user', '--name', 'Boss', '--role', 'admin'], {
      databaseUrl,
      env: { POS_CLI_PIN: '2468' },
    });
    await runScript(CLI, ['create-user', '--name', 'Waiter'], { databaseUrl, env: { POS_CLI_PIN: '1357' } });
    const set = await runScript(CLI, ['set-wallet-password', '--name', 'Boss'], {
      databaseUrl,
      env: { POS_CLI_WALLET_PASSWORD: 'correct horse battery' },
    });
    assert.equal(set.code, 0, set.stderr);
    const reset = await runScript(CLI, ['set-wallet-password', '--name', 'Boss'], {
      databaseUrl,
      input: 'staple of the house\n',
    });
    assert.equal(reset.code, 0, reset.stderr);

    const cookies = await login(app, 'Boss', '2468');
    const unlock = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/wallet/auth',
        headers: { cookie: cookies },
        payload: { password },
      });
    assert.equal((await unlock('correct horse battery')).statusCode, 401);
    const granted = await unlock('staple of the house');
    assert.equal(granted.statusCode, 200);
    assert.ok(cookieHeader(granted).includes('walletAccessToken='));

    const staff = await runScript(CLI, ['set-wallet-password', '--name', 'Waiter'], {
      databaseUrl,
      input: 'long enough password\n',
    });
    assert.equal(staff.code, 1);
    assert.equal(staff.stderr, 'error: "Waiter" is not an admin; only admins use the wallet\n');
    const short = await runScript(CLI, ['set-wallet-password', '--name', 'Boss'], {
      databaseUrl,
      input: 'short\n',
    });
    assert.equal(short.code, 1);
    assert.equal(short.stderr, 'error: The wallet password must be 8 to 200 characters\n');
  });

  it('migrates, lists its commands, and refuses wrong usage with exit code 2', async (t) => {
    const { databaseUrl } = await appOnSharedDatabase(t, target);
    const migrate = await runScript(CLI, ['migrate'], { databaseUrl });
    assert.equal(migrate.code, 0, migrate.stderr);
    assert.equal(migrate.stdout, 'Database is up to date.\n');

    const help = await runScript(CLI, ['--help'], { databaseUrl });
    assert.equal(help.code, 0);
    for (const command of ['create-user', 'reset-pin', 'set-wallet-password', 'config', 'migrate']) {
      assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));
    }

    for (const [args, message] of [
      [[], 'A command is required'],
      [['frobnicate'], 'Unknown command "frobnicate"'],
      [['reset-pin'], '--name is required'],
      [['create-user', '--name', 'X', '--role', ' '], '--role needs a role name'],
      [
        ['create-user', '--name', 'X', '--pin', '1234'],
        'Do not put a PIN on the command line; set POS_CLI_PIN or type it on standard input',
      ],
    ] as const) {
      const result = await runScript(CLI, [...args], { databaseUrl });
      assert.equal(result.code, 2, args.join(' '));
      assert.equal(result.stderr, `error: ${message} (see npm run pos -- --help)\n`);
    }
  });

  it('shows the effective configuration with every secret masked', async (t) => {
    const { databaseUrl } = await appOnSharedDatabase(t, target);
    const result = await runScript(CLI, ['config'], {
      databaseUrl: 'postgres://pos:db-password-123@db.lan:5432/pos',
      env: {
        POS_ADMIN_NAME: 'Boss',
        POS_ADMIN_PIN: '864213',
        PHOENIXD_PASSWORD: 'phoenixd-password-456',
        PHOENIXD_WEBHOOK_SECRET: 'webhook-secret-789',
        POS_TIMEZONE: 'America/Mexico_City',
      },
    });
    assert.equal(result.code, 0, result.stderr);
    for (const secret of ['db-password-123', '864213', 'phoenixd-password-456', 'webhook-secret-789']) {
      assert.ok(!result.stdout.includes(secret), secret);
    }
    const shown = JSON.parse(result.stdout);
    assert.equal(shown.databaseUrl, 'postgres://pos:********@db.lan:5432/pos');
    assert.equal(shown.timeZone, 'America/Mexico_City');
    assert.equal(shown.jwtSecret, '********');
    assert.deepEqual(shown.adminBootstrap, { name: 'Boss', pin: '********', walletPassword: null });
    assert.equal(shown.phoenixd.password, '********');

    const invalid = await runScript(CLI, ['create-user', '--name', 'X'], {
      databaseUrl,
      env: { POS_TIMEZONE: 'Mars/Base' },
    });
    assert.equal(invalid.code, 1);
    assert.equal(
      invalid.stderr,
      'error: Invalid configuration: POS_TIMEZONE "Mars/Base" is not an IANA time zone\n',
    );
  });
});
