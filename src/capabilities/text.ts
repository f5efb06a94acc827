/**
 * Helpers for the text forms (`render: "text"`, and the text an MCP tool result carries): bullet
 * lines, no Markdown tables (DESIGN §4), and never more than TEXT_MAX characters (DESIGN §11).
 */

/**
 * The most characters a text form holds. Claude keeps about 150,000 characters of a tool result
 * and drops the rest without telling the model; under this bound the model always reads a whole
 * answer, or one that says where it was cut and how to get the rest.
 */
export const TEXT_MAX = 100_000;

/** Room kept for the line saying where the text was cut; every such line is far shorter. */
const CUT_LINE_ROOM = 600;

/** One `- ` bullet per line. */
export function bullets(lines: Iterable<string>): string {
  const out: string[] = [];
  for (const line of lines) out.push(bullet(line));
  return out.join('\n');
}

export function bullet(line: string): string {
  return `- ${oneLine(line)}`;
}

/** A bullet holds one line: newlines inside a value would start a line that is no bullet. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').trim();
}

/** A long value cut to `max` characters at a word boundary, for lists that only point at it. */
export function clip(text: string, max = 280): string {
  const flat = oneLine(text);
  if (flat.length <= max) return flat;
  const end = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, end > max / 2 ? end : max - 1)}…`;
}

/** The date of a timestamp (`2026-11-25`): text forms name days, not instants. */
export function day(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** `1 post`, `2 posts`. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}

/** What a cut text knows when it says how to get the rest. */
export interface Cut {
  /** Blocks shown whole. */
  shown: number;
  total: number;
  /** The first block alone was too long, so only its first lines are shown (`shown` is 0). */
  partial: boolean;
}

/**
 * Joins blocks (a bullet line, a whole thread) with newlines. When the whole is longer than
 * `max`, it keeps the leading blocks that fit — a block is never cut unless the first alone is too
 * long, and then at a line boundary — and ends with one bullet saying so and how to get the rest.
 */
export function fitBlocks(blocks: readonly string[], rest: (cut: Cut) => string, max = TEXT_MAX): string {
  const whole = blocks.join('\n');
  if (whole.length <= max) return whole;
  const budget = max - CUT_LINE_ROOM;
  const kept: string[] = [];
  let length = 0;
  for (const block of blocks) {
    const added = (kept.length > 0 ? 1 : 0) + block.length;
    if (length + added > budget) break;
    kept.push(block);
    length += added;
  }
  const cut: Cut = { shown: kept.length, total: blocks.length, partial: kept.length === 0 };
  if (cut.partial) kept.push(firstLines(blocks[0] ?? '', budget));
  const line = bullet(`[Cut here: the full answer is ${whole.length.toLocaleString('en-US')} characters, over the ${max.toLocaleString('en-US')} a text answer holds. ${rest(cut)}]`);
  return `${kept.join('\n')}\n${line.length <= CUT_LINE_ROOM ? line : `${line.slice(0, CUT_LINE_ROOM - 2)}]`}`;
}

/** The lines of `text` that fit in `budget` characters (at least a first slice of its first line). */
function firstLines(text: string, budget: number): string {
  const end = text.lastIndexOf('\n', budget);
  return end > 0 ? text.slice(0, end) : text.slice(0, budget);
}
