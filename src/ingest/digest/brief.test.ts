/**
 * buildBrief (brief.ts): what a brief item says about its theme and which quote leads it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WindowSignal, WindowTheme } from '../../store/digest.ts';
import { answersItsAspect, buildBrief, coherence, COHERENT_FIT, OFFER_FIT, OFFER_QUOTE_FIT, type RankedTheme } from './brief.ts';
import { exampleClause } from './themes.ts';

const moves = JSON.stringify({ content: { title: 'Write the fix', body: 'Reply with the fix.' } });
let n = 0;
function signal(quote: string, score: number): WindowSignal {
  n += 1;
  return { id: `sig_${n}`, kind: 'pain', quote, author: `user${n}`, competitor: null, moves, postTitle: `Thread ${n}`, postUrl: `https://example.com/t/${n}`, community: 'LocalLLaMA', score };
}
function theme(title: string, signals: WindowSignal[], type = 'pain'): RankedTheme {
  const row: WindowTheme = { themeId: `sov_${title.replace(/\W+/g, '_')}`, type, title, summary: `${signals.length === 1 ? '1 post' : `${signals.length} posts`} in r/LocalLLaMA since 2025-08-01 ${signals.length === 1 ? 'describes' : 'describe'} this${exampleClause(signals[0]!.quote)}`, posts: signals.length, topScore: signals[0]!.score };
  return { theme: row, signals };
}
/** Every quote as close to its theme as a coherent theme's (COHERENT_FIT): the lead tests are about the lead. */
const CLOSE = 0.3;
const brief = (pains: RankedTheme[]) => buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains, rivals: [], fit: () => CLOSE, quoteFit: () => 0 });

test('a pain item names its theme before saying how often and where; its example quote is not the one it leads with', () => {
  const slow = signal('Prompt processing is painfully slow on my Mac.', 10);
  const other = signal('My prompts take ages before the first token.', 5);
  const [content] = brief([theme('Slow prompt processing', [other, slow])]);
  const item = content!.items[0]!;
  assert.equal(item.surfaced.summary, 'Slow prompt processing: 2 posts in r/LocalLLaMA since 2025-08-01 describe this, for example “My prompts take ages before the first token.”');
  assert.equal(item.surfaced.quote?.text, slow.quote);
  // The same quote as example and lead: said once.
  const [single] = brief([theme('Slow prompt processing', [slow])]);
  assert.equal(single!.items[0]!.surfaced.summary, 'Slow prompt processing: 1 post in r/LocalLLaMA since 2025-08-01 describes this.');
  assert.equal(single!.items[0]!.surfaced.quote?.text, slow.quote);
});

test('the lead quote is the one saying most of the title, not the best-received passing remark', () => {
  const passing = signal("Can't wait to run this!", 900);
  const partly = signal('My prompts take ages before the first token.', 300);
  const onTopic = signal('Prompt processing is so slow that a 20k context takes four minutes.', 5);
  const [content] = brief([theme('Slow prompt processing', [passing, partly, onTopic])]);
  const item = content!.items[0]!;
  assert.equal(item.surfaced.quote?.text, onTopic.quote);
  // The threads stay in their best-received order.
  assert.deepEqual(item.sources.map((s) => s.url), [passing, partly, onTopic].map((s) => s.postUrl));
});

test('among quotes saying as much of the title, the one closest to the theme leads; the best-received when they tie', () => {
  // Their threads are about the outages: namesItsTitle holds for each (tested on its own below).
  const onTopic = (quote: string, score: number) => ({ ...signal(quote, score), postTitle: 'Nightly outages on my inference server' });
  const first = onTopic('It keeps stalling after a few minutes.', 50);
  const second = onTopic('The server crashes every night and takes the GPU down with it.', 40);
  const third = onTopic('Mine dies after an hour too.', 30);
  const closeness = new Map([[second.quote, 0.4], [first.quote, 0.1]]);
  const built = (fit: (text: string) => number) =>
    buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [theme('Nightly outages', [first, second, third])], rivals: [], fit, quoteFit: () => 0 })[0]!.items[0]!;
  const item = built((text) => closeness.get(text) ?? 0);
  assert.equal(item.surfaced.quote?.text, second.quote);
  assert.equal(item.move.title, 'Write the fix', 'the move is the lead\'s own');
  assert.equal(built(() => CLOSE).surfaced.quote?.text, first.quote);
  // Saying the title's words still comes first.
  const named = signal('Nightly outages again, third time this week.', 1);
  const [content] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [theme('Nightly outages', [first, second, named])], rivals: [], fit: (text) => closeness.get(text) ?? 0, quoteFit: () => 0 });
  assert.equal(content!.items[0]!.surfaced.quote?.text, named.quote);
});

