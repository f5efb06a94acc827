/**
 * Open model families told apart from products by how a community writes them (DESIGN §8.2: a
 * model family is never a product).
 *
 * People write a model with its parameter count — "QwQ-32B", "Mixtral 8x7B", "Nemotron Super
 * 49B", "Hunyuan-A13B" — and almost never a product: nobody names Ollama "Ollama 70B". A sentence
 * rarely says which a bare name is ("switched to QwQ" reads like "switched to Ollama"), so the
 * sentence rules take both for products. The community's threads as a whole do say it: a name
 * the analyzer took for a product is a model family when the project's threads also write it with
 * a size, often enough against how often it was taken for a product.
 *
 * Measured on the r/LocalLLaMA export (docs/quality.md, "Model families by their sizes"): of the
 * families written with a size at least twice, every one with a size in a tenth of its mentions
 * or more is a model family or a fragment of a model's name ("Coder", "Air"), and the products
 * most often written with a size stay under a twentieth (Grok 0.04, Gemini 0.01: "Gemini 2.5
 * Flash 8B"-style slips).
 */
import { familyKey } from './products.ts';

/** A parameter count in billions, "32B", "8x7B", "0.6b", or a mixture's active count, "A3B". Only billions: "100M users" and "512MB" are counts and sizes of anything. */
const SIZE = String.raw`A?\d+(?:\.\d+)?(?:x\d+)?[bB](?![A-Za-z0-9])`;
/** A word or a version, not itself a size. */
const TOKEN = String.raw`(?!${SIZE})(?:[A-Za-z][\w.+]*|\d+(?:\.\d+)*(?![A-Za-z]))`;
/**
 * A run of up to four tokens, then a separator and a size: "QwQ-32B", "Mistral Large 123B",
 * "Qwen3 Coder 30B", "Mixtral 8x7B", "qwen3:30b".
 */
const SIZED = new RegExp(String.raw`(?<![\w.+])(${TOKEN}(?:[\s\-_:]+${TOKEN}){0,3})[\s\-_:]+${SIZE}`, 'g');
/** The cheap test first: most passages hold no parameter count at all. */
const HAS_SIZE = /\d[bB](?![A-Za-z0-9])/;

/** A token a name can hold: a capitalised word ("A" of "Command A", not "I"), a word with a digit or an inner capital ("qwen3", "vLLM"), a version. */
const NAME_TOKEN = /^(?:(?!I$)[A-Z]|[A-Za-z]+\d|[a-z]+[A-Z]|\d)/;

/**
 * Families a text writes with a parameter count, each once: every name that ends right before the
 * count. The word touching the count may be any word ("magistral 24b": people type model names
 * in lower case); the words before it only name tokens, as the product rules read names ("I run
 * Mixtral 8x7B" gives "Mixtral", not "run Mixtral"). "Nemotron Super 49B" gives "Super" and
 * "Nemotron Super", not "Nemotron": a product may come first ("Unsloth Qwen3 30B" is Unsloth's
 * quant of Qwen3, and must not give "Unsloth").
 */
export function sizedFamilies(text: string): string[] {
  if (!HAS_SIZE.test(text)) return [];
  const out = new Set<string>();
  for (const m of text.matchAll(SIZED)) {
    const tokens = m[1]!.split(/[\s\-_:]+/);
    for (let i = tokens.length - 1; i >= 0 && (i === tokens.length - 1 || NAME_TOKEN.test(tokens[i]!)); i--) {
      if (/^[A-Za-z]/.test(tokens[i]!)) out.add(familyKey(tokens.slice(i).join(' ')));
    }
  }
  return [...out];
}

/** How often a project's threads write a family with a size, and how often it was taken for a product. */
export interface SizeEvidence {
  /** Passages (a title with its post text, or one comment) writing the family with a size. */
  sized: number;
  /** Sentences the analyzer named it in as a product. */
  mentions: number;
}

/** A family written as something no product is at least this often, and ... */
const MIN_WRITTEN = 2;
/** ... in at least this share of those passages and its product mentions together, is that thing. */
const MIN_SHARE = 0.1;

/**
 * Whether a family written `written` times as something no product is (a model with its size;
 * hardware before the name of a part, hardware-names.ts) is that thing, against the `mentions` in
 * which it was taken for a product.
 */
export function writtenAs(written: number, mentions: number): boolean {
  return written >= MIN_WRITTEN && written >= MIN_SHARE * (written + mentions);
}

export function isModelFamily(e: SizeEvidence): boolean {
  return writtenAs(e.sized, e.mentions);
}
