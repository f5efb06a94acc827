/**
 * What every source does to turn what it read into a stored thread: bodies as plain text within
 * the bundle's bounds, a missing author as `[deleted]`, and a comment tree rebuilt from parent
 * links with each comment keeping its own time and author.
 */
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import type { BundleComment } from '../bundle.ts';
import { LIMITS } from '../../domain/limits.ts';

/** Comments kept per thread; a megathread's later comments are dropped (and counted). */
export const MAX_COMMENTS_PER_THREAD = 2_000;

/** Longer than the bundle allows: cut at a word boundary, marked with an ellipsis. */
export function clipText(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max - 2);
  const space = cut.search(/\s\S*$/);
  return `${(space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd()} …`;
}

export const postText = (value: string) => clipText(value, LIMITS.postText);
export const titleText = (value: string) => clipText(value.replace(/\s+/g, ' ').trim(), LIMITS.text);

/** An author as stored: the name, or `[deleted]` when the source has none (a removed account). */
export function authorName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim().slice(0, LIMITS.name) : '';
  return name === '' ? '[deleted]' : name;
}

/** Plain text with entities decoded (`&amp;` → `&`), for titles the sources escape. */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}

const BLOCK = new Set(['p', 'div', 'br', 'li', 'ul', 'ol', 'pre', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'tr', 'table', 'hr', 'aside', 'section', 'article', 'details', 'summary']);
const SKIP = new Set(['script', 'style', 'template', 'noscript']);

/**
 * HTML bodies (Hacker News, Stack Exchange, Discourse's `cooked`, Reddit feeds) as the plain text
 * a reader sees: tags dropped, entities decoded, paragraphs and list items on their own lines,
 * and a quote an analyzer copies stays verbatim from what people wrote.
 */
export function htmlToText(html: string): string {
  let out = '';
  let skipping = 0;
  let preformatted = 0;
  // Ends the text so far with at least `n` line breaks (block tags in a row make one break, not one each).
  const breakLine = (n: number) => {
    out = out.replace(/[ \t]+$/, '');
    const have = /\n*$/.exec(out)![0].length;
    if (out !== '' && have < n) out += '\n'.repeat(n - have);
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipping += 1;
        else if (name === 'pre') preformatted += 1;
        if (skipping > 0) return;
        // Hacker News separates paragraphs with a bare `<p>` and never closes them.
        if (name === 'p') breakLine(2);
        else if (BLOCK.has(name)) breakLine(1);
        if (name === 'li') out += '- ';
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
        else if (name === 'pre') preformatted = Math.max(0, preformatted - 1);
        if (skipping > 0) return;
        if (name === 'p') breakLine(2);
        else if (BLOCK.has(name)) breakLine(1);
      },
      ontext(text) {
        if (skipping > 0) return;
        // The whitespace between tags is layout, not text (outside <pre>).
        if (preformatted === 0 && /^\s*$/.test(text)) {
          if (out !== '' && !/\s$/.test(out)) out += ' ';
          return;
        }
        out += text;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface FlatComment {
  id: string;
  /** The parent comment's id in the same id space, or null for a reply to the post. */
  parentId: string | null;
  author: string;
  body: string;
  score: number;
  createdAt: string;
}

/**
 * The comment tree of one thread from its flat comments: each under its parent, or at the top when
 * the parent is the post or not among them (a deleted parent, a page not fetched: keep the comment
 * rather than lose it). Siblings oldest first, then by id. At most MAX_COMMENTS_PER_THREAD, the
 * oldest kept.
 */
export function nestComments(flat: readonly FlatComment[], max = MAX_COMMENTS_PER_THREAD): { comments: BundleComment[]; dropped: number } {
  const ordered = [...flat].sort(byTimeThenId);
  const kept = ordered.slice(0, max);
  const nodes = new Map<string, BundleComment>();
  for (const c of kept) nodes.set(c.id, { id: c.id, author: c.author, body: c.body, score: c.score, createdAt: c.createdAt, replies: [] });
  const top: BundleComment[] = [];
  for (const c of kept) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId === null ? undefined : nodes.get(c.parentId);
    if (parent && parent !== node) parent.replies.push(node);
    else top.push(node);
  }
  return { comments: top, dropped: ordered.length - kept.length };
}

function byTimeThenId(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A numeric id as JSON APIs send it, a number or a digit string (HN, Stack Exchange, Discourse). */
export function numericId(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^\d{1,12}$/.test(text) ? text : undefined;
}

/** A JSON number that is one (not NaN, not Infinity, not a string). */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Unix seconds (as sources send them) → ISO timestamp; undefined when not a time. */
export function isoFromSeconds(value: unknown): string | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? new Date(Math.floor(n) * 1000).toISOString() : undefined;
}

/** An ISO-like timestamp from a source → our ISO form; undefined when it does not parse. */
export function isoFromText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}
