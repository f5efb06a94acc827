/**
 * The HTTP side of the `llm` analyzer: one chat-completions request to an OpenAI-compatible
 * endpoint (OpenAI, Ollama, llama.cpp server, LM Studio, vLLM), with a timeout, retries on 429, 5xx,
 * timeouts and dropped connections, and errors sorted by what the caller should do next: fall
 * back for this batch, or (`unreachable`, `refused`) stop calling the endpoint for the rest of
 * the run. The run's own abort is never retried and never turned into a fallback: it propagates
 * as the run's abort reason.
 *
 * The API key goes into the Authorization header and nowhere else: no header, body or error text
 * of the endpoint is logged (OpenAI echoes a masked key in 401 bodies).
 */
import { z } from 'zod';
import type { Logger } from '../../logger.ts';
import { readCapped } from '../../http/read-capped/index.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** A JSON Schema object as sent in `response_format` (plain JSON, no bounds the server may reject). */
export type JsonSchema = { [key: string]: JsonValue };
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface ChatRequest {
  messages: ChatMessage[];
  maxTokens: number;
  /** The `json_schema.name` of the structured output. */
  schemaName: string;
  schema: JsonSchema;
}

export interface ChatAnswer {
  /** `choices[0].message.content`; null when the model sent none (a refusal, say). */
  content: string | null;
  /** `choices[0].message.refusal`: set when the model declined the request. */
  refusal: string | null;
  /** `stop`, or `length` when the answer was cut at max_tokens. */
  finishReason: string | null;
  /** `usage.total_tokens` (or prompt + completion); null when the server reports no usage. */
  totalTokens: number | null;
}

/**
 * Why a request failed. `unreachable` and `refused` (401/403/404: the key, the model or the base
 * URL is wrong) mean the endpoint cannot serve this run at all, so calling it again is pointless.
 */
export type ChatFailure =
  | 'rate-limited'
  | 'server-error'
  | 'timeout'
  | 'network-error'
  | 'rejected'
  | 'bad-response'
  | 'unreachable'
  | 'refused';

