/**
 * The closed set of error codes callers see (spec §7 plus DESIGN's `internal`). Every failure a
 * caller should understand is a ServiceError with one of these codes; anything else is a bug and
 * is answered as `internal` with a generic message, its cause only in the log.
 */
export const ERROR_CODES = ['invalid', 'forbidden', 'not_found', 'limit', 'internal'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ServiceError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
  }
}

export const invalid = (message: string) => new ServiceError('invalid', message);
export const forbidden = (message = 'Missing or unrecognized API key, or the project is not yours.') =>
  new ServiceError('forbidden', message);
export const notFound = (message: string) => new ServiceError('not_found', message);
export const limitHit = (message: string) => new ServiceError('limit', message);

export const INTERNAL_MESSAGE = 'Something went wrong on our side. The request id identifies it in our logs.';
