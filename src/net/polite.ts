/**
 * The HTTP client every network source uses (DESIGN §8 "Every network source"): one place for
 * the manners a public API expects and for turning everything that can go wrong into one
 * `SourceError` with a reason a run can record.
 *
 * - User-Agent naming the service and version (fetchPublic), or the source's own (Reddit's
 *   `<platform>:<app id>:<version> (by /u/<name>)`).
 * - Timeouts and size bounds (fetchPublic), per request.
 * - Pacing per host: a least interval between two requests to one host, kept per process (not
 *   per run), because Reddit's "about one feed request per minute" is counted per client, and two
 *   projects' runs in one process are one client to Reddit.
 * - A request budget per host per run, so a source that pages forever, or a thread with ten
 *   thousand `more` stubs, cannot turn one run into thousands of requests.
 * - Retries on 429, 5xx, timeouts and dropped connections, with exponential backoff and full
 *   jitter (so that processes that failed together do not retry together), honouring
 *   `Retry-After` (seconds or an HTTP date). A wait longer than `maxWaitMs` is not sat out: the
 *   request fails with the wait in its message, and the run records it and goes on with the
 *   other communities. The next run starts where this one stopped (cursors are not advanced).
 * - Answers that are not what was asked for: an HTML page with status 200 where JSON or a feed
 *   was expected (Reddit's "blocked" page, a captive portal, a login wall) is `blocked`; a body
 *   that does not parse is `malformed`.
 */
import { FetchError, fetchPublic, type FetchedResponse, type FetchOptions } from './fetch.ts';

/** `unresolved` (no such host name) is not retried: the answer will not change in seconds. */
export type SourceFailure = 'rate-limited' | 'blocked' | 'malformed' | 'http' | 'not-found' | 'timeout' | 'network' | 'unresolved' | 'too-large' | 'address' | 'budget' | 'quota';

export class SourceError extends Error {
  constructor(
    readonly reason: SourceFailure,
    message: string,
    /** The HTTP status of the answer that failed, when there was one (a 401 to renew a token on). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface PoliteOptions {
  /** Retries after the first try (429, 5xx, timeout, network). */
  retries?: number;
  /** First backoff step; doubles each retry, full jitter. */
  retryBaseMs?: number;
  /** The longest single wait (backoff, Retry-After, a host's pacing) a run sits out. */
  maxWaitMs?: number;
  /** Requests one run may send to one host. */
  budgetPerHost?: number;
  timeoutMs?: number;
  maxBytes?: number;
  /** `FETCH_ALLOW_HOSTS`, for addresses users give (Discourse forums). */
  allowHosts?: ReadonlySet<string>;
  /** Tests: name resolution (fetchPublic checks its answers like real ones). */
  lookup?: FetchOptions['lookup'];
  /** Tests: a clock and a sleep that does not sleep, and a fixed jitter. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
  signal?: AbortSignal;
}

export interface PoliteRequest {
  /** What the body must be: JSON and feeds are checked (an HTML page is `blocked`). */
  expect: 'json' | 'xml';
  /** The operator configured this host (an API base URL): private addresses are allowed. */
  operatorHost?: boolean;
  method?: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** Overrides the client's size bound (a Hacker News item tree can be several megabytes). */
  maxBytes?: number;
  /** Least time between two requests to this host in this process (Reddit feeds: 60 s). */
  minIntervalMs?: number;
  /** An answer this API uses for "slow down" besides 429 (GitHub's 403 secondary rate limit). */
  rateLimited?: (status: number, headers: FetchedResponse['headers']) => boolean;
  /** How long a rate-limited answer asks to wait when it has no `Retry-After` (GitHub: until `x-ratelimit-reset`). */
  waitHint?: (headers: FetchedResponse['headers'], now: number) => number | undefined;
  /**
   * An API's own error body (Stack Exchange's `{error_id, error_name}` with a 400 or 502): a
   * failure returned here is thrown as is and not retried, because the API said what is wrong.
   */
  apiError?: (status: number, text: string) => SourceError | undefined;
}

export interface PoliteResponse {
  url: string;
  status: number;
  headers: FetchedResponse['headers'];
  text: string;
}

const DEFAULTS = { retries: 3, retryBaseMs: 1_000, maxWaitMs: 120_000, budgetPerHost: 500, timeoutMs: 15_000, maxBytes: 4_000_000 };
const RETRIED_STATUS = new Set([429, 500, 502, 503, 504]);

/**
 * When each host may next be asked, per process. Module state on purpose: see the header.
 */
const nextAllowed = new Map<string, number>();

export class PoliteClient {
  private readonly options: Required<Omit<PoliteOptions, 'allowHosts' | 'signal' | 'lookup'>> & Pick<PoliteOptions, 'allowHosts' | 'signal' | 'lookup'>;
  private readonly sent = new Map<string, number>();

