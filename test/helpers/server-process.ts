import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** The process that serves, which is `child` itself unless started through npm. */
  serverPid: number;
  output: () => string;
  /** Resolves once stdout or stderr has printed something matching `pattern`. */
  waitForOutput: (pattern: RegExp) => Promise<void>;
};

export type StartOptions = {
  how?: 'node' | 'npm';
  /** Where relative paths (the default ./data) are resolved. */
  cwd?: string;
};

export type Started = { child: ChildProcess; stdout: () => string; stderr: () => string };

const root = join(import.meta.dirname, '..', '..');

/**
 * Runs the server as a user would: `node scripts/start.mjs`, the command `npm start` runs (compiled
 * to dist/ first when the sources changed), or `npm start` itself.
 */
export function spawnServer(env: Record<string, string>, options: StartOptions = {}): Started {
  const [command, args] =
    options.how === 'npm' ? ['npm', ['start']] : [process.execPath, [join(root, 'scripts', 'start.mjs')]];
  const child = spawn(command, args, {
    cwd: options.cwd ?? root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Starts the server on a free port and waits for its start-up summary. */
export async function startServerProcess(
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<ServerProcess> {
  const { child, stdout, stderr } = spawnServer(env, options);
  const output = () => stdout() + stderr();
  const waitForOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output())) return;
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        child.off('exit', exited);
        resolve();
      };
      const exited = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output()}`));
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('exit', exited);
      check();
    });
  // The summary and the log lines are written separately, in no fixed order.
  await waitForOutput(/API docs: .*\n/);
  await waitForOutput(/"pid":\d+/);
  const baseUrl = /Restaurant POS listening on (http:\/\/\S+)/.exec(stdout())?.[1] as string;
  const serverPid = Number(/"pid":(\d+)/.exec(stdout())?.[1]);
  return { child, baseUrl, serverPid, output, waitForOutput };
}

export async function exitCodeOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}

/** Runs a start that is expected to fail, to its end. */
export async function runUntilExit(
  env: Record<string, string>,
  options: StartOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { child, stdout, stderr } = spawnServer(env, options);
  const code = await exitCodeOf(child);
  return { code, stdout: stdout(), stderr: stderr() };
}
