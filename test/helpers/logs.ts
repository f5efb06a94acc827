import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger.ts';

/** A real pino logger whose lines land in `lines`, for tests that read what the service logs. */
export function capturedLogger(level = 'trace'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(line);
      done();
    },
  });
  return { logger: createLogger(level, sink), lines };
}