test('a theme is shown when its lead, or the thread the lead comes from, names what the title names; among quotes saying as much of the title, one from such a thread leads', () => {
  const stray = signal('My fans are so loud I cannot sleep.', 90);
  const slow = theme('Slow prompt processing', [stray]);
  const template = theme('Chat template failures', [signal('The jinja template breaks tool calls in every run.', 20)]);
  const [content] = brief([slow, template]);
  // "prompt processing" is in neither the quote nor its thread ("Thread N"): only the second theme is shown.
  assert.deepEqual(content!.items.map((i) => i.surfaced.quote?.text), [template.signals[0]!.quote]);
  // The thread's title is enough.
  const [again] = brief([theme('Slow prompt processing', [{ ...stray, postTitle: 'Prompt processing takes minutes on a Mac' }])]);
  assert.equal(again!.items[0]!.surfaced.quote?.text, stray.quote);
  // Neither quote says a title word; the one from a thread about it leads, though the other is closer and better received.
  const loud = signal('It is so loud and nothing helps.', 80);
  const fromThread = { ...signal('It takes ages before anything happens.', 5), postTitle: 'Prompt processing is painfully slow' };
  const [both] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [theme('Slow prompt processing', [loud, fromThread])], rivals: [], fit: (text) => (text === loud.quote ? 0.5 : 0.3), quoteFit: () => 0 });
  assert.equal(both!.items[0]!.surfaced.quote?.text, fromThread.quote);
});

test('a theme whose quotes sit far from it on average is not shown: the next one that holds one problem is, then single reports', () => {
  const mixed = theme('Game failures', [signal('Qwen3 keeps looping on long prompts.', 90), signal('Kimi K2 is too expensive to host.', 80), signal('DeepSeek refuses half my questions.', 70)]);
  const focused = theme('Slow prompt processing', [signal('Prompt processing is painfully slow on my Mac.', 10), signal('Prompt processing takes minutes at 20k context.', 5)]);
  const loose = { ...signal('I keep getting crashes: the installer fails on Windows 11 every time.', 3), moves };
  const closeness = new Map([...mixed.signals.map((s) => [s.quote, COHERENT_FIT - 0.05] as const), ...focused.signals.map((s) => [s.quote, COHERENT_FIT + 0.05] as const)]);
  const offerings = [{ name: 'Game checker', description: 'Checks Qwen3, Kimi K2 and DeepSeek answers.' }];
  const fit = (text: string, ranked: RankedTheme) => closeness.get(text) ?? (ranked === mixed ? 0.9 : 0);
  const [content, offers] = buildBrief({ project: { name: 'EvalKit', offerings }, pains: [mixed, focused], rivals: [], loose: [loose], fit, quoteFit: () => 0.9 });
  assert.deepEqual(content!.items.map((i) => i.surfaced.quote?.text), [focused.signals[0]!.quote, loose.quote]);
  assert.match(content!.items[0]!.surfaced.summary, /^Slow prompt processing:/);
  // A single report's summary says what it is; the quote below it says what was said.
  assert.equal(content!.items[1]!.surfaced.summary, 'A single report in r/LocalLLaMA so far, not yet a theme.');
  // Nor is an offering proposed for it, however well the offering's words match.
  assert.deepEqual(offers!.items, []);
  assert.ok(coherence(mixed, fit) < COHERENT_FIT && coherence(focused, fit) >= COHERENT_FIT);
});

