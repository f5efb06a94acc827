/**
 * Words that say how the writer feels, not what about: never what a theme's title names, even
 * when its posts share it ("Academic bullshit failures"; DESIGN §8.3: "never a sentiment word").
 */
export const SENTIMENT_WORDS: ReadonlySet<string> = new Set(
  'hate love fun shit crap bullshit bs hell god damn lol garbage trash mess pain nightmare headache joke disaster'.split(' '),
);

/**
 * Words too vague, too emotional or too general to say what a complaint is about: a move's subject
 * (moves.ts) and a theme's title (digest/themes.ts) are never made of these alone. One list for
 * both, so a word judged empty for one is empty for the other.
 */
export const VAGUE_WORDS: ReadonlySet<string> = new Set([
  ...SENTIMENT_WORDS,
  ...(
    'thing things stuff way time times lot lots bit tad bunch ton tons couple handful one ones something anything everything nothing people person guy guys someone anyone ' +
    'problem problems issue issues question questions help idea ideas point reason clue kind sort day days week weeks month year years ' +
    'edit update post thread comment reply sub subreddit op fact case part end work result results ' +
    'good bad great best better worse worst terrible awful horrible nice cool same other new old own first last next few many much more most ' +
    'experience answer option options version rest use worth lack waste trouble money text ' +
    'fastest slowest cheapest easiest hardest biggest smallest ' +
    'i i\'m i’m im me my you your we our it its they them this that these those'
  ).split(' '),
]);

/** A token whose word or lemma is vague ("Problems" as "problem"). */
export function isVague(t: { lower: string; lemma: string }): boolean {
  return VAGUE_WORDS.has(t.lower) || VAGUE_WORDS.has(t.lemma);
}
