/**
 * What a pain says about the writer's hardware being too small for what they want to run, read
 * from its sentence: whether it says so ("I can't run the 72B model on my rig") and how much memory
 * it names ("a 4-bit quant won't fit into the 16GB I have" → "16 GB"). moves.ts writes the move;
 * this module only reads the words.
 */
import type { Token } from './nlp.ts';

/**
 * A negated "run" or "fit" is a failure to pain.ts (the pain model was trained on that reading, so
 * it stays), and so is "not enough to run / work with". Said of hardware, it is the writer's hardware
 * that is too small, not something that broke: "I can't run the 72B model on
 * my rig", "64GB is not enough to run medium models", "I can't run 24b 27b models on my 8gb 3060ti
 * card". Not "it can't even run cline" (a model failing a tool) or "doesn't fit your requirements"
 * (no hardware named); not an out-of-memory error, which a fix answers (rated good as one); not cards
 * that do not fit in a case or will not run together (FITTING_PARTS).
 */
export function outgrownHardware(tokens: readonly Token[], cue: number, sentence: string): boolean {
  const verb = tokens[cue]?.lemma ?? '';
  const limited = verb === 'run' || verb === 'fit' || ((verb === 'work' || verb === 'load') && NOT_ENOUGH.test(sentence));
  return limited && HARDWARE.test(sentence) && !MEMORY_ERROR.test(sentence) && !FITTING_PARTS.test(sentence);
}

/** "not enough", "just not enough", "barely enough", "too big / large". */
const NOT_ENOUGH = /\b(?:not|barely|hardly)\s+(?:\w+\s+)?enough\b|\btoo\s+(?:big|large|huge)\b/i;

/**
 * Words for the hardware a model runs on: a memory amount ("16GB", "4GB of VRAM"), memory, cards,
 * machines, running locally or offloading; a consumer card's number ("3090", "5060 Ti"). A model's
 * size alone is no evidence: "Llama-3_3-Nemotron-Super-49B-v1-mlx-4bit cannot be run in lm studio"
 * and "can't run GLM 4.5 Air yet because I'm using llama.cpp" are software that fails, and in a
 * first blind draw they were given this move (docs/quality.md, "Hardware too small").
 */
const HARDWARE = new RegExp(
  [
    /\b\d+(?:\.\d+)?\s?(?:gb|tb)\b/.source,
    /\b(?:v?ram|memory|gpus?|cards?|rigs?|laptops?|machines?|hardware|setup|pc|desktop|workstation|server|macbook|locally|offload(?:ing|ed)?)\b/.source,
    /(?:\b|\d[xX])[1-5]0[5-9]0(?:\s?ti)?s?\b/.source,
  ].join('|'),
  'i',
);

/**
 * An error, out of memory or other, is a failure a fix answers ("every so often it gives me a Cuda
 * out of memory error", "it loads and then throws an error on my 16GB card").
 */
const MEMORY_ERROR = /\bout of (?:v?ram|memory)\b|\boom\b|\berrors?\b/i;

/**
 * Cards or GPUs that do not fit in a case or on a board, or will not run together: the parts are
 * what does not fit, not what is too small to run a model ("can't fit both cards vertically",
 * "unable to run RDNA2 and RDNA3 cards together", "the motherboard just wouldn't fit that many").
 * "Can't fit in a single GPU" and "doesn't run on 16gb GPU" are sizes.
 */
const FITTING_PARTS = new RegExp(
  [
    /\b(?:fit|run)\s+(?:(?!(?:on|in|into|onto|with|to)\b)[\w-]+\s+){0,3}(?:cards?|gpus?)\b/.source,
    /\b(?:motherboard|mobo|board|case|chassis|tower|slots?)\s+(?:[\w'’]+\s+){0,3}fit\b/.source,
  ].join('|'),
  'i',
);

/**
 * The memory the sentence names, as a title says it: "16GB" → "16 GB", "8gb vram" → "8 GB of
 * VRAM", "4GB of VRAM" → "4 GB of VRAM", "512GB unified memory" → "512 GB of unified memory".
 * Not a multiple ("2x16gb ram" is 32 GB, which the sentence does not say).
 */
export function memoryAmount(sentence: string): string | undefined {
  const m = AMOUNT.exec(sentence);
  if (!m) return undefined;
  const kind = m[3] ? ` of ${/^unified/i.test(m[3]) ? 'unified memory' : /^memory$/i.test(m[3]) ? 'memory' : m[3].toUpperCase()}` : '';
  return `${m[1]} ${m[2]!.toUpperCase()}${kind}`;
}

const AMOUNT = /(?<![\dxX.])(\d+(?:\.\d+)?)\s?(gb|tb)\b(?:\s+(?:of\s+)?(vram|ram|unified memory|memory)\b)?/i;