test('a competitor item says how many posts of the window complain about the product, and where', () => {
  const mention = (quote: string, score: number): WindowSignal => ({ ...signal(quote, score), kind: 'competitor', competitor: 'LM Studio' });
  const rival = theme('LM Studio shortcomings', [mention('LM Studio crashes when I load a second model.', 20), mention('LM Studio still has no batch API.', 10)], 'competitor');
  const [, offers] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [], rivals: [rival], fit: () => 0, quoteFit: () => 0 });
  const item = offers!.items[0]!;
  assert.equal(item.origin, 'competitor');
  assert.equal(item.surfaced.summary, 'LM Studio shortcomings: 2 posts in r/LocalLLaMA this window say where LM Studio falls short.');
  const one = theme('Owui shortcomings', [{ ...signal('Owui loses my chats after an update.', 5), kind: 'competitor', competitor: 'Owui' }], 'competitor');
  const [, single] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [], rivals: [one], fit: () => 0, quoteFit: () => 0 });
  assert.equal(single!.items[0]!.surfaced.summary, 'Owui shortcomings: 1 post in r/LocalLLaMA this window says where Owui falls short.');
});

test('a quote leads one item of a brief: a complaint about a product already shown as a pain leaves its positioning item another quote, or none', () => {
  const crash = signal('LM Studio crashes every time I load a second model.', 20);
  const mention = (quote: string, score: number): WindowSignal => ({ ...signal(quote, score), kind: 'competitor', competitor: 'LM Studio' });
  const same = mention(crash.quote, 20);
  const other = mention('LM Studio still has no batch API.', 5);
  const build = (rival: RankedTheme) => buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [theme('LM Studio crashes', [crash])], rivals: [rival], fit: () => CLOSE, quoteFit: () => 0 });
  const [content, offers] = build(theme('LM Studio shortcomings', [same, other], 'competitor'));
  assert.equal(content!.items[0]!.surfaced.quote?.text, crash.quote);
  assert.deepEqual(offers!.items.map((i) => i.surfaced.quote?.text), [other.quote]);
  const [, none] = build(theme('LM Studio shortcomings', [mention(crash.quote, 20)], 'competitor'));
  assert.deepEqual(none!.items, []);
});

test('a memory that lists competitors gets positioning items against them only; one that lists none, against any product', () => {
  const complaint = (product: string, quote: string): WindowSignal => ({ ...signal(quote, 10), kind: 'competitor', competitor: product });
  const cuda = theme('CUDA shortcomings', [complaint('CUDA', 'CUDA 12 is still incompatible with my driver.'), complaint('CUDA', 'CUDA broke again after the update.')], 'competitor');
  const lmStudio = theme('LM Studio shortcomings', [complaint('LM Studio', 'LM Studio crashes when I load a second model.')], 'competitor');
  const rivalsOf = (competitors?: string[]) =>
    buildBrief({ project: { name: 'EvalKit', offerings: [], ...(competitors ? { competitors } : {}) }, pains: [], rivals: [cuda, lmStudio], fit: () => 0, quoteFit: () => 0 })[1]!.items.map((i) => i.move.title);
  // Matched however the memory spells it.
  assert.deepEqual(rivalsOf(['lmstudio', 'Ollama']), ['Position EvalKit against LM Studio']);
  assert.deepEqual(rivalsOf(['Ollama']), []);
  assert.deepEqual(rivalsOf([]), ['Position EvalKit against CUDA', 'Position EvalKit against LM Studio']);
  assert.deepEqual(rivalsOf(), ['Position EvalKit against CUDA', 'Position EvalKit against LM Studio']);
});

test('a "Problems with …" title leads with a quote about its subject, not one that says "problem"', () => {
  const inPassing = signal('Not a big problem, you can even run the full model on CPU at 2 tokens a second.', 900);
  const onTopic = signal('CPU inference crawls once the context passes 8k.', 5);
  const ranked = theme('Problems with CPU', [inPassing, onTopic]);
  // Both say "CPU"; the closer one leads (the one saying "problem" is not closer to the theme for it).
  const fit = (quote: string) => (quote === onTopic.quote ? 0.4 : 0.3);
  const [content] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [ranked], rivals: [], fit, quoteFit: () => 0 });
  assert.equal(content!.items[0]!.surfaced.quote?.text, onTopic.quote);
});

