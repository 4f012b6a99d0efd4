/**
 * Reading the platforms' JSON without trusting it: a field of the wrong type reads as absent, so a
 * change on their side degrades one value instead of throwing in the middle of an order.
 */
export type Json = Record<string, unknown>;

export function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(object) : [];
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A time the platform wrote as text, in Unix ms; null when it is missing or unreadable. */
export function instant(value: string): number | null {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** One header of a webhook's request (node gives a repeated header as an array: the first counts). */
export function header(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