  constructor(options: PoliteOptions = {}) {
    this.options = {
      retries: options.retries ?? DEFAULTS.retries,
      retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
      maxWaitMs: options.maxWaitMs ?? DEFAULTS.maxWaitMs,
      budgetPerHost: options.budgetPerHost ?? DEFAULTS.budgetPerHost,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      maxBytes: options.maxBytes ?? DEFAULTS.maxBytes,
      sleep: options.sleep ?? sleep,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      allowHosts: options.allowHosts,
      signal: options.signal,
      lookup: options.lookup,
    };
  }

  /** Requests sent so far, per host (for the run's per-community record). */
  requestsTo(host: string): number {
    return this.sent.get(host) ?? 0;
  }

  /** All requests sent by this client. */
  get requests(): number {
    let n = 0;
    for (const count of this.sent.values()) n += count;
    return n;
  }

  /**
   * Keeps every request to `host` waiting `ms` from now (a rate-limit header said the budget is
   * spent, Stack Exchange sent `backoff`). Fails at once when that is longer than a run waits.
   */
  holdHost(host: string, ms: number, why: string): void {
    if (ms > this.options.maxWaitMs) throw new SourceError('rate-limited', `${host} ${why}: asked to wait ${Math.ceil(ms / 1000)} s, more than the ${Math.ceil(this.options.maxWaitMs / 1000)} s a run waits`);
    const at = this.options.now() + ms;
    nextAllowed.set(host, Math.max(nextAllowed.get(host) ?? 0, at));
  }

  async get(url: string, request: PoliteRequest): Promise<PoliteResponse> {
    const target = new URL(url);
    const host = target.host;
    for (let attempt = 0; ; attempt++) {
      this.options.signal?.throwIfAborted();
      const used = this.sent.get(host) ?? 0;
      if (used >= this.options.budgetPerHost) throw new SourceError('budget', `stopped after ${used} requests to ${host} (the per-run budget)`);
      await this.waitTurn(host, request.minIntervalMs ?? 0);
      this.sent.set(host, used + 1);
      let answer: FetchedResponse;
      try {
        answer = await fetchPublic(url, {
          timeoutMs: this.options.timeoutMs,
          maxBytes: request.maxBytes ?? this.options.maxBytes,
          accept: request.expect === 'json' ? 'application/json' : 'application/atom+xml, application/rss+xml, application/xml;q=0.9, text/xml;q=0.8',
          allowHosts: this.options.allowHosts,
          operatorHost: request.operatorHost,
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: this.options.signal,
          ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
        });
      } catch (err) {
        const failure = asSourceError(err);
        if ((failure.reason === 'timeout' || failure.reason === 'network') && attempt < this.options.retries && !this.options.signal?.aborted) {
          await this.backoff(host, attempt, undefined, failure.message);
          continue;
        }
        throw failure;
      }
      if (answer.status >= 400 && request.apiError) {
        const failure = request.apiError(answer.status, answer.body.toString('utf8'));
        if (failure) throw failure;
      }
      const limited = answer.status === 429 || (request.rateLimited?.(answer.status, answer.headers) ?? false);
      if (limited || RETRIED_STATUS.has(answer.status)) {
        const now = this.options.now();
        const retryAfter = retryAfterMs(answer.headers['retry-after'], now) ?? (limited ? request.waitHint?.(answer.headers, now) : undefined);
        const what = answer.status === 429 ? `${host} answered 429 Too Many Requests` : limited ? `${host} answered ${answer.status} (rate limited)` : `${host} answered ${answer.status}`;
        if (attempt >= this.options.retries) {
          throw new SourceError(limited ? 'rate-limited' : 'http', `${what} ${attempt + 1} times${retryAfter !== undefined ? ` (Retry-After ${Math.ceil(retryAfter / 1000)} s)` : ''}`, answer.status);
        }
        await this.backoff(host, attempt, retryAfter, what);
        continue;
      }
      const text = answer.body.toString('utf8');
      if (answer.status === 404 || answer.status === 410) throw new SourceError('not-found', `${host} answered ${answer.status}: ${target.pathname} does not exist (or is private)${briefBody(text, ' — ')}`, answer.status);
      if (answer.status < 200 || answer.status >= 300) throw new SourceError('http', `${host} answered ${answer.status}${briefBody(text)}`, answer.status);
      checkShape(host, request.expect, answer.headers['content-type'], text);
      return { url: answer.url, status: answer.status, headers: answer.headers, text };
    }
  }

