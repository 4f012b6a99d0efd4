import type { ServerResponse } from 'node:http';

/** phoenixd's own answer texts (Ktor StatusPages and parameter errors), reproduced for the client. */
export const TEXTS = {
  unauthorized: 'Invalid authentication (use basic auth with the http password set in phoenix.conf)',
  methodNotAllowed: 'Invalid http method (use the correct GET/POST)',
  unknownEndpoint: 'Unknown endpoint (check api doc)',
  notFound: 'Not found',
  notAForm: "Cannot transform this request's content to io.ktor.http.Parameters",
  missing: (name: string) => `Request parameter ${name} is missing`,
  invalid: (name: string, type: string) =>
    `Request parameter ${name} couldn't be parsed/converted to ${type}`,
} as const;

/** A refusal phoenixd expresses as an HTTP status with a plain-text explanation. */
export class HttpAnswer extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {
    super(text);
  }
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=UTF-8' });
  response.end(text);
}

/** phoenixd pretty-prints its JSON and leaves null fields out (`explicitNulls = false`). */
export function sendJson(response: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value, (_key, field) => (field === null ? undefined : field), 4);
  response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(body);
}

export { readBody } from '../helpers/loopback-server';

/** Form fields of a POST; phoenixd reads `receiveParameters()`, which only understands forms. */
export function parseForm(contentType: string | undefined, body: string): URLSearchParams {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' || (type === undefined && body === '')) {
    return new URLSearchParams(body);
  }
  throw new HttpAnswer(415, TEXTS.notAForm);
}

export function isAuthorized(header: string | undefined, password: string): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const decoded = Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  return separator >= 0 && decoded.slice(separator + 1) === password;
}

/** Typed reads of form or query parameters, failing with phoenixd's texts. */
export class Params {
  constructor(private readonly values: URLSearchParams) {}

  string(name: string): string {
    const value = this.values.get(name);
    if (value === null) throw new HttpAnswer(400, TEXTS.missing(name));
    return value;
  }

  optionalString(name: string): string | null {
    return this.values.get(name);
  }

  long(name: string): number {
    return this.parseLong(name, this.string(name));
  }

  optionalLong(name: string): number | null {
    const value = this.values.get(name);
    return value === null ? null : this.parseLong(name, value);
  }

  /** Kotlin's String.toBoolean(): only "true" (any case) is true. */
  flag(name: string): boolean {
    return this.values.get(name)?.toLowerCase() === 'true';
  }

  private parseLong(name: string, value: string): number {
    if (!/^-?\d{1,18}$/.test(value)) throw new HttpAnswer(400, TEXTS.invalid(name, 'integer'));
    return Number(value);
  }
}
