/**
 * What a pain says the writer is trying to do, or choosing between, read from its sentence: the
 * task a how-to move is about ("I can't get 4-bit GPTQ quant to work in vLLM" → "get 4-bit GPTQ
 * quant to work in vLLM"), cut to fit a title, and the options a comparison is about ("there are a
 * lot of inference engines" → "inference engines"). moves.ts writes the moves; this module only
 * reads the words.
 */
/**
 * What the writer is trying and failing to do, when the sentence says it: "I'm struggling to get
 * decent performance from the new GLM-4.5-Air model" → "get decent performance from the new
 * GLM-4.5-Air model"; "I've been having a very difficult time getting them to call tools" →
 * "getting them to call tools". A difficulty's move is then about that task, not about the nearest
 * noun ("Write the plain guide to docs"). Only the writer's own attempt counts ("I", "we"), or
 * an attempt the sentence calls hard (`ATTEMPT`): "the models struggle to…" describes, and "X is
 * hard to work with" puts the task's object before it, so neither gives a task; nor does a task of
 * one word or one that ends on a preposition.
 */
export function difficultTask(sentence: string): string | undefined {
  const m = TRYING.exec(sentence) ?? ATTEMPT.exec(sentence);
  // The task ends where the sentence goes on to something else ("…model and could use some help").
  const task = m?.[1]?.split(/\s*(?:,|;|:|\s[-–—]\s|\bbut\b|\bbecause\b|\bso that\b|\bwhich\b|\bdue to\b|\b(?:even )?(?:when|whenever|if|unless)\b|\band (?:could|would|can|will|i|it|then|now|so|also|am|was|have|had|need|want|don['’]?t|didn['’]?t|can['’]?t)\b)\s*/i)[0]?.trim();
  const trimmed = task?.replace(TRAILING_ASIDE, '').trim();
  if (!trimmed || trimmed.split(/\s+/).length < 2 || ENDS_ON_PREPOSITION.test(trimmed) || JUDGING.test(trimmed)) return undefined;
  return titleTask(trimmed);
}

/** The rest of the sentence after a task starts: up to a sentence's end ("GLM-4.5-Air" keeps its dots). */
const REST = '((?:[^.!?()\\[\\]"“”]|\\.(?=\\S)){3,120})';
const GERUND = '(?:getting|making|running|loading|setting|finding|fitting|using|understanding|configuring|installing|building|training|fine-?tuning|deploying|connecting|keeping|stopping|choosing|integrating|hosting|serving|converting|compiling)\\b';
/** Words after "to" that start no verb: "can't get perfect JSON's to my requests". */
const NOT_A_VERB = 'my|the|a|an|your|our|their|his|her|its|this|that|me|us|them|it|be';
/** "I", "we" and what they do before the difficulty: "I'm", "I've been", "we are currently". */
const WRITER = "\\b(?:i|we)(?:['’](?:m|ve|re|d))?(?:\\s+(?:am|are|was|were|have|had|been|still|really|currently|just|also|always|kinda|kind of|honestly|definitely))*\\s+";
/** How the writer says they are stuck, each ending where the task begins. */
const STUCK = [
  "struggl(?:e|es|ed|ing)\\s+to\\s+(?=[a-z])", // "struggling to get…"
  "(?:can['’]?t|cannot|could(?:n['’]?t| not))\\s+(?:figure|work)\\s+out\\s+how\\s+to\\s+", // "can't figure out how to…"
  '(?:have|had|having)\\s+(?:no|little)\\s+(?:idea|clue)\\s+how\\s+to\\s+', // "have no idea how to…"
  "(?:not|n['’]t)\\s+sure\\s+how\\s+to\\s+", // "not sure how to…"
  `(?:have|had|having)\\s+(?:(?:a|such a|some|a little|a bit of)\\s+)?(?:(?:very|really|so|pretty|bit of a|real)\\s+)?(?:(?:hard|difficult|tough|rough)\\s+time|trouble|difficulty|difficulties)\\s+(?:with\\s+)?(?=${GERUND})`, // "had trouble getting…"
  `struggl(?:e|es|ed|ing)\\s+with\\s+(?=${GERUND})`, // "struggling with finding…"
  // "I can't get 4-bit GPTQ quant to work in vLLM", "I can't get the 32B model to put <think> in
  // the response": the task is getting that thing to do it; "I can't get it to work" says no more
  // than the quote, so a pronoun gives no task. What is got is a thing, not a state ("can't get
  // involved in…", "can't get distracted"), and it is done by a verb ("to my requests" is not).
  `(?:can['’]?t|cannot|can not|couldn['’]?t|could not|(?:am|was|were)(?:n['’]t| not) able to|never managed to)\\s+(?:(?:even|really|seem to|quite|ever)\\s+)*(?=get\\s+(?!(?:it|them|this|that|those|these|mine|one|any of them)\\b)(?![a-z]+ed\\b)[^\\s,;:]+(?:\\s+[^\\s,;:]+){0,8}?\\s+(?:to\\s+(?!(?:${NOT_A_VERB})\\b)[a-z]+|working|running|loaded|installed)\\b)`,
];
const TRYING = new RegExp(`${WRITER}(?:${STUCK.join('|')})${REST}`, 'i');
/**
 * What someone is trying to do, in a sentence that says it is hard: "…a more difficult software
 * package to run than trying to get vLLM working in Docker", "the very specific hell of trying to
 * build vllm + flash-attention from HEAD". Only a verb of setting something up or making it work,
 * and not "get it…" or "make it…", which say no more than the quote.
 */
const ATTEMPT = new RegExp(`\\btrying to (?=(?:get|set up|setup|run|install|build|compile|configure|load|fit|deploy|connect|figure out|make)\\s+(?!(?:it|them|this|that|those|these|one)\\b))${REST}`, 'i');
/** The prepositions a task may not end on, and before which a task too long for a title is cut. */
const PREPOSITIONS = ['with', 'to', 'for', 'on', 'in', 'at', 'of', 'from', 'about', 'by', 'into'];
/** A task ending on a preposition, or on the particle of "set up", "figure out", stops mid-phrase. */
const ENDS_ON_PREPOSITION = new RegExp(`\\b(?:${[...PREPOSITIONS, 'up', 'out'].join('|')})$`, 'i');
/** "Struggle to see / trust / believe": an opinion the writer holds, not a task they attempt. */
const JUDGING = /^(?:see|trust|believe|imagine|care|justify|accept|put (?:it|this|that) into words)\b/i;
/** Words that close the sentence, not the task ("…confirmation of this though."). */
const TRAILING_ASIDE = /(?:\s+(?:though|tho|anyway|anymore|lol|as well|too|either|for example|at all|for now|yet))*[\s.…]*$/i;

/**
 * "I'm overwhelmed by the sheer number of options", "so confused which one to use", "I got confused
 * as there are a lot of inference engines… what are their pros and cons": the difficulty is a
 * choice. A walkthrough of one thing does not answer it; a comparison of the options does. The
 * options are named when the sentence names their kind ("a lot of inference engines"), not when it
 * says only "options" or "models".
 */
const OPTION_NOUNS = '(?:options|choices|models|engines|tools|apps|frameworks|apis|runtimes|backends|gpus|cards)';
const CHOOSING = new RegExp(
  [
    `\\b(?:so|too) many (?<many>(?:[\\w-]+ )?${OPTION_NOUNS})\\b`,
    `\\b(?:sheer|huge|large) (?:number|amount) of (?<number>(?:[\\w-]+ )?${OPTION_NOUNS})\\b`,
    // "there are a lot of inference engines", not "confuse a lot of models" (models that fail).
    `\\b(?:there (?:are|is)|there['’](?:s|re)|with|by) (?:a lot|lots|plenty|tons) of (?<lots>(?:[\\w-]+ )?${OPTION_NOUNS})\\b`,
    /\bwhich (?:one|ones|model|models|engine|tool|gpu|card|option)s? (?:to|is|are|should|would)\b/.source,
    /\b(?:decide|choos(?:e|ing)|pick(?:ing)?) (?:between|which|either)\b/.source,
    /\bhard time with which\b/.source,
  ].join('|'),
  'i',
);
/** Words that say there are options without saying of what. */
const BARE_OPTIONS = new Set(['options', 'choices', 'models', 'tools', 'apps', 'new models', 'different models', 'different options', 'other options']);

/** What a writer stuck choosing chooses between: undefined when the sentence is no choice, '' when it does not say. */
export function choiceOf(sentence: string): string | undefined {
  const m = CHOOSING.exec(sentence);
  if (!m) return undefined;
  const named = (m.groups?.many ?? m.groups?.number ?? m.groups?.lots ?? '').trim();
  return named && !BARE_OPTIONS.has(named.toLowerCase()) ? named : '';
}

/** "How do I stop responses dissolving into word salad?" → "stop responses dissolving into word salad". */
export function taskOf(question: string): string | undefined {
  const m = /\bhow (?:do|can|should|would|could) (?:i|we|you|one) (.+?)[?.!]*$|\bhow to (.+?)[?.!]*$|\bbest way to (.+?)[?.!]*$|\bis there (?:a|any) way to (.+?)[?.!]*$/i.exec(question.trim());
  const task = (m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4])?.trim();
  if (!task || task.length < 6) return undefined;
  return titleTask(task);
}

/** How long a task may be in a move's title. */
const MAX_TASK = 80;
/** Where a new clause starts inside a task: "finding a MCP server so i can give it…". */
const NEW_CLAUSE = /\s(?:so|then|while|as|where|when|whereas|since|until|after|before|if|because)\s/i;
const PREPOSITION_GAP = new RegExp(`\\s(?:${PREPOSITIONS.join('|')})\\s`, 'gi');

/**
 * A task short enough for a title: as written, or, when longer, cut where a new clause starts
 * ("finding a MCP server so i can give it a YouTube video then it gives me its transcript" →
 * "finding a MCP server"), else before the last preposition that fits ("find any prompt processing
 * performance for the MI50 on ~8b and ~14b class models" → "…for the MI50"). Cut at a word that
 * happened to fit, titles read as typos: "…then it gives me its", "…for automated code updates
 * to". Undefined when no cut leaves a task.
 */
function titleTask(task: string): string | undefined {
  const text = task.replace(/\s+/g, ' ');
  if (text.length <= MAX_TASK) return text;
  const clause = NEW_CLAUSE.exec(text);
  const at = clause && clause.index <= MAX_TASK ? clause.index : [...text.matchAll(PREPOSITION_GAP)].filter((m) => m.index <= MAX_TASK).pop()?.index;
  const cut = at === undefined ? undefined : text.slice(0, at).replace(/[\s,;:]+$/, '');
  return cut && cut.split(' ').length >= 2 && !ENDS_ON_PREPOSITION.test(cut) ? cut : undefined;
}
