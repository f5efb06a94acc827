import { createHash, randomBytes } from 'node:crypto';

export type IdPrefix = 'prj' | 'sov' | 'sig' | 'run' | 'key' | 'brf';

/** `prefix_` + 128 random bits as 26 base32 characters (DESIGN §4 "Identifiers"). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base32(randomBytes(16))}`;
}

/**
 * `prefix_` + 128 bits of a hash of `parts`: the same parts always give the same id. The digest
 * pipeline keys signals by post + quote this way, so re-running a window writes nothing twice.
 */
export function derivedId(prefix: IdPrefix, ...parts: string[]): string {
  return `${prefix}_${base32(createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16))}`;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}
