import { Writable } from 'node:stream';

/** A log stream for buildTestApp that keeps every line, to assert on what was (not) logged. */
export function captureLogs(): { stream: Writable; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('\n') };
}
