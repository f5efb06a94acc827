import type { MiddlewareHandler } from 'hono';
import { invalid } from '../../../domain/errors.ts';
import type { AppEnv } from '../../env.ts';
import { readCapped } from '../../read-capped/index.ts';

/**
 * DESIGN §4 "Input strictness": a JSON object, sent as application/json, of at most `maxBytes`.
 * The size is enforced while reading, so a lying or missing Content-Length cannot get more in.
 */
export function jsonBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) throw invalid('Send the body as JSON with "Content-Type: application/json".');
    const length = c.req.header('content-length');
    const declared = length === undefined ? undefined : Number(length);
    if (declared !== undefined && declared > maxBytes) throw tooLarge(maxBytes);
    // With an honest Content-Length within the cap, the node-server adapter's fast body path is
    // safe (Node itself stops reading at the declared length); without one, count while reading.
    const text = declared !== undefined && Number.isInteger(declared) && declared >= 0 ? decodeUtf8(await c.req.arrayBuffer()) : decodeUtf8(await readCapped(c.req.raw.body, maxBytes, () => tooLarge(maxBytes)));
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid('The body is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid('The body must be a JSON object.');
    c.set('body', parsed as Record<string, unknown>);
    await next();
  };
}

const tooLarge = (max: number) => invalid(`The body is larger than ${max} bytes.`);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not are a malformed body, not U+FFFD. */
function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid('The body is not valid UTF-8.');
  }
}
