/**
 * Theme grouping (DESIGN §8.3): themes need two posts, a lone pain waits in the pool, the pool is
 * re-clustered, ids are stable across runs, titles are 2–7 word problem phrases.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { painContext, ThemeGrouper, titleNames, type PainDoc } from './themes.ts';

let n = 0;
function pain(postId: string, quote: string, title = 'Help'): PainDoc {
  n += 1;
  return { signalId: `sig_${n}`, postId, quote, context: title, at: `2025-08-0${(n % 9) + 1}T00:00:00.000Z`, community: 'LocalLLaMA' };
}
const grouper = () => new ThemeGrouper((doc) => `sov_${doc.signalId}`);

/**
 * A grouper that has seen other pains too: a title's chunk is the one its theme's posts share and
 * the rest rarely name, and in a corpus of four pains every chunk is rare.
 */
function grouperWithBackground(): ThemeGrouper {
  const g = grouper();
  const drives = Array.from({ length: 150 }, (_, i) => pain(`bg${i}`, `The backup drive number ${i} fills up before the nightly export finishes.`));
  g.seed('sov_background', drives);
  return g;
}

/** The title of one theme made of `docs`, in a grouper that has seen other pains too. */
function titleOfTheme(docs: PainDoc[]): string {
  const g = grouperWithBackground();
  g.seed('sov_theme', docs);
  return g.title(g.get('sov_theme')!);
}

/** Two themes whose pains all name LM Studio: only one pain of each names what sets it apart. */
const toolsDocs = () => [pain('p1', 'LM Studio crashes when the tool call returns JSON.'), pain('p2', 'LM Studio keeps crashing on every request I make.')];
const templatesDocs = () => [pain('p3', 'LM Studio crashes as soon as the Jinja template loads.'), pain('p4', 'LM Studio crashes on start for me.')];

const VRAM_A = 'My GPU runs out of VRAM when I load the 70B model with a long context.';
const VRAM_B = 'Loading the 70B model with a long context runs out of VRAM on my GPU every time.';
const VRAM_C = 'Long context on the 70B model keeps running out of VRAM on the GPU.';
const EXAM = 'My professor graded the exam unfairly and will not answer my emails.';