test('an offering is proposed where a window quote itself fits it, and that quote leads the item; a theme that fits alone is not enough', () => {
  const offering = { name: 'Tool-call test packs', description: 'Ready-made suites that check tool calling, JSON output and agent steps across models.' };
  const aside = signal("I'm no good in AI tools, I struggle a lot with each new tool.", 900);
  // Says none of the title's words, which would have made it the theme's lead.
  const answered = signal('The model keeps looping and never returns valid JSON.', 5);
  const tools = theme('Problems with tool calling', [aside, answered]);
  const content = [1, 2, 3, 4, 5].map((k) => theme(`Topic ${k}`, [signal(`Topic ${k} is broken for me.`, 1000 + k)]));
  const offersOf = (quoteFit: (text: string, quote: string) => number) =>
    buildBrief({ project: { name: 'EvalKit', offerings: [offering] }, pains: [...content, tools], rivals: [], fit: (_, r) => (r === tools ? Math.max(OFFER_FIT, COHERENT_FIT) : CLOSE), quoteFit })[1]!.items;
  const fits = new Map([[answered.quote, OFFER_QUOTE_FIT], [aside.quote, OFFER_QUOTE_FIT - 0.01]]);
  const [item, ...more] = offersOf((_, quote) => fits.get(quote) ?? 0);
  assert.equal(more.length, 0);
  assert.equal(item!.move.title, 'Offer Tool-call test packs where people hit “Problems with tool calling”');
  assert.equal(item!.surfaced.quote?.text, answered.quote, 'led by the quote the offering answers, not the best-received one');
  assert.match(item!.move.body, /The model keeps looping/);
  // No quote of the window close enough: no offer, however well the theme as a whole matches.
  assert.deepEqual(offersOf(() => OFFER_QUOTE_FIT - 0.01), []);
});

test('a quote that complains of speed or cost gets an offering only when the offering speaks of it', () => {
  const packs = 'Tool-call test packs Ready-made suites that check tool calling, JSON output and agent steps across models.';
  assert.equal(answersItsAspect(packs, "I'm doing something similar with a tool of mine but the calls get expensive and slow."), false);
  assert.equal(answersItsAspect(packs, 'The model keeps looping and never returns valid JSON.'), true);
  assert.equal(answersItsAspect('Quant advisor Tells you which quant fits a given GPU and latency budget.', 'Prompt processing is painfully slow on my card.'), true);
  assert.equal(answersItsAspect('Burst GPU pools Hourly multi-GPU pools for 70B models.', 'Renting an H100 is way too expensive for me.'), true);
  const tools = theme('Problems with tool calling', [signal('The tool calls get expensive and slow with this agent.', 900)]);
  const content = [1, 2, 3, 4, 5].map((k) => theme(`Topic ${k}`, [signal(`Topic ${k} is broken for me.`, 1000 + k)]));
  const [, offers] = buildBrief({ project: { name: 'EvalKit', offerings: [{ name: 'Tool-call test packs', description: 'Ready-made suites that check tool calling, JSON output and agent steps across models.' }] }, pains: [...content, tools], rivals: [], fit: (_, r) => (r === tools ? Math.max(OFFER_FIT, COHERENT_FIT) : CLOSE), quoteFit: () => 0.9 });
  assert.deepEqual(offers!.items, []);
});

