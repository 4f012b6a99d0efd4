import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves once the server's output (stdout and stderr) matches; rejects if it exits first. */
  untilOutput: (pattern: RegExp) => Promise<void>;
};

/** Starts `src/server.ts` as `npm start` would, on a free port, and waits until it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const untilOutput = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        child.off('exit', exited);
        resolve();
      };
      const exited = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output}`));
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.once('exit', exited);
      check();
    });
  // Registered before untilOutput's listeners, so the output is complete when they look at it.
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await untilOutput(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
  const baseUrl = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] as string;
  return { child, baseUrl, output: () => output, untilOutput };
}

export async function exitCodeOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}
