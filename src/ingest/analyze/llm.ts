/**
 * The `llm` analyzer (DESIGN §8, "Analyze"): threads are sent to any OpenAI-compatible
 * chat-completions endpoint with the project memory and the prompt files, and the structured
 * answer is checked quote by quote (llm-answers.ts). It never loses a thread: whatever the model
 * cannot do — a refusal, invalid JSON, a truncated answer, an endpoint that is down, a spent
 * token budget — is done by the fallback analyzer (`rules`), and the run report says what
 * happened and how often. docs/llm.md is the user's guide.
 *
 * Requests go one at a time, in the threads' order: local servers serve one request at a time
 * anyway, and the order keeps a run repeatable (same answers, same signals, same report).
 */
import type { Logger } from '../../logger.ts';
import type { Analyzer, AnalyzerMemory, AnalyzerReport, AnalyzerRun, FoundSignal, ThemeDraft, ThemeNaming } from './analyzer.ts';
import { type DropCounts, MAX_PER_THREAD, noDrops, readSignalsAnswer, readThemesAnswer, type SignalsAnswer, THEME_TITLE_WORDS } from './llm-answers.ts';
import { type ChatAnswer, type ChatClient, ChatError, type ChatFailure, type ChatMessage, createChatClient, defaultSleep, displayEndpoint, type JsonSchema } from './llm-client.ts';
import {
  DEFAULT_PROMPTS_DIR,
  draftsToSend,
  loadPrompts,
  memoryValues,
  type PreparedThread,
  prepareThread,
  type Prompts,
  renderDrafts,
  renderPrompt,
  renderThreads,
  SIGNALS_SCHEMA,
  SIGNALS_SCHEMA_NAME,
  THEMES_SCHEMA,
  THEMES_SCHEMA_NAME,
} from './llm-prompts.ts';
import type { SourceThread } from '../sources/source.ts';

export interface LlmOptions {
  /** Up to the version segment, e.g. `http://localhost:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Tokens one run may spend (usage.total_tokens summed); past it the fallback does the rest. */
  maxTokensPerRun: number;
  /** Per request, body included. Default 60,000. */
  timeoutMs?: number;
  /** Retries of a request after 429, 5xx, a timeout or a dropped connection. Default 2. */
  retries?: number;
  /** Analyses what the LLM does not (refusals, failures, the budget spent): `rules`. */
  fallback: Analyzer;
  /** Where analyze.md and themes.md are read from. Default: the shipped prompts/. */
  promptsDir?: string;
  /** Characters of thread text per request (several small threads share one; a longer thread is cut). Default 12,000. */
  batchChars?: number;
  fetch?: typeof fetch;
  logger?: Logger;
  /** Waits between retries; tests pass one that records and returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const LLM_DEFAULTS = {
  timeoutMs: 60_000,
  retries: 2,
  maxTokensPerRun: 200_000,
  batchChars: 12_000,
} as const;

/** Below this a request holds less than one ordinary thread. */
const MIN_BATCH_CHARS = 2_000;
/** Even tiny threads share a request only this far: each adds signals to one answer of bounded length. */
const MAX_THREADS_PER_REQUEST = 20;
/** max_tokens of an analyze request: room for a few signals with moves per thread, capped. */
const ANSWER_TOKENS = { base: 512, perThread: 384, max: 4_096 } as const;
const THEMES_ANSWER_TOKENS = 3_000;
/** The usual rule of thumb for English text, used when a server reports no usage. */
const CHARS_PER_TOKEN = 4;

export function createLlmAnalyzer(options: LlmOptions): Analyzer {
  checkOptions(options);
  // Read once, so a broken prompt file fails when the analyzer is configured, not mid-run.
  const prompts = loadPrompts(options.promptsDir ?? DEFAULT_PROMPTS_DIR);
  const logger = options.logger?.child({ component: 'llm-analyzer' });
  const client = chatClientOf(options, logger);
  return {
    name: 'llm',
    start: (memory) => new LlmRun(memory, options, prompts, client, logger),
  };
}

/** The chat client of the configured endpoint, with the analyzer's timeouts and retries. */
export function chatClientOf(options: Pick<LlmOptions, 'baseUrl' | 'apiKey' | 'model' | 'timeoutMs' | 'retries' | 'fetch' | 'sleep'>, logger?: Logger): ChatClient {
  return createChatClient({
    baseUrl: options.baseUrl,
    model: options.model,
    timeoutMs: options.timeoutMs ?? LLM_DEFAULTS.timeoutMs,
    retries: options.retries ?? LLM_DEFAULTS.retries,
    fetch: options.fetch ?? globalThis.fetch,
    sleep: options.sleep ?? defaultSleep,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(logger ? { logger } : {}),
  });
}

function checkOptions(options: LlmOptions): void {
  const problem = baseUrlProblem(options.baseUrl);
  if (problem) throw new Error(`the LLM base URL ${problem}`);
  if (!options.model.trim()) throw new Error('the LLM model must be named');
  if (!Number.isInteger(options.maxTokensPerRun) || options.maxTokensPerRun <= 0) throw new Error('the LLM token budget must be a positive whole number');
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) throw new Error('the LLM timeout must be positive');
  if (options.retries !== undefined && !(Number.isInteger(options.retries) && options.retries >= 0)) throw new Error('the LLM retries must be a whole number ≥ 0');
  if (options.batchChars !== undefined && !(Number.isInteger(options.batchChars) && options.batchChars >= MIN_BATCH_CHARS)) {
    throw new Error(`the LLM batch size must be a whole number of characters ≥ ${MIN_BATCH_CHARS}`);
  }
}

