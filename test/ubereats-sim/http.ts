import type { ServerResponse } from 'node:http';

/**
 * A refusal as the Marketplace APIs answer it: `{ code, message }` with the HTTP status. The OAuth
 * endpoint answers in the OAuth form instead (`{ error }`), so it builds its own body.
 */
export class UberError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = { code, message },
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new UberError(404, 'not_found', `${what} not found`);
export const invalid = (message: string) => new UberError(400, 'invalid_argument', message);
export const conflict = (message: string) => new UberError(409, 'conflict', message);

export { readBody } from '../helpers/loopback-server';

/** The JSON body as an object; an empty body is an empty object, as the API's optional bodies are. */
export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('request body is not valid JSON');
  }
  if (!isObject(value)) throw invalid('request body must be a JSON object');
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

export function sendEmpty(response: ServerResponse, status: number): void {
  response.writeHead(status);
  response.end();
}

export function bearerOf(header: string | undefined): string | undefined {
  if (!header?.startsWith('Bearer ')) return undefined;
  const token = header.slice('Bearer '.length).trim();
  return token === '' ? undefined : token;
}