test('a lead whose move names nothing gets one about what its theme names, when its quote says it, written as the quote writes it', () => {
  const withMove = (quote: string, title: string, body = 'Reply with the likely causes and the fix.') => ({ ...signal(quote, 10), moves: JSON.stringify({ content: { title, body } }) });
  const moveOf = (t: RankedTheme) => brief([t])[0]!.items[0]!.move;
  const studio = withMove("These models aren't loading on my LM Studio with this error", 'Write the fix for this failure');
  assert.deepEqual(moveOf(theme('Problems with LM Studio', [studio])), { title: 'Write the fix for LM Studio failing', body: 'Reply with the likely causes and the fix.' });
  const template = withMove('the chat template keeps breaking the output', 'Write the fix for this issue');
  assert.equal(moveOf(theme('Chat template failures', [template])).title, 'Write the fix for chat template issues');
  const slow = withMove('Ollama takes forever on my laptop', 'Show how to make it faster');
  assert.equal(moveOf(theme('Ollama crashes', [slow])).title, 'Show how to make Ollama faster');
  // The quote does not say the subject (only its thread might): the move stays as it was.
  const elsewhere = withMove('It crashed twice today', 'Write the fix for this failure');
  assert.equal(moveOf(theme('Problems with LM Studio', [{ ...elsewhere, postTitle: 'LM Studio 0.3 is out' }])).title, 'Write the fix for this failure');
  // A title that names only the problem, a move that names something, and a difficulty keep their moves.
  const loop = withMove('stuck in an endless hallucination loop again', 'Write the fix for this failure');
  assert.equal(moveOf(theme('Endless hallucination loop', [loop])).title, 'Write the fix for this failure');
  const named = withMove('LM Studio fails to load GGUF files', 'Write the fix for GGUF files failing');
  assert.equal(moveOf(theme('Problems with LM Studio', [named])).title, 'Write the fix for GGUF files failing');
  const hard = withMove('I find LM Studio hard to set up', 'Write the plain walkthrough for it');
  assert.equal(moveOf(theme('Problems with LM Studio', [hard])).title, 'Write the plain walkthrough for it');
});

test('a quote that speaks to someone leads only when no other can; a thank-you or a quoted remark does not count', () => {
  const advice = signal("You'll see very slow prompt processing with large models on that card.", 20);
  const own = signal('Processing is painfully slow on my Mac.', 5);
  assert.equal(brief([theme('Slow prompt processing', [advice, own])])[0]!.items[0]!.surfaced.quote?.text, own.quote, 'says fewer of the title’s words, and still leads');
  assert.equal(brief([theme('Slow prompt processing', [advice])])[0]!.items[0]!.surfaced.quote?.text, advice.quote, 'the only quote still leads');
  const thanked = signal('Thank you, but prompt processing is still painfully slow on my Mac.', 20);
  const quoted = signal('Everyone says "you just need more RAM", yet prompt processing stays slow for me.', 10);
  assert.equal(brief([theme('Slow prompt processing', [thanked, own])])[0]!.items[0]!.surfaced.quote?.text, thanked.quote);
  assert.equal(brief([theme('Slow prompt processing', [quoted, own])])[0]!.items[0]!.surfaced.quote?.text, quoted.quote);
  // Chat's "u" speaks to someone too; a username's "u/" does not.
  const chat = signal('If u want fast prompt processing, u can get a 3090 instead of that slow Mac.', 20);
  assert.equal(brief([theme('Slow prompt processing', [chat, own])])[0]!.items[0]!.surfaced.quote?.text, own.quote);
  const user = signal('Same as u/someone said, prompt processing is still painfully slow on my Mac.', 20);
  assert.equal(brief([theme('Slow prompt processing', [user, own])])[0]!.items[0]!.surfaced.quote?.text, user.quote);
});

test('a single report is shown only when its sentence says a problem strongly; a thin window shows fewer items', () => {
  const weak = { ...signal('I have an old workstation with 256GB of slow but cheap RAM.', 50), moves };
  const strong = { ...signal('I keep getting crashes: the installer fails on Windows 11 every time.', 3), moves };
  const [content] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [], rivals: [], loose: [weak, strong], fit: () => 0, quoteFit: () => 0 });
  assert.deepEqual(content!.items.map((i) => i.surfaced.quote?.text), [strong.quote], 'the better-received weak one is passed over');
  const [none] = buildBrief({ project: { name: 'EvalKit', offerings: [] }, pains: [], rivals: [], loose: [weak], fit: () => 0, quoteFit: () => 0 });
  assert.deepEqual(none!.items, []);
});