export class ChatError extends Error {
  constructor(
    readonly failure: ChatFailure,
    message: string,
    /** Seconds-or-date hint from `Retry-After`, in ms, when the server sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ChatError';
  }

  get retryable(): boolean {
    return ['rate-limited', 'server-error', 'timeout', 'network-error', 'unreachable'].includes(this.failure);
  }
}

export interface ChatClientOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  retries: number;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  /** For the jitter of backoff waits; Math.random unless a test pins it. */
  random?: () => number;
}

export interface ChatClient {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatAnswer>;
}

/** A Retry-After longer than this is waited only this long: a run must not stall for hours. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 16_000;
/** A chat answer is a few KB; anything near this is not one (a proxy's page, a runaway stream). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Connection errors that mean nothing listens at the address (as opposed to a dropped socket). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function createChatClient(options: ChatClientOptions): ChatClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const log = options.logger;
  return {
    async complete(request, runSignal) {
      for (let attempt = 0; ; attempt += 1) {
        runSignal?.throwIfAborted();
        const started = Date.now();
        try {
          const answer = await attemptOnce(url, request, options, runSignal);
          log?.debug({ attempt, ms: Date.now() - started, finishReason: answer.finishReason, totalTokens: answer.totalTokens }, 'llm answered');
          return answer;
        } catch (err) {
          if (runSignal?.aborted) throw runSignal.reason;
          if (!(err instanceof ChatError) || !err.retryable || attempt >= options.retries) throw err;
          const waitMs = retryDelayMs(err, attempt, options.random ?? Math.random);
          log?.warn({ attempt, failure: err.failure, waitMs }, 'llm request failed; retrying');
          await abortableSleep(options.sleep, waitMs, runSignal);
        }
      }
    },
  };
}

async function attemptOnce(url: string, request: ChatRequest, options: ChatClientOptions, runSignal?: AbortSignal): Promise<ChatAnswer> {
  // The timeout covers the whole exchange, body included: a server that trickles its answer is
  // as stuck as one that never starts.
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = runSignal ? AbortSignal.any([runSignal, timeout]) : timeout;
  try {
    const response = await options.fetch(url, { method: 'POST', headers: requestHeaders(options.apiKey), body: requestBody(options.model, request), signal });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw statusError(response);
    }
    return parseEnvelope((await readCapped(response.body, MAX_RESPONSE_BYTES, () => new ChatError('bad-response', `answer larger than ${MAX_RESPONSE_BYTES} bytes`))).toString('utf8'));
  } catch (err) {
    if (runSignal?.aborted) throw runSignal.reason;
    if (err instanceof ChatError) throw err;
    if (timeout.aborted) throw new ChatError('timeout', `no answer within ${options.timeoutMs} ms`);
    throw connectionError(err);
  }
}

function requestHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

function requestBody(model: string, request: ChatRequest): string {
  return JSON.stringify({
    model,
    messages: request.messages,
    // Same threads, same answer (as far as the server allows): runs must be repeatable.
    temperature: 0,
    max_tokens: request.maxTokens,
    response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
  });
}

function statusError(response: Response): ChatError {
  const status = response.status;
  if (status === 429) return new ChatError('rate-limited', 'HTTP 429 (rate limited)', parseRetryAfter(response.headers.get('retry-after')));
  if (status >= 500) return new ChatError('server-error', `HTTP ${status}`, parseRetryAfter(response.headers.get('retry-after')));
  if (status === 408) return new ChatError('timeout', 'HTTP 408 (request timeout)');
  // A bad key, a forbidden model or a wrong base URL fails every request alike.
  if (status === 401 || status === 403 || status === 404) return new ChatError('refused', `HTTP ${status}`);
  return new ChatError('rejected', `HTTP ${status}`);
}

/** `Retry-After: 30` or `Retry-After: Wed, 21 Oct 2026 07:28:00 GMT`, in ms from now; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The server's Retry-After when it sent one (bounded), else exponential backoff with jitter. */
export function retryDelayMs(err: ChatError, attempt: number, random: () => number): number {
  if (err.retryAfterMs !== undefined) return Math.min(err.retryAfterMs, MAX_RETRY_AFTER_MS);
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  // "Equal jitter": at least half the step, so retries back off, plus a random half, so several
  // processes that failed together do not retry together.
  return Math.round(base / 2 + random() * (base / 2));
}

function connectionError(err: unknown): ChatError {
  const code = errorCode(err);
  if (code !== undefined && UNREACHABLE_CODES.has(code)) return new ChatError('unreachable', `cannot connect (${code})`);
  return new ChatError('network-error', code ? `connection failed (${code})` : 'connection failed');
}

/** Node's fetch wraps the socket error: `TypeError('fetch failed', { cause: { code } })`, sometimes nested. */
function errorCode(err: unknown): string | undefined {
  for (let current: unknown = err, depth = 0; current instanceof Object && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const nested = (current as { errors?: unknown }).errors;
    if (Array.isArray(nested) && nested.length > 0) current = nested[0];
    else current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const envelopeSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({ total_tokens: z.number().nonnegative().optional(), prompt_tokens: z.number().nonnegative().optional(), completion_tokens: z.number().nonnegative().optional() })
    .nullish(),
});

/** The chat-completions envelope; its `content` is the caller's to parse. */
function parseEnvelope(text: string): ChatAnswer {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ChatError('bad-response', 'the endpoint answered with something other than JSON');
  }
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success) throw new ChatError('bad-response', 'the endpoint answered JSON that is not a chat completion');
  const choice = parsed.data.choices[0]!;
  return {
    content: choice.message.content ?? null,
    refusal: choice.message.refusal ?? null,
    finishReason: choice.finish_reason ?? null,
    totalTokens: totalTokensOf(parsed.data.usage),
  };
}

function totalTokensOf(usage: z.infer<typeof envelopeSchema>['usage']): number | null {
  if (!usage) return null;
  if (usage.total_tokens !== undefined) return usage.total_tokens;
  if (usage.prompt_tokens !== undefined || usage.completion_tokens !== undefined) return (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0);
  return null;
}

/** Waits, but the run's abort ends the wait at once (an injected sleep need not know about signals). */
async function abortableSleep(sleep: ChatClientOptions['sleep'], ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleep(ms);
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** The default sleep: a timer the run's abort cancels (the same one the network sources use). */
export { sleep as defaultSleep } from '../../net/polite.ts';

/** The endpoint as a report may show it: no user:password, no query string. */
export function displayEndpoint(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(the configured endpoint)';
  }
}
