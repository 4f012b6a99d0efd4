import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';

type TestContext = { after: (fn: () => Promise<void> | void) => void };

const SIM_VARIABLES = ['HOST', 'PORT', 'SIM_PORT', 'SIM_PASSWORD', 'SIM_WEBHOOK_URL', 'SIM_WEBHOOK_SECRET'];

function runSimulator(args: string[], env: Record<string, string>): ChildProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !SIM_VARIABLES.includes(name)),
  );
  return spawn(process.execPath, ['--import', 'tsx', 'test/phoenixd-sim/main.ts', ...args], {
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Starts the simulator and reads what it prints up to its webhook line. */
async function startSimulator(t: TestContext, env: Record<string, string>) {
  const child = runSimulator([], { SIM_PORT: '0', ...env });
  t.after(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (/^\s*webhook -> .+$/m.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}: ${output}`)));
  });
  const printed = (name: string) => new RegExp(`${name}=(\\S+)`).exec(output)?.[1];
  return {
    phoenixdUrl: printed('PHOENIXD_URL') as string,
    password: printed('PHOENIXD_PASSWORD') as string,
    webhookSecret: printed('PHOENIXD_WEBHOOK_SECRET'),
    webhookUrl: /^\s*webhook -> (.+)$/m.exec(output)?.[1],
  };
}

async function outputOf(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stdout, stderr };
}

describe('npm run phoenixd-sim', () => {
  it('prints the server variables that work against it, and posts webhooks to the server of PORT and HOST', async (t) => {
    const serverPort = String(20_000 + Math.floor(Math.random() * 40_000));
    const sim = await startSimulator(t, {
      PORT: serverPort,
      HOST: '0.0.0.0',
      SIM_PASSWORD: 'printed-password',
      SIM_WEBHOOK_SECRET: 'printed-secret',
    });
    assert.equal(sim.webhookUrl, `http://127.0.0.1:${serverPort}/webhook/phoenixd`);
    assert.equal(sim.password, 'printed-password');
    assert.equal(sim.webhookSecret, 'printed-secret');
    const authorization = `Basic ${Buffer.from(`:${sim.password}`).toString('base64')}`;
    const balance = await fetch(`${sim.phoenixdUrl}/getbalance`, { headers: { authorization } });
    assert.equal(balance.status, 200);
    assert.equal(typeof ((await balance.json()) as { balanceSat: unknown }).balanceSat, 'number');
  });

  it('defaults the webhook to the default server address, and SIM_WEBHOOK_URL overrides it', async (t) => {
    assert.equal((await startSimulator(t, {})).webhookUrl, 'http://127.0.0.1:9154/webhook/phoenixd');
    assert.equal(
      (await startSimulator(t, { HOST: '::1', PORT: '8080' })).webhookUrl,
      'http://[::1]:8080/webhook/phoenixd',
    );
    const target = 'http://pos.lan:7000/webhook/phoenixd';
    assert.equal((await startSimulator(t, { SIM_WEBHOOK_URL: target, PORT: '8080' })).webhookUrl, target);
  });

  it('documents its variables with --help and refuses a bad one in one line', {
    timeout: 60_000,
  }, async (t) => {
    const helpProcess = runSimulator(['--help'], { SIM_PORT: '0' });
    t.after(() => {
      if (helpProcess.exitCode === null) helpProcess.kill('SIGTERM');
    });
    const help = await outputOf(helpProcess);
    assert.equal(help.code, 0);
    for (const name of [
      'SIM_PORT',
      'SIM_PASSWORD',
      'SIM_BALANCE_SAT',
      'SIM_WEBHOOK_URL',
      'SIM_WEBHOOK_SECRET',
      'PORT',
      'HOST',
    ]) {
      assert.match(help.stdout, new RegExp(`\\b${name}\\b`));
    }
    const bad = await outputOf(runSimulator([], { SIM_PORT: 'many' }));
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'SIM_PORT must be an integer from 0 to 65535\n');
  });
});
