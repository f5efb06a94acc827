/**
 * What the `llm` analyzer sends: the prompt files (plain Markdown a user can read and change,
 * with {{placeholders}}), the threads cut into labelled passages, and the JSON schemas of the
 * structured answers. Nothing here touches the network.
 *
 * Passages carry short ids (`title`, `post`, `c1`, `c2`, …) instead of the sources' comment ids:
 * fewer tokens, no id that could collide with `title`, nothing odd for the model to copy back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BundleComment } from '../bundle.ts';
import type { SourceThread } from '../sources/source.ts';
import type { AnalyzerMemory, ThemeDraft } from './analyzer.ts';
import type { ChatMessage, JsonSchema } from './llm-client.ts';

export const DEFAULT_PROMPTS_DIR = fileURLToPath(new URL('./prompts/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Prompt files

export interface PromptTemplate {
  /** The file it came from, for error messages. */
  file: string;
  system: string;
  user: string;
}

export interface Prompts {
  analyze: PromptTemplate;
  themes: PromptTemplate;
  /** Project memory from the site (memory/summary.ts). */
  memory: PromptTemplate;
}

const MEMORY_PLACEHOLDERS = ['project_name', 'project_description', 'competitors', 'offerings', 'filter_rules'] as const;
const PLACEHOLDERS = {
  analyze: { allowed: [...MEMORY_PLACEHOLDERS, 'threads'], required: 'threads' },
  themes: { allowed: [...MEMORY_PLACEHOLDERS, 'themes'], required: 'themes' },
  memory: { allowed: ['project_name', 'page'], required: 'page' },
} as const;

/**
 * Reads and checks the prompt files; a typo in a placeholder fails here, not mid-run. A prompts
 * directory made before memory.md existed keeps working: the shipped memory.md fills in.
 */
export function loadPrompts(dir: string = DEFAULT_PROMPTS_DIR): Prompts {
  const memory = existsSync(join(dir, 'memory.md')) ? join(dir, 'memory.md') : join(DEFAULT_PROMPTS_DIR, 'memory.md');
  return {
    analyze: loadPrompt(join(dir, 'analyze.md'), PLACEHOLDERS.analyze),
    themes: loadPrompt(join(dir, 'themes.md'), PLACEHOLDERS.themes),
    memory: loadPrompt(memory, PLACEHOLDERS.memory),
  };
}

function loadPrompt(file: string, placeholders: { allowed: readonly string[]; required: string }): PromptTemplate {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the LLM prompt ${file}: ${(err as Error).message}`);
  }
  const template = parsePrompt(text, file);
  for (const name of placeholdersIn(template.system + template.user)) {
    if (!placeholders.allowed.includes(name)) {
      throw new Error(`${file}: unknown placeholder {{${name}}} (known: ${placeholders.allowed.map((p) => `{{${p}}}`).join(', ')})`);
    }
  }
  if (!placeholdersIn(template.system + template.user).includes(placeholders.required)) {
    throw new Error(`${file}: the prompt must contain {{${placeholders.required}}}, or the model is sent nothing to read`);
  }
  return template;
}

/** Splits a prompt file at its `# System` and `# User` lines, comments removed. */
export function parsePrompt(text: string, file: string): PromptTemplate {
  const lines = text.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/);
  const systemAt = lines.findIndex((line) => /^#\s+system\s*$/i.test(line));
  const userAt = lines.findIndex((line) => /^#\s+user\s*$/i.test(line));
  if (systemAt < 0 || userAt < 0 || userAt < systemAt) {
    throw new Error(`${file}: a prompt needs a "# System" line and, after it, a "# User" line`);
  }
  const system = lines.slice(systemAt + 1, userAt).join('\n').trim();
  const user = lines.slice(userAt + 1).join('\n').trim();
  if (!system || !user) throw new Error(`${file}: the system and the user message must both have text`);
  return { file, system, user };
}

function placeholdersIn(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w-]+)\s*\}\}/g)].map((m) => m[1]!);
}

