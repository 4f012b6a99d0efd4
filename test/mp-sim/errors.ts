/**
 * A refusal as the Orders API answers it: the HTTP status and `{ errors: [{ code, message, details }] }`.
 * The Payments API and the Terminals API answer in the same shape here (a choice: see the README).
 */
export class MpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }

  get body() {
    return { errors: [{ code: this.code, message: this.message, details: this.details }] };
  }
}

export const badRequest = (code: string, message: string, details: string[] = []) =>
  new MpError(400, code, message, details);
export const notFound = (code: string, message: string) => new MpError(404, code, message);
export const conflict = (code: string, message: string) => new MpError(409, code, message);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON body as an object; an empty body is `undefined` (refund's "whole amount" has none). */
export function parseJsonBody(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('json_syntax_error', 'The request body is not valid JSON.');
  }
  if (!isObject(value)) throw badRequest('json_syntax_error', 'The request body must be a JSON object.');
  return value;
}