/** A bad LLM_* setting: a user error, said at start-up. */
export class LlmConfigError extends Error {}

/**
 * The options from the environment, or undefined when LLM_BASE_URL is unset (the `llm` analyzer
 * is opt-in). Bad values throw an Error naming the variable; the API key is never in a message.
 */
export function llmOptionsFromEnv(env: NodeJS.ProcessEnv, fallback: Analyzer): LlmOptions | undefined {
  const baseUrl = env.LLM_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  const problem = baseUrlProblem(baseUrl);
  if (problem) throw new LlmConfigError(`LLM_BASE_URL ${problem}`);
  const model = env.LLM_MODEL?.trim();
  if (!model) throw new LlmConfigError('LLM_BASE_URL is set but LLM_MODEL is not: name the model to use (like LLM_MODEL=llama3.1:8b)');
  const options: LlmOptions = {
    baseUrl,
    model,
    maxTokensPerRun: wholeNumber(env, 'LLM_MAX_TOKENS_PER_RUN', 1) ?? LLM_DEFAULTS.maxTokensPerRun,
    fallback,
  };
  const apiKey = env.LLM_API_KEY?.trim();
  if (apiKey) options.apiKey = apiKey;
  const timeoutSeconds = positiveNumber(env, 'LLM_TIMEOUT_SECONDS');
  if (timeoutSeconds !== undefined) options.timeoutMs = Math.round(timeoutSeconds * 1000);
  const batchChars = wholeNumber(env, 'LLM_BATCH_CHARS', MIN_BATCH_CHARS);
  if (batchChars !== undefined) options.batchChars = batchChars;
  const promptsDir = env.LLM_PROMPTS_DIR?.trim();
  if (promptsDir) options.promptsDir = promptsDir;
  return options;
}

/** What is wrong with a base URL, as the end of a sentence; undefined when nothing is. */
function baseUrlProblem(baseUrl: string): string | undefined {
  if (!/^https?:\/\/\S+$/i.test(baseUrl) || !URL.canParse(baseUrl)) return 'must be an http(s) URL up to the API version, like http://localhost:11434/v1';
  const url = new URL(baseUrl);
  // fetch refuses URLs with credentials, and a key in a URL ends up in logs and reports.
  if (url.username || url.password) return 'must not hold a user name or password: put the key in LLM_API_KEY';
  return undefined;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const text = env[name]?.trim().replace(/_/g, '');
  if (!text) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new LlmConfigError(`${name} must be a whole number ≥ ${min} (got "${env[name]}")`);
  }
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!/^\d+(?:\.\d+)?$/.test(text) || !(value > 0)) throw new LlmConfigError(`${name} must be a positive number of seconds (got "${env[name]}")`);
  return value;
}

