/**
 * Hardware told apart from products by how a community writes it (DESIGN §8.2 counts software
 * products; the labels' GUIDE leaves hardware out).
 *
 * "Switched to Epyc" and "running it on Blackwell" read like "switched to Ollama" to the sentence
 * rules, and r/LocalLLaMA talks about hardware as much as about software: the export's
 * competitors.list had NVLink, Epyc, Threadripper, Oculink, NVMe, Blackwell and Thunderbolt among
 * its top 120 entries, all labelled no product. What gives hardware away is the noun people put
 * after it: "an Epyc CPU", "Blackwell GPUs", "Huawei chips", "NVMe drives"; nobody writes "an
 * Ollama CPU". Like a model's size (model-sizes.ts), a run counts, per name family, the passages
 * that write it so, and a family written so often enough against how often it was taken for a
 * product is hardware (digest/name-sizes.ts keeps the counts across runs).
 *
 * The nouns name only parts and kinds of machines, in any community. Left out: what software has
 * too ("Lemonade server", "Cursor servers", "CUDA build", "LoRA adapters", "MCP bridge", a game's
 * "Switch port") and what other communities use for software ("Anki cards", "Trello boards"):
 * "an Oculink card" and "NVLink bridges" would have told two more r/LocalLLaMA names apart, at the
 * price of Anki or Trello wherever people study or plan (docs/quality.md, "Hardware by the part
 * written after it"). Written in lower case, or as the capital acronym: "Google Drive" is a
 * product's name, not a drive.
 */
import { writtenAs } from './model-sizes.ts';
import { familyKey } from './products.ts';

const HARDWARE_NOUN = String.raw`(?:[CGAN]PUs?|SSDs?|PSUs?|chips?|cables?|enclosures?|drives?|motherboards?|mobos?|laptops?|phones?|sockets?|slots?|lanes|cores?|rigs?|workstations?|processors?|desktops?|risers?)`;
/** A word a name can be made of: capitalised ("Epyc"), with an inner capital ("NVLink", "iPhone") or a digit ("M4"). */
const NAME_WORD = String.raw`(?:[A-Z][\w.+]*|[a-z]+[A-Z][\w.+]*|[A-Za-z]+\d[\w.+]*)`;
/** Up to three name words, then a hardware noun: "Epyc CPU", "A Blackwell GPU", "Threadripper Pro workstation". */
const BEFORE_NOUN = new RegExp(String.raw`(?<![\w.+])(${NAME_WORD}(?:[\s\-_]+${NAME_WORD}){0,2})[\s\-_]+${HARDWARE_NOUN}(?![\w])`, 'g');
/** The cheap test first. */
const HAS_NOUN = new RegExp(String.raw`[\s\-_]${HARDWARE_NOUN}(?![\w])`);

/**
 * Families a text writes right before a hardware noun, each once: every name ending there, as
 * model-sizes.ts reads names before a size ("Threadripper Pro workstation" gives "Pro" and
 * "Threadripper Pro"; a sentence's capitalised first word may join, "A Blackwell GPU" gives
 * "Blackwell" and "A Blackwell", which names nothing the analyzer takes for a product).
 */
export function hardwareFamilies(text: string): string[] {
  if (!HAS_NOUN.test(text)) return [];
  const out = new Set<string>();
  for (const m of text.matchAll(BEFORE_NOUN)) {
    const words = m[1]!.split(/[\s\-_]+/);
    for (let i = words.length - 1; i >= 0; i--) out.add(familyKey(words.slice(i).join(' ')));
  }
  return [...out];
}

/** Hardware: written before a part's name as often as a model family must be written with its size (model-sizes.ts `writtenAs`). */
export function isHardwareFamily(e: { hardware: number; mentions: number }): boolean {
  return writtenAs(e.hardware, e.mentions);
}
