import type { ServerResponse } from 'node:http';
import { PacError } from './errors';

export { readBody } from '../helpers/loopback-server';

/** The JSON body, `undefined` when empty; Facturapi refuses a body it cannot parse with `invalid_json`. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new PacError(400, 'invalid_json', 'El cuerpo de la solicitud no es un JSON válido.');
  }
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(value));
}

export function sendError(response: ServerResponse, error: PacError): void {
  response.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    ...error.headers,
  });
  response.end(JSON.stringify(error));
}

export function sendFile(response: ServerResponse, contentType: string, body: Buffer, fileName: string) {
  response.writeHead(200, {
    'content-type': contentType,
    'content-length': body.length,
    'content-disposition': `attachment; filename="${fileName}"`,
  });
  response.end(body);
}

/** The key of `Authorization: Bearer <key>`, the one scheme Facturapi documents. */
export function apiKeyOf(header: string | undefined): string | undefined {
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim();
}
