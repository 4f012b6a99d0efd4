import type { AddressInfo } from 'node:net';
import { buildTestApp } from './app';

export type Frame = { id?: string; event?: string; data?: string; comment?: string };

/** A minimal SSE reader over fetch: frames as they arrive, and whether the server ended the stream. */
export async function openStream(
  base: string,
  cookies: string,
  path = '/events',
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${path}`, { headers: { cookie: cookies, ...headers } });
  const frames: Frame[] = [];
  let ended = false;
  const waiters: (() => void)[] = [];
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  const pump = (async () => {
    let buffer = '';
    for (;;) {
      const chunk = await reader?.read().catch(() => ({ done: true, value: undefined }));
      if (!chunk || chunk.done) break;
      buffer += chunk.value;
      // Frames are cut from a moving start and the rest kept once per chunk: slicing the buffer after
      // every frame copied a replay's chunk hundreds of times, slowing the test's own event loop.
      let start = 0;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame: Frame = {};
        for (const line of buffer.slice(start, end).split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else {
            const [field, ...rest] = line.split(': ');
            (frame as Record<string, string>)[field as string] = rest.join(': ');
          }
        }
        frames.push(frame);
        start = end + 2;
        end = buffer.indexOf('\n\n', start);
      }
      buffer = buffer.slice(start);
      notify();
    }
    ended = true;
    notify();
  })();
  const until = async (test: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(frames)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return {
    status: response.status,
    frames,
    events: () => frames.filter((frame) => frame.event),
    until,
    isEnded: () => ended,
    cancel: () => reader?.cancel().catch(() => undefined),
    pump,
  };
}

/** A test app listening on a real loopback port, for clients that need a socket (SSE). */
export async function listeningTestApp(
  t: Parameters<typeof buildTestApp>[0],
  target: Parameters<typeof buildTestApp>[1],
  options: Parameters<typeof buildTestApp>[2] = {},
) {
  const test = await buildTestApp(t, target, options);
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = test.app.server.address() as AddressInfo;
  return { ...test, base: `http://127.0.0.1:${port}` };
}
