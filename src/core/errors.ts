/**
 * Errors the services throw. Each carries the HTTP status and the exact text the contract promises;
 * only the error handler turns them into responses.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Sent as a plain-text body instead of `{message}`, where the spec shows a bare string. */
    readonly isBareText = false,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class MalformedIdError extends AppError {
  constructor(message = 'Missing or malformed ID') {
    super(400, message, true);
  }
}

/** Why a token was refused: `expired` means refreshing may help; the others need a new login. */
export type UnauthorizedReason = 'missing' | 'expired' | 'invalid' | 'revoked';

export class UnauthorizedError extends AppError {
  constructor(
    message = 'Unauthorized',
    readonly reason?: UnauthorizedReason,
  ) {
    super(401, message);
  }
}

/** A token refused for `reason`, answered as 401 `{"message":"Unauthorized","reason":…}`. */
export function tokenRefused(reason: UnauthorizedReason): UnauthorizedError {
  return new UnauthorizedError('Unauthorized', reason);
}

export class ForbiddenError extends AppError {
  constructor(message = 'Unauthorized API access') {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message?: string) {
    super(404, message ?? 'Resource not found', message === undefined);
  }
}

/** The request names a host this server does not answer for (a DNS-rebinding page, usually). */
export class MisdirectedRequestError extends AppError {
  constructor(message = 'Unknown host') {
    super(421, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'Too many requests');
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}

/** A dependency was asked to act and never said whether it did. */
export class GatewayTimeoutError extends AppError {
  constructor(message: string) {
    super(504, message);
  }
}
