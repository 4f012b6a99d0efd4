/** One detail of an error (Facturapi's `errors[]`). */
export type ErrorDetail = {
  message: string;
  code: string;
  source: 'facturapi' | 'sat' | 'pac';
  location?: 'body' | 'query' | 'params';
  path?: string;
};

/**
 * A refusal as Facturapi answers it: `{ ok: false, message, status, code, path?, errors? }`, with the
 * message in Spanish and, when details exist, the root message repeating the first one.
 */
export class PacError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toJSON() {
    const first = this.details[0];
    return {
      ok: false,
      message: this.message,
      status: this.status,
      code: this.code,
      ...(first?.location !== undefined && { location: first.location }),
      ...(first?.path !== undefined && { path: first.path }),
      ...(this.details.length > 0 && { errors: this.details }),
    };
  }
}

/** A field of the body that breaks the input contract: root code `invalid_request`. */
export function invalidField(path: string, code: string, message: string): PacError {
  return new PacError(400, 'invalid_request', message, [
    { message, code, source: 'facturapi', location: 'body', path },
  ]);
}

export const required = (path: string) => invalidField(path, 'required', `El campo "${path}" es requerido.`);

export const notFound = (code: string, message: string) => new PacError(404, code, message);
