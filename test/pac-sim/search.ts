import { PacError } from './errors';

/** The answer of a list route (`SearchResult`). */
export type SearchResult<T> = { page: number; total_pages: number; total_results: number; data: T[] };

function queryError(status: number, code: string, name: string, message: string): PacError {
  return new PacError(status, code, message, [
    { message, code: 'invalid_value', source: 'facturapi', location: 'query', path: name },
  ]);
}

/** `date[gt|gte|lt|lte]` (the `DateRange` deep object) as a test on an ISO instant. */
export function dateRangeFilter(query: URLSearchParams): (iso: string) => boolean {
  const bound = (name: string) => {
    const value = query.get(name);
    if (value === null) return undefined;
    const time = Date.parse(value);
    if (Number.isNaN(time))
      throw queryError(400, 'invalid_date', name, `El parámetro "${name}" no es una fecha válida.`);
    return time;
  };
  const gte = bound('date[gte]');
  const gt = bound('date[gt]');
  const lte = bound('date[lte]');
  const lt = bound('date[lt]');
  return (iso) => {
    const time = Date.parse(iso);
    return (
      (gte === undefined || time >= gte) &&
      (gt === undefined || time > gt) &&
      (lte === undefined || time <= lte) &&
      (lt === undefined || time < lt)
    );
  };
}

/** One page of `sorted`: `page` from 1 to 30, `limit` from 1 to 100 (its default is the route's). */
export function pageOf<T>(sorted: T[], query: URLSearchParams, defaultLimit: number): SearchResult<T> {
  const page = integerParam(query, 'page', 1, 30);
  const limit = integerParam(query, 'limit', defaultLimit, 100);
  return {
    page,
    total_pages: Math.max(1, Math.ceil(sorted.length / limit)),
    total_results: sorted.length,
    data: sorted.slice((page - 1) * limit, page * limit),
  };
}

function integerParam(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  const message = `El parámetro "${name}" debe ser un entero entre 1 y ${max}.`;
  if (Number.isInteger(value) && value > max && name === 'page')
    throw queryError(400, 'page_too_large', name, message);
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw queryError(400, 'invalid_request', name, message);
  return value;
}
