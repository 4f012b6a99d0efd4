import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { OUT_OF_PAPER, PAPER_STATUS_REQUEST, tcpPrinterTransport } from '../src/printing/printer-socket';
import { FakePrinter, switchedOffPort } from './helpers/fake-printer';

describe('printer socket', () => {
  it('delivers the bytes to a printer that takes them and closes', async (t) => {
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    await tcpPrinterTransport()(
      { host: '127.0.0.1', port: printer.port },
      Uint8Array.from([0x1b, 0x40, 0x41]),
    );
    assert.deepEqual(printer.jobs, [Buffer.from([0x1b, 0x40, 0x41])]);
  });

  it('fails when nothing listens', async () => {
    const port = await switchedOffPort();
    await assert.rejects(
      tcpPrinterTransport()({ host: '127.0.0.1', port }, Uint8Array.from([1])),
      /ECONNREFUSED/,
    );
  });

  it('asks for the paper status first and sends no job to a printer that says it has no paper', async (t) => {
    const printer = await FakePrinter.start();
    t.after(() => printer.stop());
    printer.isOutOfPaper = true;
    const send = tcpPrinterTransport();
    const address = { host: '127.0.0.1', port: printer.port };
    await assert.rejects(send(address, Uint8Array.from([0x1b, 0x40])), { message: OUT_OF_PAPER });
    assert.deepEqual(printer.jobs, []);
    printer.isOutOfPaper = false;
    await send(address, Uint8Array.from([0x1b, 0x40]));
    assert.deepEqual(printer.jobs, [Buffer.from([0x1b, 0x40])]);
  });

  it('sends the job to a printer that does not answer the status request, and counts it delivered when it took every byte but keeps the connection open', async (t) => {
    const received: Buffer[] = [];
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => received.push(chunk));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const { port } = server.address() as { port: number };
    await tcpPrinterTransport(200, 100)({ host: '127.0.0.1', port }, Uint8Array.from([7, 8, 9]));
    assert.deepEqual(Buffer.concat(received), Buffer.from([...PAPER_STATUS_REQUEST, 7, 8, 9]));
  });

  it('fails when a printer hangs up before taking the job', async (t) => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const big = new Uint8Array(8 * 1024 * 1024);
    await assert.rejects(tcpPrinterTransport(2000)({ host: '127.0.0.1', port }, big));
  });
});
