import type { IncomingMessage, ServerResponse } from 'node:http';

/** A refusal as `{ message }` with its HTTP status. */
export class RappiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new RappiError(400, message);
export const notFound = (message: string) => new RappiError(404, message);
export const conflict = (message: string) => new RappiError(409, message);

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The JSON body; an empty body is `undefined`. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('request body is not valid JSON');
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

/** `x-authorization: Bearer <token>`; the reference also writes it `Bearer: <token>`, so both are taken. */
export function tokenOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^bearer:?\s+(\S+)$/i.exec(value?.trim() ?? '');
  return match?.[1];
}

export function stringList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string'))
    throw badRequest(`${name} must be a list of strings`);
  return value as string[];
}