test('a quote that tells of a problem its writer got past leads only when no other can', () => {
  const past = signal('Prompt processing was painfully slow on my Mac, but I moved over to a 3090 and it has been a breeze.', 20);
  const own = signal('Processing is painfully slow on my Mac.', 5);
  assert.equal(brief([theme('Slow prompt processing', [past, own])])[0]!.items[0]!.surfaced.quote?.text, own.quote);
  assert.equal(brief([theme('Slow prompt processing', [past])])[0]!.items[0]!.surfaced.quote?.text, past.quote, 'the only quote still leads');
  // What follows the way out is a problem again: it leads as any other quote.
  const again = signal('Prompt processing was painfully slow on my Mac, but I moved over to a 3090 and it is still slow.', 20);
  assert.equal(brief([theme('Slow prompt processing', [again, own])])[0]!.items[0]!.surfaced.quote?.text, again.quote);
});

test('a move about another thing the quote names is written about what the theme names, when the quote says it', () => {
  const complaint = (quote: string, subject: string) => ({
    ...signal(quote, 10),
    moves: JSON.stringify({ content: { title: `Answer the complaint about ${subject}`, body: `“${quote}” Reply with what actually helps (a setting, a workaround, a better option), then collect the recurring complaints about ${subject} into one honest comparison post.` } }),
  });
  const moveOf = (t: RankedTheme) => brief([t])[0]!.items[0]!.move;
  const two = complaint('Llama4-Scout performs very bad, and Hunyuan-A13B is barely usable in dialogue.', 'Llama4-Scout');
  assert.deepEqual(moveOf(theme('Problems with Hunyuan-A13B', [two])), {
    title: 'Answer the complaint about Hunyuan-A13B',
    body: '“Llama4-Scout performs very bad, and Hunyuan-A13B is barely usable in dialogue.” Reply with what actually helps (a setting, a workaround, a better option), then collect the recurring complaints about Hunyuan-A13B into one honest comparison post.',
  });
  // The quote does not say the theme's subject, or the move already names it: the move stays.
  assert.equal(moveOf(theme('Problems with Qwen3', [{ ...two, postTitle: 'Qwen3 or Hunyuan-A13B?' }])).title, 'Answer the complaint about Llama4-Scout');
  const already = complaint('The LM Studio chat view is awful on a small screen.', 'LM Studio chat view');
  assert.equal(moveOf(theme('Problems with LM Studio', [already])).title, 'Answer the complaint about LM Studio chat view');
  // Named only as what the complaint is measured against: not what it is about.
  const compared = complaint('Claude is underwhelming compared to ChatGPT.', 'Claude');
  assert.equal(moveOf(theme('Problems with ChatGPT', [compared])).title, 'Answer the complaint about Claude');
  // The same for a move that names nothing: "it" is the slow one, not LM Studio.
  const slower = { ...signal("It's even slower than LM Studio on my Mac.", 10), moves: JSON.stringify({ content: { title: 'Show how to make it faster', body: 'Publish measured numbers.' } }) };
  assert.equal(moveOf(theme('Problems with LM Studio', [slower])).title, 'Show how to make it faster');
  // A move written otherwise (another project name, the llm analyzer) is not read back, so it stays.
  const foreign = { ...two, moves: JSON.stringify({ content: { title: 'Answer the complaint about Llama4-Scout', body: 'Compare both models.' } }) };
  assert.equal(moveOf(theme('Problems with Hunyuan-A13B', [foreign])).title, 'Answer the complaint about Llama4-Scout');
  // A walkthrough keeps its own subject (a guide to a bare theme subject was never rated good).
  const guide = { ...two, moves: JSON.stringify({ content: { title: 'Write the plain guide to Llama4-Scout', body: `“${two.quote}” People find Llama4-Scout hard to get right.` } }) };
  assert.equal(moveOf(theme('Problems with Hunyuan-A13B', [guide])).title, 'Write the plain guide to Llama4-Scout');
});
