/**
 * Words as the theme grouper compares them (DESIGN §8, "Group": TF-IDF cosine). A pain is a few
 * dozen words, so what matters is that "crashes", "crashed" and "crashing" meet, and that the
 * words every complaint shares ("the", "just", "anyone") weigh nothing.
 */

const STOPWORDS = new Set(
  (
    'a about above after again against all also am an and any are aren arent as at be because been before being below ' +
    'between both but by can cant could couldnt did didnt do does doesnt doing dont down during each even ever every few ' +
    'for from further get gets getting got had hadnt has hasnt have havent having he her here hers herself him himself ' +
    'his how i id ill im ive if in into is isnt it its itself just let lets like me might more most much must my myself ' +
    'no nor not now of off on once one only or other our ours ourselves out over own really same she should shouldnt so ' +
    'some still such than that thats the their theirs them themselves then there theres these they theyre this those ' +
    'through to too under until up upon us very want was wasnt way we were werent what whats when where which while who ' +
    'whom why will with wont would wouldnt yet you youd youll your youre yours yourself yourselves anyone anybody ' +
    'someone something anything everything thing things lot lots pretty quite maybe probably actually basically ' +
    'literally seems seem seemed know think thought make made makes use used using try tried trying going go gonna ' +
    'see seen say said tell told need needs needed new also etc eg ie vs via per yes yeah ok okay hi hello thanks thank ' +
    'please guys people time times day days already always never sometimes often though although however since well ' +
    'back able got getting lol imo tbh btw edit update'
  ).split(' '),
);

/** Light suffix stripping: enough for "crashes"/"crashing"/"crashed" → "crash", never a real stemmer. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 5) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 5) return undouble(word.slice(0, -2));
  if (/(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is')) return word.slice(0, -1);
  return word;
}

/** "stopped" → "stopp" → "stop"; "running" → "runn" → "run". */
function undouble(word: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(word) && !/(?:ll|ss|zz)$/.test(word) ? word.slice(0, -1) : word;
}

/** A word: letters or digits in any script ("Über", "llama.cpp", "don't"), as the phrase builder splits too. */
export const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}.+'’-]*/gu;

/** Raw words of a text in order, lower-cased, with their stopword status (for phrase building). */
export function words(text: string): { word: string; stop: boolean }[] {
  const out: { word: string; stop: boolean }[] = [];
  for (const match of text.toLowerCase().matchAll(TOKEN)) {
    const word = match[0].replace(/[.'’-]+$/, '').replace(/['’]/g, '');
    if (word === '') continue;
    const stop = STOPWORDS.has(word) || word.length < 2 || /^\d+(?:\.\d+)?$/.test(word);
    out.push({ word, stop });
  }
  return out;
}

/** The terms of a text: content words, stemmed. */
export function terms(text: string): string[] {
  // "GPT-OSS" and "GPT OSS" are one subject: hyphenated words count as their parts.
  return words(text)
    .filter((w) => !w.stop)
    .flatMap((w) => w.word.split('-'))
    .filter((part) => part.length >= 2 && !STOPWORDS.has(part))
    .map(stem);
}

/** Term counts of a text. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