  /** A JSON answer, parsed. */
  async json<T = unknown>(url: string, request: Omit<PoliteRequest, 'expect'> = {}): Promise<{ data: T; response: PoliteResponse }> {
    const response = await this.get(url, { ...request, expect: 'json' });
    try {
      return { data: JSON.parse(response.text) as T, response };
    } catch {
      throw new SourceError('malformed', `${new URL(url).host} sent JSON that does not parse (${response.text.length} characters; truncated?)`);
    }
  }

  private async waitTurn(host: string, minIntervalMs: number): Promise<void> {
    const now = this.options.now();
    const at = nextAllowed.get(host) ?? 0;
    const wait = at - now;
    // A host's own pacing (Reddit feeds: a minute) is always waited; only waits beyond it are bounded.
    if (wait > Math.max(this.options.maxWaitMs, minIntervalMs)) throw new SourceError('rate-limited', `${host} may not be asked again for ${Math.ceil(wait / 1000)} s, more than the ${Math.ceil(this.options.maxWaitMs / 1000)} s a run waits`);
    nextAllowed.set(host, Math.max(at, now) + minIntervalMs);
    if (wait > 0) await this.options.sleep(wait, this.options.signal);
  }

  private async backoff(host: string, attempt: number, retryAfterMs: number | undefined, what: string): Promise<void> {
    const step = this.options.retryBaseMs * 2 ** attempt;
    // Full jitter, but never sooner than the server asked.
    const wait = Math.max(retryAfterMs ?? 0, Math.round(this.options.random() * step));
    if (wait > this.options.maxWaitMs) throw new SourceError('rate-limited', `${what}: asked to wait ${Math.ceil(wait / 1000)} s, more than the ${Math.ceil(this.options.maxWaitMs / 1000)} s a run waits`);
    await this.options.sleep(wait, this.options.signal);
  }
}

/** A response header's value (the first, when the header came more than once). */
export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `Retry-After: 120` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT` → milliseconds from now. */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const text = headerText(value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

function checkShape(host: string, expect: 'json' | 'xml', contentType: string | undefined, text: string): void {
  const type = (contentType ?? '').toLowerCase();
  const head = text.trimStart().slice(0, 200).toLowerCase();
  const looksHtml = head.startsWith('<!doctype html') || head.startsWith('<html') || (type.includes('text/html') && !head.startsWith('<?xml') && !head.startsWith('{') && !head.startsWith('['));
  if (looksHtml) throw new SourceError('blocked', `${host} answered with an HTML page instead of ${expect === 'json' ? 'JSON' : 'a feed'} (blocked, a login wall or a captive portal)`);
  if (expect === 'json' && text.trim() === '') throw new SourceError('malformed', `${host} sent an empty body where JSON was expected`);
  if (expect === 'xml' && !/^(<\?xml|<feed|<rss)/.test(head)) throw new SourceError('malformed', `${host} sent something that is not a feed`);
}

function briefBody(text: string, separator = ': '): string {
  const line = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 160);
  return line === '' ? '' : `${separator}${line}`;
}

function asSourceError(err: unknown): SourceError {
  if (err instanceof SourceError) return err;
  if (err instanceof FetchError) {
    const reason = err.reason === 'url' || err.reason === 'redirects' ? 'http' : err.reason;
    return new SourceError(reason, err.message);
  }
  return new SourceError('network', err instanceof Error ? err.message : String(err));
}

/** A timer that an abort cancels (rejecting with the abort's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Tests: forget the process-wide pacing between cases. */
export function resetPacing(): void {
  nextAllowed.clear();
}
