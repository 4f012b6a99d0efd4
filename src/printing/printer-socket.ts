import { Socket } from 'node:net';

/** Where a network printer listens: raw ESC/POS on TCP, port 9100 on most of them. */
export type PrinterAddress = { host: string; port: number };

/** Sends bytes to a printer; rejects when it cannot be reached or does not take them in time. */
export type PrinterTransport = (address: PrinterAddress, bytes: Uint8Array) => Promise<void>;

const SEND_TIMEOUT_MS = 5000;

/**
 * Raw TCP ("port 9100", "JetDirect"): connect, write, half-close. The printer answers nothing, so
 * delivered means the bytes were written and the printer closed its end, or at least went quiet for a
 * while after taking everything.
 */
export function tcpPrinterTransport(timeoutMs = SEND_TIMEOUT_MS): PrinterTransport {
  return (address, bytes) =>
    new Promise((resolve, reject) => {
      const socket = new Socket();
      let isWritten = false;
      socket.setTimeout(timeoutMs);
      socket.once('timeout', () => {
        socket.destroy();
        if (isWritten) resolve();
        else
          reject(new Error(`Printer at ${address.host}:${address.port} did not answer in ${timeoutMs} ms`));
      });
      socket.once('error', (error) => {
        socket.destroy();
        reject(error);
      });
      socket.once('close', (hadError) => {
        if (!hadError && isWritten) resolve();
        else if (!hadError) reject(new Error('Printer closed the connection before taking the job'));
      });
      socket.connect(address.port, address.host, () => {
        socket.end(bytes, () => {
          isWritten = true;
        });
      });
    });
}
