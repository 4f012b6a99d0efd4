/** How long a price source may take before its answer is given up (the last good rate then serves). */
export const RATE_FETCH_TIMEOUT_MS = 5000;

/** GETs a URL and parses its JSON body; anything but a 2xx with JSON is an error. */
export async function fetchJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, {
    headers: { ...headers, accept: 'application/json' },
    signal: AbortSignal.timeout(RATE_FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

/** A price as the sources give it: finite and positive, or nothing. */
export function positivePrice(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new Error(`not a price: ${JSON.stringify(value)}`);
  }
  return value;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
