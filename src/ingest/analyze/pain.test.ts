/**
 * The pain reader (DESIGN §8.2) on hand-written sentences: what is a pain, of which kind, and the
 * sentences that use pain words without being one (the false alarms the old keyword rules made).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tag } from './nlp.ts';
import { deniesProblem, isHowTo, leakAsNews, mistakesOneForAnother, negatesAnotherVerb, overcomesProblem, readPain, reportsFixed, type PainKind } from './pain.ts';

const read = (s: string) => readPain(tag(s), s);
const kindOf = (s: string): PainKind | undefined => read(s)?.kind;

test('a bare "problem" or "issue" keeps its reading; the kind the sentence names is kept beside it for the moves', () => {
  const failing = read('My real problem is that structured output does not work with Ollama.')!;
  assert.equal(failing.kind, 'difficulty');
  assert.equal(failing.precise?.kind, 'failure');
  assert.equal(tag('My real problem is that structured output does not work with Ollama.')[failing.precise!.cue]!.lemma, 'work');
  // Nothing more precise to say: no `precise`.
  assert.equal(read('I am having issues with the new drivers on my laptop.')!.precise, undefined);
  // A stronger cue that is not "problem" leads the reading itself.
  assert.equal(read('LM Studio keeps crashing, which is a problem for my whole team.')!.precise, undefined);
});

describe('pain reader: pains and their kind', () => {
  const cases: [string, PainKind][] = [
    ['Ollama keeps crashing when I load a 32k context.', 'failure'],
    ["LM Studio doesn't work with my second GPU anymore.", 'failure'],
    ['I am unable to load the tokenizer on Windows, it just stops.', 'failure'],
    ["I can't figure out how to split the model across two cards.", 'difficulty'],
    ['The prompt processing is painfully slow on my Mac.', 'speed'],
    ['The API is way too expensive for a side project like mine.', 'cost'],
    ['I wish there was a simple way to see how much VRAM a model needs.', 'missing'],
    ['Cards like these have very high power consumption for my home lab.', 'cost'],
    ['The software is still not ready to make use of the hardware we bought.', 'missing'],
    ['One thing I miss from ChatGPT is web search in my local setup.', 'missing'],
    ['I am having issues with tool calls not being formatted properly.', 'difficulty'],
    ['Canvas quizzes crash mid-exam and my professor blames me.', 'failure'],
    ['Group projects with teammates who never contribute are so frustrating.', 'frustration'],
  ];
  for (const [sentence, kind] of cases) {
    test(`${kind}: ${sentence}`, () => assert.equal(kindOf(sentence), kind));
  }
});

describe('pain reader: pain words without a pain', () => {
  const cases: [string, string][] = [
    ['I have had no problems with it so far, honestly.', 'negated ("no problems")'],
    ['It works great on my 3090 even with long prompts.', 'relief'],
    ['I finally fixed it by updating the drivers, problem solved.', 'resolved'],
    ['I wish you the best and good luck with your exams!', 'a well-wish, not a wish'],
    ['Thanks so much, this saved me from a lot of trouble!', 'thanks'],
    ['Have you faced issues with quantization or driver setup?', 'a survey question to others'],
    ['What are the **most frustrating parts** of running models locally?', 'a survey question behind markdown'],
    ['If you have issues running it I recommend the smaller variant.', 'a hypothetical'],
    ['Try lowering the context size, that usually stops the crashes.', 'advice to someone else'],
    ['It minimizes hallucinations on less powerful hardware.', 'an avoided pain'],
    ["Doesn't hallucinate outdated syntax anymore with the new index.", 'a negated pain word'],
    ["What models can't I run with 128GB of unified memory?", 'an inverted question'],
    ["I can't tell how it would perform in creative writing yet.", 'hedging, not blocked'],
    ['Wow, this week will be hard to match, good times!', 'praise'],
    ['We have also fixed a bunch of bugs in this release.', 'fixed bugs'],
    ["Can't wait to run it locally on my new box!", 'eagerness'],
    ['I cannot wait for the 32B version to load up on my rig.', 'eagerness'],
  ];
  for (const [sentence, why] of cases) {
    test(`not a pain (${why}): ${sentence}`, () => assert.equal(read(sentence), undefined));
  }
});

describe('how-to questions', () => {
  test('questions asking how to do something', () => {
    for (const q of ['How do I run two models on one GPU with llama.cpp?', 'Is there a way to see token speed in the GUI?', "What's the best way to fine-tune on a single 3090?", 'How to stop responses dissolving into word salad?']) {
      assert.equal(isHowTo(q), true, q);
    }
  });
  test('other questions and statements', () => {
    for (const q of ['Why?', 'This model is great, right?', 'What is the best model?', 'How I built my home server.']) assert.equal(isHowTo(q), false, q);
  });
  test('a how-to question voicing a problem is a pain marked how-to', () => {
    const r = read('Responses keep dissolving into gibberish - how do I stop it?');
    assert.equal(r?.howTo, true);
  });
});

test('a sentence that says there was no problem is a denial, whatever problem words follow it; one that has a problem is not', () => {
  for (const sentence of [
    "No issues with mine, you're probably running a buggy quant.",
    "I'm on the 8 bit build and haven't had a single issue with a tool call failing.",
    'It is not a big problem, the first token just takes a while.',
    'Tried it on my old laptop and it ran without any issues.',
    'I have never run into a serious problem with their quants.',
    'Runs on a phone at q2, no problem.',
    "I use it every day and I usually don't have problems with it.",
    'The hosted demo does not have such issues.',
    "I don't encounter any problem with the new template on Q8.",
    'I have passed thousands of tool calls with qwen-code with 0 failures.',
    'Throughput scales with batching, assuming there are no VRAM limitations.',
    'The 16Gb card will run the 14b model without running into memory issues.',
    'And surprise, no, we are not grappling with any security issues when it comes to agents.',
  ]) assert.ok(deniesProblem(sentence), sentence);
  for (const sentence of [
    'I am having issues with tool calls not being formatted properly.',
    'The problem is that nobody documents the chat template.',
    "It's not the model, the issue is the server dropping requests.",
    'No matter what I try, the server crashes after an hour.',
    'Nothing loads and there is no error message at all.',
    "I don't know why I have issues with the new drivers.",
    "Don't have the problem on Linux, only on Windows it crashes.",
    'No matter how many bugs they fix, it still crashes on load.',
    'The new build has memory leaks and no fix in sight.',
  ]) assert.ok(!deniesProblem(sentence), sentence);
});

test('a negation that belongs to another verb is no failure; one passed on by a leading verb or said of a subject is', () => {
  for (const sentence of [
    "I couldn't dream of running a 235b model right now.",
    "I haven't added tool calling to it yet.",
    "I don't plan to run anything past 8b models.",
    'It did not fail at installing ollama.',
    "I don't mind installing niche software.",
  ]) assert.ok(negatesAnotherVerb(tag(sentence), sentence), sentence);
  for (const sentence of [
    "It doesn't seem to work with the new template.",
    "I couldn't make it work on Windows.",
    "The server won't let me run it.",
    "I don't think it works at all in Windows.",
    'For some reason, nothing I build works at all.',
    "I haven't added tool calling yet and it crashes anyway.",
    "It doesn't load.",
  ]) assert.ok(!negatesAnotherVerb(tag(sentence), sentence), sentence);
});

test('a leak told as news is no pain; something leaking is, and so is a sentence with another problem', () => {
  for (const sentence of [
    'We have come a long way from the days of the leaked LLaMA 1 models.',
    'Claude is trained on a leaked version of kimi k2!',
    'LEAK: How OpenAI came up with the new model names.',
    "We've gotten early Llama info leaks in the past through the same process.",
    'There was also a source code leak which did not disprove it.',
  ]) assert.ok(leakAsNews(tag(sentence), sentence), sentence);
  for (const sentence of [
    'The latest HIP SDK has VRAM leaking after a few generations.',
    "It's leaking the chat formatting into every answer.",
    'Every run the server has a memory leak and dies.',
    'The leaked model is terrible at coding and crashes my server.',
  ]) assert.ok(!leakAsNews(tag(sentence), sentence), sentence);
});

test('confusing one thing with another is a mix-up, no pain; a thing that gets confused, or a writer confused by something, is read as before', () => {
  for (const sentence of [
    'Ah, I confused it with K2, it is not.',
    'By the way, some people confuse analyzing video with analyzing frames - but these are separate modalities.',
    'He probably confused it with LM Studio, it still incompatible when using CUDA 12 on LM Studio.',
  ]) assert.ok(mistakesOneForAnother(tag(sentence), sentence), sentence);
  for (const sentence of [
    'It seems to get confused with background noise.',
    'Models often use older versions of the library or get confused with Pandas.',
    "I'm confused by all these leaderboards.",
    'I confused it with K2 and then the server crashed with every model I loaded.',
    'After thinking for 10k tokens it was so confused it stopped thinking with </thinking> instead of </think>.',
  ]) assert.ok(!mistakesOneForAnother(tag(sentence), sentence), sentence);
});

test('a problem said to be fixed is no pain; one whose fix is denied is', () => {
  for (const sentence of [
    'Edit: The 300B loading issue is now fixed.',
    'The wizards at Unsloth seem to have fixed the tool-calling issues that have been plaguing Qwen3-Coder.',
    'The project solves existing issues in audio generation when using Orpheus.',
    'GLM-4 32b has been pretty great (well after all the problems with the support have been resolved).',
  ]) assert.ok(reportsFixed(sentence), sentence);
  for (const sentence of [
    "It's a bug which isn't fixed yet.",
    'It is not fixed, the issue is still there.',
    "Now, this next issue is something I couldn't fix.",
    "I've been trying to fix it but haven't found success.",
  ]) assert.ok(!reportsFixed(sentence), sentence);
});

test('a problem its writer got past is told as such; one that follows the way out, or comes back, is not', () => {
  for (const sentence of [
    'I had constant crashes with the old drivers, but we switched to the studio drivers last month.',
    'Ollama kept timing out on long prompts, so I moved over to llama-server and it has been solid.',
    'I struggled with the chat template for days until I found the right jinja file.',
    'Whisper was painfully slow on my laptop, but the new turbo model does a great job.',
    'I used to have issues when the server is limiting to anything lower than 8k context.',
    'It used to crash every hour, so I bought a new power supply.',
  ]) assert.ok(overcomesProblem(sentence), sentence);
  for (const sentence of [
    'Ollama kept crashing, but I switched to vLLM and it crashes too.',
    'It used to be so great but now the quality has been very bad for me.',
    'I used to be a fan of OpenHands, but then it basically stopped working for the models I use.',
    'The thing that really annoys me is that the reasoning is used to double-check safety.',
    'It keeps crashing and I hate it.',
  ]) assert.ok(!overcomesProblem(sentence), sentence);
});
