/**
 * Outbound HTTP to addresses users give us (a project's site today; Discourse forums, delivery
 * URLs and client metadata documents later): public addresses only, and bounded in time, size and
 * redirects (DESIGN §8, "Project memory"; decision 0014).
 *
 * Why the address check sits in the connection and not before the request: a check that resolves
 * the name, approves the answer and then lets the HTTP client resolve it again can be fooled by a
 * DNS server that answers a public address the first time and 127.0.0.1 the second ("DNS
 * rebinding"). request-filtering-agent validates inside the socket's own lookup, so the address
 * approved is the address connected to, on every hop of a redirect chain, and IP literals (which
 * skip DNS) are checked before connecting. Every form of a private address reaches that check as
 * an IP: the WHATWG URL parser turns `http://2130706433/`, `http://0177.0.0.1/` and
 * `http://0x7f.1/` into 127.0.0.1, and ipaddr.js calls `::ffff:127.0.0.1` "ipv4Mapped", which is
 * refused like any range other than public unicast (loopback, private, link-local with the cloud
 * metadata address 169.254.169.254, carrier-grade NAT 100.64/10, unique-local fc00::/7, …).
 *
 * `FETCH_ALLOW_HOSTS` (host:port, comma-separated) exempts named hosts: intranet sites and the
 * local test servers. The exemption is by the name in the URL, checked on every hop, so a
 * redirect from an allowed host to another private address is still refused.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

const VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
/** Names the service and its version, as polite clients do (DESIGN §8 "Every network source"). */
export const USER_AGENT = `project-signals-service/${VERSION}`;

export const FETCH_DEFAULTS = { timeoutMs: 10_000, maxBytes: 1_000_000, maxRedirects: 5 } as const;

/** Why a fetch failed, for the run or memory record and for tests. */
export type FetchFailure = 'url' | 'address' | 'timeout' | 'too-large' | 'redirects' | 'network' | 'unresolved';

export class FetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface FetchOptions {
  /** The whole fetch, every redirect and the body included. */
  timeoutMs?: number;
  /** Decoded body bytes (after gzip/deflate/br). */
  maxBytes?: number;
  maxRedirects?: number;
  accept?: string;
  /** `host:port` names exempt from the private-address refusal (parseAllowHosts). */
  allowHosts?: ReadonlySet<string>;
  /** Name resolution (tests give a fake resolver; its answers are checked like real ones). */
  lookup?: LookupFunction;
  signal?: AbortSignal;
  /** GET unless said; a body is sent only on the first hop (a redirect is followed with a GET). */
  method?: 'GET' | 'POST';
  /** Added to the request (an Authorization header, a source's own User-Agent). */
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /**
   * Skip the private-address refusal: only for hosts the operator configured (`GITHUB_API_URL`,
   * `REDDIT_URL`, …), never for an address a user gave. A proxy or GitHub Enterprise on the
   * intranet is the operator's choice; a community address pointing there is an attack.
   */
  operatorHost?: boolean;
}

export interface FetchedResponse {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** `FETCH_ALLOW_HOSTS` → a set of lower-case `host:port` (the port defaults by scheme only in the URL). */
export function parseAllowHosts(value: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const item of (value ?? '').split(',')) {
    const entry = item.trim().toLowerCase();
    if (entry === '') continue;
    if (!/^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(entry)) throw new Error(`FETCH_ALLOW_HOSTS entry "${item.trim()}" is not host:port`);
    out.add(entry);
  }
  return out;
}

const filteringAgents = { 'http:': new RequestFilteringHttpAgent(), 'https:': new RequestFilteringHttpsAgent() };
const plainAgents = { 'http:': new http.Agent(), 'https:': new https.Agent() };

/**
 * GET a public URL, following redirects; answers of any status are returned (callers decide what
 * a 404 or a 429 means). Throws FetchError for what never became an answer.
 */
