import { stderr, stdin } from 'node:process';
import { createInterface } from 'node:readline';

/**
 * A PIN or password from an environment variable, or else from standard input: typed at a terminal
 * (not echoed) or piped. Never from the command line, where `ps` and the shell history would keep it.
 */
export async function readSecret(variable: string, prompt: string): Promise<string> {
  const fromEnvironment = process.env[variable];
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  return stdin.isTTY ? readHidden(prompt) : readFirstLine();
}

async function readFirstLine(): Promise<string> {
  const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

function readHidden(prompt: string): Promise<string> {
  stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  let typed = '';
  return new Promise((resolve, reject) => {
    const finish = (outcome: () => void) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return finish(() => resolve(typed));
        if (character === '\u0003') return finish(() => reject(new Error('cancelled')));
        typed = character === '\u007f' || character === '\b' ? typed.slice(0, -1) : typed + character;
      }
    };
    stdin.on('data', onData);
  });
}