// ---------------------------------------------------------------------------------------------
// One run

/** Why a request's threads went to the fallback (the run goes on with the LLM). */
type FallbackReason = 'refusal' | 'invalid-json' | 'truncated' | Exclude<ChatFailure, 'unreachable' | 'refused' | 'bad-response'>;

/** Why the LLM is not called again in this run. */
interface Stop {
  reason: 'budget' | 'unreachable' | 'refused';
  detail: string;
  /** Threads the LLM had analysed when it stopped. */
  afterThreads: number;
}

/** A chat call that gave no answer to read: failed after retries, or not made (stopped, over budget). */
type NoAnswer = { kind: 'failed'; reason: FallbackReason } | { kind: 'stopped' } | { kind: 'over-budget' };
type Outcome = { kind: 'signals'; answer: SignalsAnswer } | { kind: 'truncated' } | { kind: 'failed'; reason: FallbackReason } | { kind: 'stopped' };

class LlmRun implements AnalyzerRun {
  private readonly memoryText: Record<string, string>;
  private readonly batchChars: number;
  private tokensUsed = 0;
  private tokensEstimated = false;
  private requests = 0;
  private llmThreads = 0;
  private stop: Stop | undefined;
  private threadsAfterStop = 0;
  private readonly fallbacks = new Map<FallbackReason, { requests: number; threads: number }>();
  private readonly drops: DropCounts = noDrops();
  private threadsCut = 0;
  private commentsNotSent = 0;
  private readonly themeNotes: string[] = [];
  private fallbackRun: AnalyzerRun | undefined;
  private closed = false;

  constructor(
    private readonly memory: AnalyzerMemory,
    private readonly options: LlmOptions,
    private readonly prompts: Prompts,
    private readonly client: ChatClient,
    private readonly logger: Logger | undefined,
  ) {
    this.memoryText = memoryValues(memory);
    this.batchChars = options.batchChars ?? LLM_DEFAULTS.batchChars;
  }

  async analyze(threads: readonly SourceThread[], signal?: AbortSignal): Promise<FoundSignal[][]> {
    if (this.closed) throw new Error('this llm analyzer run is closed');
    signal?.throwIfAborted();
    const results: FoundSignal[][] = threads.map(() => []);
    const requests = this.planRequests(threads);
    const leftOver: PreparedThread[] = [];
    for (const request of requests) {
      if (this.stop) leftOver.push(...request);
      else await this.analyzeRequest(request, results, signal, true);
    }
    // Once the LLM has stopped, the rest of the batch goes to the fallback in one call.
    if (leftOver.length > 0) await this.fallBack(leftOver, results, signal, undefined);
    return results;
  }

  /** Threads grouped into requests of at most `batchChars` characters; a longer thread is cut. */
  private planRequests(threads: readonly SourceThread[]): PreparedThread[][] {
    const requests: PreparedThread[][] = [];
    let current: PreparedThread[] = [];
    let chars = 0;
    threads.forEach((thread, index) => {
      const prepared = prepareThread(thread, index, this.batchChars);
      if (prepared.commentsDropped > 0) {
        this.threadsCut += 1;
        this.commentsNotSent += prepared.commentsDropped;
      }
      if (current.length > 0 && (chars + prepared.chars > this.batchChars || current.length >= MAX_THREADS_PER_REQUEST)) {
        requests.push(current);
        current = [];
        chars = 0;
      }
      current.push(prepared);
      chars += prepared.chars;
    });
    if (current.length > 0) requests.push(current);
    return requests;
  }

