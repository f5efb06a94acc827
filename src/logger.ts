import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON lines on stdout. Credentials never reach a log line: requests are logged field by field
 * (never whole headers or bodies) and the redaction below catches anything passed by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['authorization', '*.authorization', 'headers.authorization', 'key', '*.key', 'password', '*.password', 'token', '*.token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