/** Fills the placeholders in one pass, so text from a thread is never itself expanded. */
export function renderPrompt(template: PromptTemplate, values: Record<string, string>): ChatMessage[] {
  const fill = (text: string) => text.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
  return [
    { role: 'system', content: fill(template.system) },
    { role: 'user', content: fill(template.user) },
  ];
}

/** The memory placeholders, the same for every request of a run. */
export function memoryValues(memory: AnalyzerMemory): Record<string, string> {
  const listOrNone = (lines: string[]) => (lines.length > 0 ? lines.join('\n') : '(none)');
  const named = (name: string, description: string) => (description.trim() ? `- ${name}: ${oneLine(description)}` : `- ${name}`);
  return {
    project_name: memory.name,
    project_description: memory.description.trim() ? oneLine(memory.description) : '(none)',
    competitors: listOrNone(memory.competitors.map((c) => named(c.name, c.description))),
    offerings: listOrNone(memory.offerings.map((o) => named(o.name, o.description))),
    filter_rules: listOrNone(memory.filterRules.map((rule) => `- ${oneLine(rule)}`)),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Threads as passages

/** One post title, post text or comment: the unit a quote must come from. */
export interface Passage {
  id: string;
  /** The full text, as stored: quotes are checked against it. */
  text: string;
  /** What was sent: the full text, or a prefix of it when the thread was cut. */
  sent: string;
  author: string;
  at: string;
  /** The passage this one answers (`post` or a comment id), for the model's sense of context. */
  replyTo: string | null;
}

export interface PreparedThread {
  /** The thread's position in the `analyze` call. */
  index: number;
  thread: SourceThread;
  passages: Passage[];
  /** Characters of the rendered passages (the thread wrapper adds a few more). */
  chars: number;
  /** Comments left out because the thread was longer than the bound. */
  commentsDropped: number;
}

/** Tags and attributes around each passage: counted so a bound in characters holds. */
const PASSAGE_OVERHEAD = 40;
const THREAD_OVERHEAD = 60;

/**
 * The thread's passages in reading order (title, post, comments depth-first), within `maxChars`:
 * the title always, the post text cut to the room left, then comments until one does not fit
 * (it and every later comment are dropped, so what is sent is a readable prefix of the thread).
 */
export function prepareThread(thread: SourceThread, index: number, maxChars: number): PreparedThread {
  const passages: Passage[] = [];
  let chars = THREAD_OVERHEAD;
  const add = (passage: Omit<Passage, 'sent'>, room: number) => {
    const sent = passage.text.slice(0, Math.max(0, room));
    passages.push({ ...passage, sent });
    chars += sent.length + PASSAGE_OVERHEAD;
  };
  add({ id: 'title', text: thread.title, author: thread.author, at: thread.postCreatedAt, replyTo: null }, maxChars);
  const postRoom = maxChars - chars - PASSAGE_OVERHEAD;
  if (thread.selftext.trim() && postRoom > 0) {
    add({ id: 'post', text: thread.selftext, author: thread.author, at: thread.postCreatedAt, replyTo: null }, postRoom);
  }
  const comments = flattenComments(thread.comments);
  let sentComments = 0;
  for (const comment of comments) {
    if (chars + comment.text.length + PASSAGE_OVERHEAD > maxChars) break;
    add(comment, comment.text.length);
    sentComments += 1;
  }
  return { index, thread, passages, chars, commentsDropped: comments.length - sentComments };
}

type CommentPassage = Omit<Passage, 'sent'>;

/** Comments depth-first with ids c1, c2, … in that order; empty bodies are skipped (nothing to quote). */
function flattenComments(comments: readonly BundleComment[]): CommentPassage[] {
  const out: CommentPassage[] = [];
  const walk = (list: readonly BundleComment[], parent: string) => {
    for (const comment of list) {
      let id = parent;
      if (comment.body.trim()) {
        id = `c${out.length + 1}`;
        out.push({ id, text: comment.body, author: comment.author, at: comment.createdAt, replyTo: parent });
      }
      walk(comment.replies, id);
    }
  };
  walk(comments, 'post');
  return out;
}

/** The thread's label within one request: `T1`, `T2`, … by position. */
export function threadLabel(position: number): string {
  return `T${position + 1}`;
}

/** The `{{threads}}` text of one request. */
export function renderThreads(threads: readonly PreparedThread[]): string {
  return threads.map((prepared, position) => renderThread(prepared, threadLabel(position))).join('\n\n');
}

function renderThread(prepared: PreparedThread, label: string): string {
  const lines = [`<thread id="${label}" community="${attribute(prepared.thread.community)}">`];
  for (const passage of prepared.passages) {
    const reply = passage.replyTo ? ` reply_to="${passage.replyTo}"` : '';
    lines.push(`<passage id="${passage.id}"${reply}>${passage.sent}</passage>`);
  }
  lines.push('</thread>');
  return lines.join('\n');
}

function attribute(value: string): string {
  return value.replace(/["<>\n]/g, ' ');
}

// ---------------------------------------------------------------------------------------------
// Theme drafts

/** Drafts sent to be named: the biggest first; more would crowd the prompt for little gain. */
export const MAX_DRAFTS_SENT = 40;
const QUOTES_PER_DRAFT = 3;
const DRAFT_QUOTE_CHARS = 240;

/** The drafts that are sent, biggest first (stable for equal sizes, so deterministic). */
export function draftsToSend(drafts: readonly ThemeDraft[]): ThemeDraft[] {
  return drafts
    .map((draft, order) => ({ draft, order }))
    .sort((a, b) => b.draft.posts - a.draft.posts || a.order - b.order)
    .slice(0, MAX_DRAFTS_SENT)
    .map(({ draft }) => draft);
}

/** The `{{themes}}` text. */
export function renderDrafts(drafts: readonly ThemeDraft[]): string {
  return drafts
    .map((draft) => {
      const quotes = draft.quotes.slice(0, QUOTES_PER_DRAFT).map((q) => `- "${oneLine(q).slice(0, DRAFT_QUOTE_CHARS)}"`);
      return [`<theme id="${attribute(draft.id)}" posts="${draft.posts}">`, `title: ${oneLine(draft.title)}`, `summary: ${oneLine(draft.summary)}`, 'quotes:', ...quotes, '</theme>'].join('\n');
    })
    .join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Answer schemas (sent as `response_format`; strict: every property required, no others)

const nullableString: JsonSchema = { type: ['string', 'null'] };

export const SIGNALS_SCHEMA_NAME = 'thread_signals';
export const SIGNALS_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    signals: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          thread: { type: 'string', description: 'The thread id, like T1.' },
          source: { type: 'string', description: 'The passage id: title, post, or a comment id like c3.' },
          kind: { type: 'string', enum: ['pain', 'competitor', 'content'] },
          quote: { type: 'string', description: 'Copied character for character from that one passage.' },
          product: { ...nullableString, description: 'For competitor: the product name; otherwise null.' },
          complaint: { type: 'boolean', description: 'For competitor: the passage complains about the product.' },
          move: {
            anyOf: [
              {
                type: 'object',
                properties: { title: { type: 'string' }, body: { type: 'string' } },
                required: ['title', 'body'],
                additionalProperties: false,
              },
              { type: 'null' },
            ],
          },
        },
        required: ['thread', 'source', 'kind', 'quote', 'product', 'complaint', 'move'],
        additionalProperties: false,
      },
    },
  },
  required: ['signals'],
  additionalProperties: false,
};

export const MEMORY_SCHEMA_NAME = 'project_memory';
export const MEMORY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    category: { type: 'string' },
    competitors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, url: nullableString },
        required: ['name', 'url'],
        additionalProperties: false,
      },
    },
  },
  required: ['description', 'category', 'competitors'],
  additionalProperties: false,
};

export const THEMES_SCHEMA_NAME = 'theme_names';
export const THEMES_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    names: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'string' }, title: { type: 'string' }, summary: { type: 'string' } },
        required: ['id', 'title', 'summary'],
        additionalProperties: false,
      },
    },
    merges: {
      type: 'array',
      items: {
        type: 'object',
        properties: { from: { type: 'string' }, into: { type: 'string' } },
        required: ['from', 'into'],
        additionalProperties: false,
      },
    },
  },
  required: ['names', 'merges'],
  additionalProperties: false,
};