  /** One request's threads: the LLM's signals, or (split once if truncated) the fallback's. */
  private async analyzeRequest(request: PreparedThread[], results: FoundSignal[][], signal: AbortSignal | undefined, maySplit: boolean): Promise<void> {
    if (this.stop) return this.fallBack(request, results, signal, undefined);
    const outcome = await this.requestSignals(request, signal);
    switch (outcome.kind) {
      case 'signals':
        this.keep(request, outcome.answer, results);
        return;
      case 'truncated':
        if (maySplit && request.length > 1) {
          // The answer did not fit max_tokens: half the threads need about half the answer.
          const middle = Math.ceil(request.length / 2);
          this.logger?.info({ threads: request.length }, 'llm answer truncated; splitting the request');
          await this.analyzeRequest(request.slice(0, middle), results, signal, false);
          await this.analyzeRequest(request.slice(middle), results, signal, false);
          return;
        }
        return this.fallBack(request, results, signal, 'truncated');
      case 'failed':
        return this.fallBack(request, results, signal, outcome.reason);
      case 'stopped':
        return this.fallBack(request, results, signal, undefined);
    }
  }

  /** Asks for the signals of these threads; an answer that is not valid JSON is asked for once more. */
  private async requestSignals(request: PreparedThread[], signal?: AbortSignal): Promise<Outcome> {
    const messages = renderPrompt(this.prompts.analyze, { ...this.memoryText, threads: renderThreads(request) });
    const maxTokens = Math.min(ANSWER_TOKENS.max, ANSWER_TOKENS.base + ANSWER_TOKENS.perThread * request.length);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await this.call(messages, maxTokens, SIGNALS_SCHEMA_NAME, SIGNALS_SCHEMA, signal);
      if ('kind' in answer) {
        if (answer.kind !== 'over-budget') return answer;
        this.stopCalling('budget', `token budget of ${this.options.maxTokensPerRun}`);
        return { kind: 'stopped' };
      }
      if (answer.refusal) return { kind: 'failed', reason: 'refusal' };
      if (answer.finishReason === 'length') return { kind: 'truncated' };
      const read = readSignalsAnswer(answer.content, request);
      if (read) return { kind: 'signals', answer: read };
      this.logger?.warn({ attempt, threads: request.length }, 'llm answer is not the JSON asked for');
    }
    return { kind: 'failed', reason: 'invalid-json' };
  }

  /**
   * One chat request within the budget: the answer, or what to do instead. An endpoint's bad
   * envelope (an HTML page with status 200) is handed back as an answer without content, so the
   * caller treats it like invalid JSON.
   */
  private async call(messages: ChatMessage[], maxTokens: number, schemaName: string, schema: JsonSchema, signal?: AbortSignal): Promise<ChatAnswer | NoAnswer> {
    if (this.stop) return { kind: 'stopped' };
    const promptChars = messages.reduce((sum, m) => sum + m.content.length, 0);
    // The answer may take all of max_tokens: a request is made only if even that would fit.
    if (this.tokensUsed + estimateTokens(promptChars) + maxTokens > this.options.maxTokensPerRun) return { kind: 'over-budget' };
    this.requests += 1;
    try {
      const answer = await this.client.complete({ messages, maxTokens, schemaName, schema }, signal);
      this.charge(answer, promptChars);
      return answer;
    } catch (err) {
      if (signal?.aborted || !(err instanceof ChatError)) throw err;
      const failure = err.failure;
      if (failure === 'unreachable' || failure === 'refused') {
        this.stopCalling(failure, err.message);
        return { kind: 'stopped' };
      }
      if (failure === 'bad-response') return { content: null, refusal: null, finishReason: null, totalTokens: null };
      this.logger?.warn({ failure, reason: err.message }, 'llm request failed after retries');
      return { kind: 'failed', reason: failure };
    }
  }

  private charge(answer: ChatAnswer, promptChars: number): void {
    if (answer.totalTokens !== null) {
      this.tokensUsed += answer.totalTokens;
    } else {
      this.tokensEstimated = true;
      this.tokensUsed += estimateTokens(promptChars + (answer.content?.length ?? 0));
    }
  }

  private stopCalling(reason: Stop['reason'], detail: string): void {
    this.stop = { reason, detail, afterThreads: this.llmThreads };
    this.logger?.warn({ reason, detail, afterThreads: this.llmThreads }, 'the llm analyzer stops calling the endpoint for this run');
  }

  private keep(request: PreparedThread[], answer: SignalsAnswer, results: FoundSignal[][]): void {
    request.forEach((prepared, position) => {
      results[prepared.index] = answer.perThread[position] ?? [];
    });
    this.llmThreads += request.length;
    for (const key of Object.keys(this.drops) as (keyof DropCounts)[]) this.drops[key] += answer.drops[key];
  }

  /** The fallback analyses these threads; `reason` undefined means "the LLM has stopped for the run". */
  private async fallBack(request: PreparedThread[], results: FoundSignal[][], signal: AbortSignal | undefined, reason: FallbackReason | undefined): Promise<void> {
    signal?.throwIfAborted();
    this.fallbackRun ??= this.options.fallback.start(this.memory);
    const found = await this.fallbackRun.analyze(
      request.map((p) => p.thread),
      signal,
    );
    request.forEach((prepared, i) => {
      results[prepared.index] = found[i] ?? [];
    });
    if (reason === undefined) {
      this.threadsAfterStop += request.length;
      return;
    }
    this.logger?.warn({ reason, threads: request.length }, 'llm request fell back');
    const count = this.fallbacks.get(reason) ?? { requests: 0, threads: 0 };
    this.fallbacks.set(reason, { requests: count.requests + 1, threads: count.threads + request.length });
  }

  async nameThemes(drafts: readonly ThemeDraft[], signal?: AbortSignal): Promise<ThemeNaming> {
    const none: ThemeNaming = { names: [], merges: [] };
    if (this.closed) throw new Error('this llm analyzer run is closed');
    signal?.throwIfAborted();
    if (drafts.length === 0) return none;
    const sent = draftsToSend(drafts);
    const messages = renderPrompt(this.prompts.themes, { ...this.memoryText, themes: renderDrafts(sent) });
    const answer = await this.call(messages, THEMES_ANSWER_TOKENS, THEMES_SCHEMA_NAME, THEMES_SCHEMA, signal);
    const read = 'kind' in answer || answer.refusal || answer.finishReason === 'length' ? undefined : readThemesAnswer(answer.content, sent);
    if (!read) {
      this.themeNotes.push(`themes were not named by the LLM (${this.themeFailure(answer)}); the grouper's titles stand`);
      return none;
    }
    if (read.droppedNames > 0 || read.droppedMerges > 0) {
      this.themeNotes.push(
        `theme naming: ${plural(read.droppedNames, 'name')} and ${plural(read.droppedMerges, 'merge')} from the LLM were dropped ` +
          `(unknown theme ids, titles not ${THEME_TITLE_WORDS.min}–${THEME_TITLE_WORDS.max} words, summaries not one sentence, chained merges)`,
      );
    }
    return read.naming;
  }

  report(): AnalyzerReport {
    const fellBack = this.fallbacks.size > 0 || this.threadsAfterStop > 0;
    const fallbackName = this.options.fallback.name;
    return {
      analyzer: fellBack ? `llm+${fallbackName}` : 'llm',
      notes: [
        ...this.stopNotes(fallbackName),
        ...this.fallbackNotes(fallbackName),
        ...this.dropNotes(),
        ...this.themeNotes,
        ...this.tokenNotes(),
        ...(this.fallbackRun?.report().notes ?? []),
      ],
    };
  }

  private stopNotes(fallbackName: string): string[] {
    if (!this.stop) return [];
    const rest = `${plural(this.threadsAfterStop, 'thread')} ${this.threadsAfterStop === 1 ? 'was' : 'were'} analysed by ${fallbackName} instead`;
    const endpoint = displayEndpoint(this.options.baseUrl);
    switch (this.stop.reason) {
      case 'budget':
        return [`${this.stop.detail} reached after ${plural(this.stop.afterThreads, 'thread')}; ${rest}`];
      case 'unreachable':
        return [`the LLM endpoint ${endpoint} could not be reached (${this.stop.detail}); ${rest}`];
      case 'refused':
        return [`the LLM endpoint ${endpoint} refused the requests (${this.stop.detail}; check LLM_API_KEY, LLM_MODEL and LLM_BASE_URL); ${rest}`];
    }
  }

  private fallbackNotes(fallbackName: string): string[] {
    return [...this.fallbacks].map(
      ([reason, count]) => `${plural(count.threads, 'thread')} (${plural(count.requests, 'request')}) analysed by ${fallbackName} because ${FALLBACK_REASONS[reason]}`,
    );
  }

  private dropNotes(): string[] {
    const notes: string[] = [];
    const { notVerbatim, unknownPassage, malformed, beyondLimit } = this.drops;
    if (notVerbatim > 0) notes.push(`${plural(notVerbatim, 'quote')} from the LLM dropped: not found verbatim in the passage ${notVerbatim === 1 ? 'it names' : 'they name'}`);
    if (unknownPassage > 0) notes.push(`${plural(unknownPassage, 'signal')} from the LLM dropped: naming no passage of the threads sent`);
    if (malformed > 0) notes.push(`${plural(malformed, 'signal')} from the LLM dropped as malformed (an empty or over-long quote, a competitor without a product name)`);
    if (beyondLimit > 0) {
      notes.push(`${plural(beyondLimit, 'signal')} from the LLM dropped beyond the per-thread limits (${MAX_PER_THREAD.pain} pains, ${MAX_PER_THREAD.competitor} competitor mentions, ${MAX_PER_THREAD.content} questions)`);
    }
    if (this.threadsCut > 0) {
      const were = this.threadsCut === 1 ? 'was' : 'were';
      notes.push(`${plural(this.threadsCut, 'thread')} ${were} longer than ${this.batchChars} characters and cut: ${plural(this.commentsNotSent, 'comment')} not sent to the LLM`);
    }
    return notes;
  }

  private tokenNotes(): string[] {
    if (this.requests === 0) return [];
    const about = this.tokensEstimated ? 'about ' : '';
    return [`the LLM used ${about}${this.tokensUsed} tokens of the run's budget of ${this.options.maxTokensPerRun} in ${plural(this.requests, 'request')}`];
  }

  /** Why the LLM is not called any more, in a few words. */
  private stopReason(): string {
    switch (this.stop?.reason) {
      case 'budget':
        return `the ${this.stop.detail} was reached`;
      case 'unreachable':
        return 'the endpoint could not be reached';
      default:
        return 'the endpoint refused the requests';
    }
  }

  /** Why a theme-naming call gave nothing usable, in the words of a note. */
  private themeFailure(answer: ChatAnswer | NoAnswer): string {
    if ('kind' in answer) {
      if (answer.kind === 'failed') return FALLBACK_REASONS[answer.reason];
      if (answer.kind === 'over-budget') return `the request would exceed the token budget of ${this.options.maxTokensPerRun}`;
      return this.stopReason();
    }
    if (answer.refusal) return FALLBACK_REASONS.refusal;
    if (answer.finishReason === 'length') return 'the answer was cut at max_tokens';
    return 'the answer was not the JSON asked for';
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fallbackRun?.close();
  }
}

const FALLBACK_REASONS: Record<FallbackReason, string> = {
  refusal: 'the model refused',
  'invalid-json': 'the answer was not the JSON asked for, twice',
  truncated: 'the answer was cut at max_tokens even after splitting the request',
  'rate-limited': 'the endpoint kept answering 429 (rate limited) after the retries',
  'server-error': 'the endpoint kept failing (HTTP 5xx) after the retries',
  timeout: 'no answer came within the timeout, retries included',
  'network-error': 'the connection kept dropping after the retries',
  rejected: 'the endpoint rejected the request (HTTP 4xx)',
};


function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