describe('theme grouper', () => {
  test('two themes about one thing get different titles: the second takes its next most characteristic chunk', () => {
    const g = grouperWithBackground();
    g.seed('sov_tools', toolsDocs());
    g.seed('sov_templates', templatesDocs());
    const tools = g.title(g.get('sov_tools')!);
    const templates = g.title(g.get('sov_templates')!);
    assert.match(tools, /LM Studio/);
    assert.notEqual(templates.toLowerCase(), tools.toLowerCase());
    assert.match(templates, /Jinja template/i);
    // Asking again changes nothing: a theme keeps the title it holds.
    assert.equal(g.title(g.get('sov_tools')!), tools);
    assert.equal(g.title(g.get('sov_templates')!), templates);
  });

  test('a stored title stays with its theme: a theme of a later run that changes first takes its next chunk', () => {
    // Run 1: both themes titled in one grouper, in the order they changed.
    const docs = () => ({ tools: toolsDocs(), templates: templatesDocs() });
    const first = grouperWithBackground();
    const one = docs();
    first.seed('sov_tools', one.tools);
    first.seed('sov_templates', one.templates);
    const toolsTitle = first.title(first.get('sov_tools')!);
    const templatesTitle = first.title(first.get('sov_templates')!);
    assert.notEqual(toolsTitle, templatesTitle);
    // Run 2: seeded from the store with those titles; the second theme is the one that changes first.
    const second = grouperWithBackground();
    const two = docs();
    second.seed('sov_tools', two.tools, toolsTitle);
    second.seed('sov_templates', two.templates, templatesTitle);
    assert.equal(second.title(second.get('sov_templates')!), templatesTitle);
    assert.equal(second.title(second.get('sov_tools')!), toolsTitle);
    // Without the stored titles, the theme titled first takes the chunk both share.
    const unaware = grouperWithBackground();
    const three = docs();
    unaware.seed('sov_tools', three.tools);
    unaware.seed('sov_templates', three.templates);
    const taken = unaware.title(unaware.get('sov_templates')!);
    assert.notEqual(taken, templatesTitle, 'the case this test guards: a title taken from the theme that held it');
    assert.match(taken, /^LM Studio/);
  });

  test('a theme with no chunk to title it keeps "Unclassified complaints" across runs', () => {
    const vague = () => [pain('p1', 'It is so bad.'), pain('p2', 'This is so bad.')];
    const first = grouper();
    first.seed('sov_vague', vague());
    const stored = first.title(first.get('sov_vague')!);
    assert.equal(stored, 'Unclassified complaints');
    // Seeded with that title, it has no chunk scores to compare: it keeps the title, and the run goes on.
    const second = grouper();
    second.seed('sov_vague', vague(), stored);
    assert.equal(second.title(second.get('sov_vague')!), stored);
  });

  test('a seeded theme ranks its quotes by closeness to the theme, as the run that grew it did', () => {
    const g = grouper();
    const odd = pain('p9', '"Sorry, we can\'t find the page you are looking for." says the docs site.');
    g.seed('sov_vram', [pain('p1', VRAM_A), odd, pain('p2', VRAM_B), pain('p3', VRAM_C)]);
    const quotes = g.get('sov_vram')!.quotes.map((q) => q.quote);
    assert.equal(quotes.length, 4);
    assert.equal(quotes[3], odd.quote, 'the quote least like the theme last, not first by spelling');
  });

  test('a theme keeps its stored title while that title is still one of its candidates', () => {
    const templates = templatesDocs;
    // Run 1: another theme held "LM Studio crashes", so this one was titled by its next chunk.
    const first = grouperWithBackground();
    first.seed('sov_tools', toolsDocs());
    first.seed('sov_templates', templates());
    first.title(first.get('sov_tools')!);
    const stored = first.title(first.get('sov_templates')!);
    assert.match(stored, /Jinja template/i);
    // Run 2: that other theme is gone; the stored title is still a candidate, so it stays.
    const second = grouperWithBackground();
    second.seed('sov_templates', templates(), stored);
    assert.equal(second.title(second.get('sov_templates')!), stored);
    // A theme with no title yet takes its best chunk.
    const fresh = grouperWithBackground();
    fresh.seed('sov_templates', templates());
    assert.match(fresh.title(fresh.get('sov_templates')!), /^LM Studio/);
  });

  test('one pain alone waits in the pool; a pain of another post on the same problem founds a theme with it', () => {
    const g = grouper();
    const first = pain('p1', VRAM_A, 'Out of memory with 70B');
    assert.deepEqual(g.add(first), { themeId: null, founded: false });
    const second = g.add(pain('p2', VRAM_B, 'VRAM problems with 70B models'));
    assert.equal(second.founded, true);
    assert.equal(second.themeId, `sov_${first.signalId}`, 'the older pain founds the theme');
    assert.deepEqual([...g.takeReassigned()], [[first.signalId, second.themeId]]);
    const third = g.add(pain('p3', VRAM_C, '70B long context'));
    assert.deepEqual(third, { themeId: second.themeId, founded: false });
    assert.equal(g.get(second.themeId!)!.posts.size, 3);
  });

  test('a pain joins a theme only when it is also close to the pain that founded it (no drift)', () => {
    const run = (anchorMin: number) => {
      const g = new ThemeGrouper((doc) => `sov_${doc.signalId}`, { anchorMin });
      g.add(pain('p1', VRAM_A, 'Out of memory with 70B'));
      const theme = g.add(pain('p2', VRAM_B, 'VRAM problems with 70B models')).themeId;
      return { theme, third: g.add(pain('p3', VRAM_C, '70B long context')).themeId };
    };
    const near = run(0.1);
    assert.equal(near.third, near.theme, 'close to the founder: joins');
    // No pain can be this close to the founder: the centroid alone no longer admits it.
    const far = run(1.01);
    assert.ok(far.theme !== null);
    assert.notEqual(far.third, far.theme);
  });

  test('two pooled pains found a theme only when they name one thing: in particular, or named by few pains', () => {
    const g = grouper();
    // "model" and "answer" are what most pains of this community name.
    g.seed('sov_background', Array.from({ length: 150 }, (_, i) => pain(`bg${i}`, `The model gave answer number ${i} from the backup drive.`)));
    g.add(pain('p1', 'The model is slow and the answers are wrong every time.'));
    assert.equal(g.add(pain('p2', 'The model is slow and its answers are wrong every time.')).themeId, null, 'alike, but naming only what most pains name');
    g.add(pain('p3', 'Kimi K2 keeps looping until I restart it.'));
    const named = g.add(pain('p4', 'Kimi K2 keeps looping until I restart it again.'));
    assert.equal(named.founded, true, 'both name Kimi K2');
    assert.match(g.title(g.get(named.themeId!)!), /Kimi K2/);
    // An ordinary word few pains name is a thing too: "fan" is no rarer in English than "model".
    g.add(pain('p5', 'The fan is loud and rattles the desk.'));
    const fan = g.add(pain('p6', 'The fan is loud and rattles my desk.'));
    assert.equal(fan.founded, true, 'both name the fan');
  });

  test('two pains of one post do not make a theme; an unrelated pain does not join', () => {
    const g = grouper();
    g.add(pain('p1', VRAM_A));
    assert.equal(g.add(pain('p1', VRAM_B)).themeId, null);
    assert.equal(g.add(pain('p2', EXAM)).themeId, null);
    assert.equal(g.changedThemes().length, 0);
  });

  test('the pool of earlier runs is re-clustered: pooled pains join themes that grew since', () => {
    const g = grouper();
    const a = pain('p1', VRAM_A);
    const b = pain('p2', VRAM_B);
    g.seed('sov_old', [a, b]);
    const waiting = pain('p3', VRAM_C);
    // Seeded pool pains are placed when the run re-clusters, not when they are loaded.
    g.seedPool(waiting);
    assert.equal(g.recluster(), 0);
    assert.deepEqual([...g.takeReassigned()], [[waiting.signalId, 'sov_old']]);
  });

  test('ids are stable: the same pains give the same themes in a later run', () => {
    const docs = [pain('p1', VRAM_A), pain('p2', VRAM_B), pain('p3', VRAM_C), pain('p4', EXAM)];
    const run = () => {
      const g = grouper();
      return docs.map((d) => g.add(d).themeId);
    };
    assert.deepEqual(run(), run());
  });

  test('a theme merged into another (the llm analyzer) is measured as one: its pains fit the merged theme', () => {
    const g = grouper();
    g.seed('sov_crash', [pain('p1', 'LM Studio crashes when the tool call returns JSON.'), pain('p2', 'LM Studio keeps crashing on every tool call I make.')]);
    g.seed('sov_template', [pain('p3', 'The Jinja template fails to render the system prompt.'), pain('p4', 'Jinja template rendering breaks the system prompt again.')]);
    const quote = 'The Jinja template fails to render the system prompt.';
    const before = g.fit(quote, 'sov_crash');
    g.mergeInto('sov_template', 'sov_crash');
    assert.ok(g.fit(quote, 'sov_crash') > before + 0.1, `${before} → ${g.fit(quote, 'sov_crash')}`);
    assert.equal(g.get('sov_crash')!.posts.size, 4);
    // Unknown or identical ids change nothing.
    g.mergeInto('sov_missing', 'sov_crash');
    g.mergeInto('sov_crash', 'sov_crash');
    assert.equal(g.get('sov_crash')!.docs, 4);
  });

  test('an offering fits the quote it answers more than one that only shares a word with it (quoteFit)', () => {
    const g = grouperWithBackground();
    const offering = 'Tool-call test packs: ready-made suites that check tool calling, JSON output and agent steps across models.';
    const answered = g.quoteFit(offering, 'The model keeps failing at tool calling and returns broken JSON.');
    const aside = g.quoteFit(offering, "I'm no good in AI tools, I struggle with each new tool.");
    assert.ok(answered > aside + 0.1, `${answered} vs ${aside}`);
    assert.ok(g.quoteFit(offering, 'Nothing in common here at all.') < 0.1);
  });

  test('a title is a 2–7 word problem phrase, never a sentiment word; a summary says how often and where', () => {
    const g = grouper();
    g.add(pain('p1', VRAM_A));
    const { themeId } = g.add(pain('p2', VRAM_B));
    const theme = g.get(themeId!)!;
    const title = g.title(theme);
    const words = title.split(' ');
    assert.ok(words.length >= 2 && words.length <= 7, title);
    assert.doesNotMatch(title, /^(?:hate|frustrat|annoy|terrible)/i);
    assert.match(title, /vram|context|gpu|memory|model/i);
    const summary = g.summary(theme);
    assert.match(summary, /^2 posts in r\/LocalLLaMA since 2025-08-0\d describe this, for example “/);
    // The quote ends its sentence (VRAM_A/VRAM_B end with a full stop): no “….”.
    assert.match(summary, /\.”$/);
    // A theme seeded with one post's pains is said in the singular.
    const single = grouper();
    single.seed('sov_one', [pain('p1', VRAM_A)]);
    assert.match(single.summary(single.get('sov_one')!), /^1 post in r\/LocalLLaMA since 2025-08-0\d describes this/);
  });

  test('a title names the thing that fails, not the kind of failure ("Problems with error" said nothing)', () => {
    const g = grouper();
    const title = 'Tokenizer error';
    g.add(pain('e1', 'I get an error in the tokenizer.', title));
    g.add(pain('e2', 'The tokenizer gives an error.', title));
    const { themeId } = g.add(pain('e3', 'Again an error in the tokenizer.', title));
    assert.ok(themeId, 'the pains share a theme');
    // "error" and "tokenizer" are equally frequent here: the thing is the title, the error its kind.
    assert.equal(g.title(g.get(themeId)!), 'Tokenizer failures');
  });

  test('a theme is titled by what its posts name, thread titles included, counted once per post', () => {
    // Four threads about one model, each pain about something else: no quote names the model.
    const kimi = [
      pain('k1', 'It takes forever to answer anything at all.', 'Kimi K2 is out'),
      pain('k2', 'The server crashed twice during the whole test run.', 'Running Kimi K2 on two GPUs'),
      pain('k3', 'It refuses simple requests for no reason I can see.', 'Kimi K2 vs DeepSeek for agents'),
      pain('k4', 'The API bill was way too expensive last month.', 'Kimi K2 Instruct quants are up'),
      // One thread, many pains: its own words count once.
      pain('k4', 'The quant server logs fill with warnings about the quant server.', 'Kimi K2 Instruct quants are up'),
      pain('k4', 'The quant server drops requests under load.', 'Kimi K2 Instruct quants are up'),
    ];
    // Speed, a crash, a cost: no kind of problem is voiced by a third of the pains, so the title claims none.
    assert.equal(titleOfTheme(kimi), 'Problems with Kimi K2');
  });

  test('a kind of problem voiced by a third of the pains or more names the title', () => {
    const title = titleOfTheme([
      pain('k1', 'The server crashed twice during the whole test run.', 'Kimi K2 is out'),
      pain('k2', 'It keeps crashing as soon as the context fills up.', 'Running Kimi K2 on two GPUs'),
      pain('k3', 'It refuses simple requests for no reason I can see.', 'Kimi K2 vs DeepSeek for agents'),
      pain('k4', 'The API bill was way too expensive last month.', 'Kimi K2 Instruct quants are up'),
    ]);
    assert.equal(title, 'Kimi K2 crashes');
  });

  test('a name keeps its capitals inside a sentence ("on Hugging Face"); sizes and versions alone name nothing', () => {
    const title = titleOfTheme([
      pain('h1', 'The download stops halfway every time.', 'Why is the 8B model worse than the one on Hugging Face?'),
      pain('h2', 'I get a timeout before the weights arrive.', 'Mirrors of Hugging Face for slow connections'),
      pain('h3', 'The token page keeps rejecting my key.', 'Gated models on Hugging Face need a token'),
    ]);
    assert.match(title, /Hugging Face/, title);
    assert.doesNotMatch(title, /\b8B\b/);
  });

  test('a title never names a feeling, even the one its posts share ("Academic bullshit failures")', () => {
    const title = titleOfTheme([
      pain('a1', 'The benchmark in the paper fails to reproduce on my machine.', 'Academic bullshit in LLM papers'),
      pain('a2', 'Their eval script fails on every peer review copy.', 'More academic bullshit'),
      pain('a3', 'The peer review process fails to catch broken evals.', 'Academic bullshit again'),
    ]);
    assert.doesNotMatch(title, /bullshit/i, title);
  });

  test('a title never opens with a word that only points ("Slow particular model")', () => {
    const title = titleOfTheme([
      pain('q1', 'On this particular model it is painfully slow.', 'Speculative decoding benchmarks'),
      pain('q2', 'This particular model is so slow on my Mac.', 'Mac inference numbers'),
      pain('q3', 'The particular model I use runs painfully slow with long prompts.', 'Long prompts on Apple silicon'),
    ]);
    assert.doesNotMatch(title, /particular/i, title);
  });

  test('a title names a thing: it ends on a noun, never inside a phrase ("Problems with absolute fastest")', () => {
    const title = titleOfTheme([
      pain('f1', 'It is still painfully slow on my card.', 'What is the absolute fastest way to run Kimi?'),
      pain('f2', 'Nothing I tried got it under a minute per answer.', 'The absolute fastest setup for Kimi?'),
      pain('f3', 'Every config I tried was slower than the docs claim.', 'Absolute fastest inference engine for Kimi'),
    ]);
    assert.doesNotMatch(title, /fastest$/i, title);
    // A compound's "-ing", which the tagger reads as a verb, ends a name ("tool calling").
    const calling = titleOfTheme([
      pain('c1', 'Tool calling breaks after two turns.', 'Tool calling in llama.cpp'),
      pain('c2', 'Tool calling returns garbage JSON.', 'Is tool calling fixed yet?'),
      pain('c3', 'Tool calling loops forever on Qwen.', 'Tool calling with Qwen'),
    ]);
    assert.match(calling, /tool calling/i, calling);
  });

  test('a title names what two of its posts name before what one names, however rare', () => {
    // "vision models" is named elsewhere too (9 of 300 other pains); "blatant attempt" nowhere
    // else, so by rarity alone one post's words titled the theme.
    const g = grouper();
    const other = (i: number) => (i < 9 ? `My vision models break on picture number ${i}.` : `The backup drive number ${i} fills up before the nightly export finishes.`);
    g.seed('sov_background', Array.from({ length: 300 }, (_, i) => pain(`bg${i}`, other(i))));
    g.seed('sov_theme', [
      pain('s1', 'The blatant attempt at gaming the charts annoys me.', 'Vision models are benchmaxxed'),
      pain('s2', 'Every number there is inflated.', 'Are vision models benchmaxxed?'),
      pain('s3', 'Nobody can reproduce them.', 'New results'),
    ]);
    const title = g.title(g.get('sov_theme')!);
    assert.match(title, /vision models/i, title);
  });

  test('an ordinary word two posts happen to say does not come first: it names nothing in particular', () => {
    // "words" is said elsewhere too (12 of 300 other pains); "Ollama" by one post of the theme.
    const g = grouper();
    const other = (i: number) => (i < 12 ? `The words on slide ${i} overflow the box.` : `The backup drive number ${i} fills up before the nightly export finishes.`);
    g.seed('sov_background', Array.from({ length: 300 }, (_, i) => pain(`bg${i}`, other(i))));
    g.seed('sov_theme', [
      pain('o1', 'Ollama keeps mangling the words of my prompt.', 'Help'),
      pain('o2', 'The words come back garbled.', 'Help'),
    ]);
    const title = g.title(g.get('sov_theme')!);
    assert.match(title, /Ollama/, title);
  });

  test('a run never named apart from a longer one is a piece of it, not a name ("east Asian" of "east Asian languages")', () => {
    const title = titleOfTheme([
      pain('e1', 'Tokenizing east Asian languages is painfully slow.', 'Help'),
      pain('e2', 'Every model I tried is slow on east Asian languages.', 'Help'),
    ]);
    assert.match(title, /east Asian languages/i, title);
  });

  test('a quantity is no name: a title never opens on a number\'s unit ("GB VRAM" of "96 GB VRAM")', () => {
    const title = titleOfTheme([
      pain('g1', 'Even with 96 GB VRAM the model spills to system memory.', 'Help'),
      pain('g2', 'My 48 GB VRAM is not enough for the context I need.', 'Help'),
    ]);
    assert.doesNotMatch(title, /\bGB\b/i, title);
  });

  test('a title never holds forum shorthand ("Slow confused tbh")', () => {
    const title = titleOfTheme([
      pain('h1', 'Got confused tbh, and it is slow.', 'Confused tbh'),
      pain('h2', 'Slow and confused tbh.', 'Confused tbh'),
    ]);
    assert.doesNotMatch(title, /\btbh\b/i, title);
  });

  test('context: the thread title, not the post text (it made unrelated posts look alike)', () => {
    const thread = { title: 'Out of memory', selftext: 'My GPU runs out of VRAM. Any ideas?' };
    assert.equal(painContext(thread), 'Out of memory');
  });
});

test('what a title names is the title without the words that say the kind of problem', () => {
  assert.equal(titleNames('Problems with Kimi K2'), 'Kimi K2');
  assert.equal(titleNames('Chat template failures'), 'Chat template');
  assert.equal(titleNames('Slow prompt processing'), 'prompt processing');
  assert.equal(titleNames('High cost of AMD GPU'), 'AMD GPU');
  assert.equal(titleNames('Ollama running out of memory'), 'Ollama');
  // A title that is its chunk ("memory leaks" names its kind itself), or only a frame, names all of itself.
  assert.equal(titleNames('Endless hallucination loop'), 'Endless hallucination loop');
  assert.equal(titleNames('Failures'), 'Failures');
});