export async function fetchPublic(url: string, options: FetchOptions = {}): Promise<FetchedResponse> {
  const timeoutMs = options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let current = parseUrl(url);
  let hopOptions = options;
  for (let hop = 0; ; hop++) {
    const answer = await get(current, hopOptions, signal, timeoutMs);
    const location = answer.headers.location;
    if (answer.status >= 300 && answer.status < 400 && location !== undefined) {
      if (hop >= maxRedirects) throw new FetchError('redirects', `more than ${maxRedirects} redirects (last to ${location})`);
      const next = parseUrl(location, current);
      // A redirect is followed with a GET, and credentials never follow it to another origin (a
      // proxy or an Enterprise server redirecting elsewhere must not receive the token).
      const headers = next.origin === current.origin ? hopOptions.headers : withoutCredentials(hopOptions.headers);
      hopOptions = { ...hopOptions, method: 'GET', body: undefined, headers };
      current = next;
      continue;
    }
    return { ...answer, url: current.href };
  }
}

function withoutCredentials(headers: FetchOptions['headers']): FetchOptions['headers'] {
  return headers && Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie|proxy-authorization)$/i.test(name)));
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FetchError('url', `"${text}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError('url', `only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new FetchError('url', 'URLs with a user name or password are not fetched');
  return url;
}

function hostKey(url: URL): string {
  return `${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

function get(url: URL, options: FetchOptions, signal: AbortSignal, timeoutMs: number): Promise<Omit<FetchedResponse, 'url'>> {
  const protocol = url.protocol as 'http:' | 'https:';
  const allowed = options.operatorHost === true || (options.allowHosts?.has(hostKey(url)) ?? false);
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  return new Promise((resolve, reject) => {
    const fail = (err: unknown) => reject(describe(err, url, signal, timeoutMs));
    if (signal.aborted) return fail(signal.reason);
    const request = (protocol === 'https:' ? https : http).request(
      url,
      {
        method: options.method ?? 'GET',
        agent: (allowed ? plainAgents : filteringAgents)[protocol],
        headers: {
          'user-agent': USER_AGENT,
          accept: options.accept ?? '*/*',
          'accept-encoding': 'gzip, deflate, br',
          ...options.headers,
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
        },
        signal,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location !== undefined) {
          response.resume();
          return resolve({ status, headers: response.headers, body: Buffer.alloc(0) });
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes && !response.headers['content-encoding']) {
          response.destroy();
          return fail(new FetchError('too-large', `the answer is ${declared} bytes, more than the ${maxBytes} allowed`));
        }
        readCapped(decoded(response), maxBytes).then((body) => resolve({ status, headers: response.headers, body }), fail);
      },
    );
    request.on('error', fail);
    request.end(options.body);
  });
}

/** The body as sent, decompressed when the server compressed it. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return response;
  response.on('error', (err) => decoder.destroy(err));
  return response.pipe(decoder);
}

/** Reads a stream to its end, or fails as soon as it passes `maxBytes` (a small gzip can hold gigabytes). */
function readCapped(stream: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        stream.destroy(new FetchError('too-large', `the answer is more than the ${maxBytes} bytes allowed`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

function describe(err: unknown, url: URL, signal: AbortSignal, timeoutMs: number): FetchError {
  if (err instanceof FetchError) return err;
  const reason = signal.aborted ? signal.reason : undefined;
  if (reason instanceof DOMException && reason.name === 'TimeoutError') return new FetchError('timeout', `no complete answer from ${url.host} within ${timeoutMs / 1000} s`);
  if (signal.aborted) return new FetchError('network', `stopped: ${reason instanceof Error ? reason.message : String(reason)}`);
  const message = err instanceof Error ? err.message : String(err);
  // request-filtering-agent's refusal: "DNS lookup 127.0.0.1(family:4, host:…) is not allowed. Because, It is private IP address."
  if (/is not allowed\. Because/i.test(message)) {
    const address = /DNS lookup ([^(]+)\(/.exec(message)?.[1] ?? 'it';
    return new FetchError('address', `${url.hostname} is not a public address (${address} is private, loopback, link-local or reserved)`);
  }
  const code = (err as { code?: string }).code;
  // ENOTFOUND is an answer (no such name); EAI_AGAIN is the resolver failing for now.
  if (code === 'ENOTFOUND') return new FetchError('unresolved', `${url.hostname} does not resolve (${code})`);
  if (code === 'EAI_AGAIN') return new FetchError('network', `${url.hostname} does not resolve (${code})`);
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR_PADDING_1') return new FetchError('network', `${url.host} sent a body that does not decompress`);
  return new FetchError('network', `${url.host}: ${code ?? message}`);
}
