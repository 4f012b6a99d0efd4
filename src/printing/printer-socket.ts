import { Socket } from 'node:net';

import type { PrinterTransport } from '../core/context';

/** The error of a job refused because the printer said it has no paper; GET /printers/status reads it back. */
export const OUT_OF_PAPER = 'Printer is out of paper';

const SEND_TIMEOUT_MS = 5000;
/** A printer that does not answer the status request this fast is sent the job anyway. */
const STATUS_TIMEOUT_MS = 500;
/** ESC/POS real-time status request DLE EOT 4: the paper roll sensor, answered with one byte. */
export const PAPER_STATUS_REQUEST = Uint8Array.from([0x10, 0x04, 0x04]);
/** Bits 5 and 6 of that byte: the paper has run out. */
const PAPER_END_BITS = 0x60;
/**
 * The bits every status byte of DLE EOT 4 has the same (0 and 7 clear, 1 and 4 set): a byte without
 * them is not that answer (a late reply to something else, line noise), so it says nothing of paper.
 */
const STATUS_FIXED_MASK = 0x93;
const STATUS_FIXED_BITS = 0x12;

/** Whether a byte is a paper status that says the roll has run out. */
export function saysOutOfPaper(answer: number): boolean {
  return (answer & STATUS_FIXED_MASK) === STATUS_FIXED_BITS && (answer & PAPER_END_BITS) === PAPER_END_BITS;
}

/**
 * Raw TCP ("port 9100", "JetDirect"): connect, ask for the paper status, write, half-close. A job sent
 * to a printer without paper would be taken and lost, so an answer saying so fails the attempt and the
 * job waits in the queue; a printer that does not answer the request (some do not) is sent the job as
 * before. Delivered means the bytes were written and the printer closed its end, or at least went quiet
 * for a while after taking everything.
 */
export function tcpPrinterTransport(
  timeoutMs = SEND_TIMEOUT_MS,
  statusTimeoutMs = STATUS_TIMEOUT_MS,
): PrinterTransport {
  return (address, bytes) =>
    new Promise((resolve, reject) => {
      const socket = new Socket();
      let isWritten = false;
      let statusTimer: ReturnType<typeof setTimeout> | undefined;
      const fail = (error: Error) => {
        clearTimeout(statusTimer);
        socket.destroy();
        reject(error);
      };
      const send = () => {
        clearTimeout(statusTimer);
        // A late answer, or anything else the printer says, is read and dropped.
        socket.removeAllListeners('data');
        socket.resume();
        socket.end(bytes, () => {
          isWritten = true;
        });
      };
      socket.setTimeout(timeoutMs);
      socket.once('timeout', () => {
        socket.destroy();
        if (isWritten) resolve();
        else
          reject(new Error(`Printer at ${address.host}:${address.port} did not answer in ${timeoutMs} ms`));
      });
      socket.once('error', fail);
      socket.once('close', (hadError) => {
        clearTimeout(statusTimer);
        if (!hadError && isWritten) resolve();
        else if (!hadError) reject(new Error('Printer closed the connection before taking the job'));
      });
      socket.once('data', (answer) => {
        if (saysOutOfPaper(answer[0] ?? 0)) fail(new Error(OUT_OF_PAPER));
        else send();
      });
      socket.connect(address.port, address.host, () => {
        socket.write(PAPER_STATUS_REQUEST);
        statusTimer = setTimeout(send, statusTimeoutMs);
      });
    });
}
