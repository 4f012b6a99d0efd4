import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { escposOf, FEED_BEFORE_CUT } from '../src/printing/escpos';
import {
  OUT_OF_PAPER,
  PAPER_STATUS_REQUEST,
  saysOutOfPaper,
  tcpPrinterTransport,
} from '../src/printing/printer-socket';
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

  it('reads paper out only from a byte with the status fixed bits (0x12): anything else says nothing of paper', async (t) => {
    assert.equal(saysOutOfPaper(0x72), true);
    for (const byte of [0x12, 0x1e, 0x60, 0x61, 0xff, 0xe0])
      assert.equal(saysOutOfPaper(byte), false, String(byte));
    // A printer that answers with a byte that is no status (0x60 without the fixed bits) gets its job.
    const received: Buffer[] = [];
    const server = createServer((socket) => {
      socket.once('data', () => socket.write(Buffer.from([0x60])));
      socket.on('data', (chunk) => received.push(chunk));
      socket.on('end', () => socket.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    await tcpPrinterTransport(2000)({ host: '127.0.0.1', port }, Uint8Array.from([7, 8, 9]));
    assert.deepEqual(Buffer.concat(received), Buffer.from([...PAPER_STATUS_REQUEST, 7, 8, 9]));
  });

  it('feeds the last line past the cutter before cutting (GS V 0)', () => {
    const bytes = Buffer.from(escposOf(['Total 95.00', 'Gracias'], 32));
    const cut = bytes.lastIndexOf(Buffer.from([0x1d, 0x56, 0x00]));
    const lastLine = bytes.lastIndexOf(Buffer.from('Gracias'));
    const between = bytes.subarray(lastLine + 'Gracias'.length, cut);
    assert.deepEqual(between, Buffer.alloc(FEED_BEFORE_CUT + 1, 0x0a), 'its own newline, then the feed');
    assert.ok(FEED_BEFORE_CUT >= 4);
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
