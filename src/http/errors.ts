/**
 * The one place errors become HTTP responses: the spec §7 envelope with the status of the code.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { INTERNAL_MESSAGE, ServiceError, type ErrorCode } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'invalid':
      return 400;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'limit':
      return 409;
    case 'internal':
      return 500;
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

/** Maps anything thrown to the code a caller sees; unknown failures become `internal`. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof HTTPException && err.status < 500) return new ServiceError('invalid', err.message || 'Bad request.');
  return new ServiceError('internal', INTERNAL_MESSAGE);
}

export function renderError(c: Context, err: unknown, logger: Logger): Response {
  const serviceError = toServiceError(err);
  if (serviceError.code === 'internal') {
    logger.error({ requestId: c.get('requestId'), err }, 'request failed');
  }
  const body: ErrorEnvelope = { error: { code: serviceError.code, message: serviceError.message } };
  return c.json(body, statusOf(serviceError.code));
}
