/**
 * Project memory from the site, the `llm` way (DESIGN §8 "Project memory"): when an LLM endpoint
 * is configured, the page the build fetched is also given to the model, which writes the
 * description and category in plain words and may suggest competitors. The page's own metadata
 * (site.ts) is what the build falls back to when the model cannot answer: a memory build never
 * fails because the LLM did.
 */
import type { Logger } from '../../logger.ts';
import type { ChatClient } from '../analyze/llm-client.ts';
import type { Analyzer } from '../analyze/analyzer.ts';
import { chatClientOf, llmOptionsFromEnv, type LlmOptions } from '../analyze/llm.ts';
import { parseJsonContent } from '../analyze/llm-answers.ts';
import { DEFAULT_PROMPTS_DIR, loadPrompts, MEMORY_SCHEMA, MEMORY_SCHEMA_NAME, renderPrompt, type PromptTemplate } from '../analyze/llm-prompts.ts';
import { htmlToText } from '../sources/thread.ts';

export interface SiteSummary {
  description?: string;
  category?: string;
  competitors: { name: string; url: string | null }[];
}

export interface PageForSummary {
  projectName: string;
  url: string;
  html: string;
  facts: { name?: string; description?: string; category?: string };
}

/** Asks the model about one page; undefined when it gave no usable answer (the caller keeps the page's metadata). */
export type Summarizer = (page: PageForSummary, signal?: AbortSignal) => Promise<SiteSummary | undefined>;

/** Characters of visible page text sent: the top of a landing page says what the product is. */
const PAGE_CHARS = 6_000;
const ANSWER_TOKENS = 600;
const MAX_SUGGESTED = 5;
const LIMITS = { description: 400, category: 60, name: 60 } as const;

export function llmSummarizer(options: Pick<LlmOptions, 'baseUrl' | 'apiKey' | 'model' | 'timeoutMs' | 'retries' | 'promptsDir' | 'fetch' | 'sleep'>, logger?: Logger): Summarizer {
  const prompt = loadPrompts(options.promptsDir ?? DEFAULT_PROMPTS_DIR).memory;
  const client = chatClientOf(options);
  const log = logger?.child({ component: 'memory-summary' });
  return (page, signal) => summarize(client, prompt, page, signal, log);
}

async function summarize(client: ChatClient, prompt: PromptTemplate, page: PageForSummary, signal: AbortSignal | undefined, log: Logger | undefined): Promise<SiteSummary | undefined> {
  const lines = [
    `URL: ${page.url}`,
    page.facts.name ? `Title: ${page.facts.name}` : undefined,
    page.facts.description ? `Description: ${page.facts.description}` : undefined,
    page.facts.category ? `Category: ${page.facts.category}` : undefined,
    '',
    'Visible text:',
    htmlToText(page.html).slice(0, PAGE_CHARS),
  ].filter((line): line is string => line !== undefined);
  try {
    const answer = await client.complete(
      { messages: renderPrompt(prompt, { project_name: page.projectName, page: lines.join('\n') }), maxTokens: ANSWER_TOKENS, schemaName: MEMORY_SCHEMA_NAME, schema: MEMORY_SCHEMA },
      signal,
    );
    return summaryOf(parseJsonContent(answer.content), page.projectName);
  } catch (err) {
    if (signal?.aborted) throw err;
    log?.warn({ reason: err instanceof Error ? err.message : String(err) }, 'the LLM could not summarize the site; using its metadata');
    return undefined;
  }
}

/** The model's answer within bounds: cut to length, the project itself and non-URLs dropped. */
export function summaryOf(value: unknown, projectName: string): SiteSummary | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as { description?: unknown; category?: unknown; competitors?: unknown };
  const text = (x: unknown, max: number) => (typeof x === 'string' && x.trim() !== '' ? x.replace(/\s+/g, ' ').trim().slice(0, max) : undefined);
  const self = projectName.trim().toLowerCase();
  const seen = new Set<string>();
  const competitors: SiteSummary['competitors'] = [];
  for (const c of Array.isArray(v.competitors) ? v.competitors : []) {
    const name = text((c as { name?: unknown })?.name, LIMITS.name + 1);
    if (name === undefined || name.length > LIMITS.name || name.toLowerCase() === self || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const url = (c as { url?: unknown }).url;
    competitors.push({ name, url: typeof url === 'string' && /^https?:\/\/\S+$/i.test(url) && URL.canParse(url) ? url : null });
    if (competitors.length === MAX_SUGGESTED) break;
  }
  const description = text(v.description, LIMITS.description);
  const category = text(v.category, LIMITS.category);
  if (description === undefined && category === undefined && competitors.length === 0) return undefined;
  return { ...(description ? { description } : {}), ...(category ? { category } : {}), competitors };
}

/**
 * The summarizer the environment asks for: the `llm` analyzer's endpoint when LLM_BASE_URL is set,
 * else none (the page's metadata alone). Bad LLM_* values throw LlmConfigError, as for digests.
 */
export function summarizerFromEnv(env: NodeJS.ProcessEnv, logger?: Logger): Summarizer | undefined {
  const options = llmOptionsFromEnv(env, NOT_ANALYZING);
  return options && llmSummarizer(options, logger);
}

/** llmOptionsFromEnv wants the digest's fallback analyzer; a memory build analyses no thread. */
const NOT_ANALYZING: Analyzer = {
  name: 'none',
  start() {
    throw new Error('a memory build analyses no thread');
  },
};
