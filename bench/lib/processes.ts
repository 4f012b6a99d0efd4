import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';

export type RunningServer = {
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  /** Peak resident set size so far (VmHWM), in MiB; read it before the process ends. */
  peakRssMb: () => number;
  /** CPU time the process has used so far (user + system, all its threads), in seconds. */
  cpuSeconds: () => number;
  /** SIGTERM (graceful close, writes a CPU profile when one was asked for), SIGKILL after 15 s. */
  stop: () => Promise<void>;
  /** SIGKILL right now: the crash the crash test is about. */
  kill: () => Promise<void>;
};

export const HOST = '127.0.0.1';

export const APP_ADMIN = { name: 'bench-admin', pin: '482915' } as const;

/** The environment that loads the statement census (statement-census.mjs) into a server, writing to `file`. */
function censusEnv(file: string | undefined): Record<string, string> {
  if (file === undefined) return {};
  const preload = `--import ${resolve('bench/lib/statement-census.mjs')}`;
  return {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${preload}`.trim(),
    CENSUS_FILE: file,
    CENSUS_PROFILE_DIR: dirname(file),
  };
}

/** Starts our server exactly as `npm start` does, on a port of its own, and waits until it answers. */
export function startAppServer(
  databaseUrl: string,
  options: {
    cpuProfileDir?: string | undefined;
    env?: Record<string, string>;
    port?: number;
    censusFile?: string | undefined;
  } = {},
): Promise<RunningServer> {
  const profiling = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  return startNodeProcess(
    [...profiling, 'scripts/start.mjs'],
    {
      DATABASE_URL: databaseUrl,
      POS_ADMIN_NAME: APP_ADMIN.name,
      POS_ADMIN_PIN: APP_ADMIN.pin,
      LOG_LEVEL: 'warn',
      ...options.env,
      ...censusEnv(options.censusFile),
    },
    '/initial-setup',
    options.port,
  );
}

/** The bare comparison server (bench/baseline/server.ts) on the same database. */
export function startBaselineServer(databaseUrl: string, censusFile?: string): Promise<RunningServer> {
  return startNodeProcess(
    ['--import', 'tsx', 'bench/baseline/server.ts'],
    { DATABASE_URL: databaseUrl, ...censusEnv(censusFile) },
    '/ready',
  );
}

async function startNodeProcess(
  args: string[],
  env: Record<string, string>,
  readyPath: string,
  fixedPort?: number,
): Promise<RunningServer> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  const baseUrl = `http://${HOST}:${port}`;
  await waitUntilAnswering(`${baseUrl}${readyPath}`, child, () => stderr);
  const pid = child.pid as number;
  return {
    baseUrl,
    pid,
    child,
    peakRssMb: () => peakRssMb(pid),
    cpuSeconds: () => cpuSeconds(pid),
    stop: () => endProcess(child, 'SIGTERM'),
    kill: () => endProcess(child, 'SIGKILL'),
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stderr()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer ${url} within 60 s:\n${stderr()}`);
}

async function endProcess(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  const forceKill = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(forceKill);
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

const CLOCK_TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number): number {
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return (userTicks + systemTicks) / CLOCK_TICKS_PER_SECOND;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
