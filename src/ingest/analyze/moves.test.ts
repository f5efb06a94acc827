/**
 * Moves fit their pain (DESIGN §8.4): a how-to question gets a guide, a price complaint a pricing
 * move, a missing capability a roadmap move, a product's failure a positioning move; each names
 * the pain's own subject, and different pains never share one sentence.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { difficultTask } from './move-task.ts';
import { aboutSubject, moveSubject, movesFor } from './moves.ts';
import { tag } from './nlp.ts';
import { readPain } from './pain.ts';

function moves(sentence: string, products: string[] = [], threadTitle?: string) {
  const tokens = tag(sentence);
  const reading = readPain(tokens, sentence);
  assert.ok(reading, `not read as a pain: ${sentence}`);
  return movesFor({ tokens, sentence, reading, products, community: 'LocalLLaMA', project: 'Quantforge', threadTitle });
}

test('a how-to question gets a how-to guide titled with its task', () => {
  const m = moves('Responses keep dissolving into gibberish - how do I stop it?');
  assert.match(m.content.title, /^Publish a how-to: stop it$|^Publish a how-to/);
  assert.match(m.content.body, /Asked in r\/LocalLLaMA/);
});

test('a price complaint gets a pricing move; a missing capability a roadmap move', () => {
  const cost = moves('The hosted API is way too expensive for my side project.');
  assert.ok(cost.pricing, 'pricing move');
  assert.match(cost.content.title, /costs/);
  const missing = moves('I wish there was a simple way to see how much VRAM a model needs.');
  assert.ok(missing.roadmap, 'roadmap move');
  assert.match(missing.roadmap!.body, /Quantforge/);
});

test('a gerund after a vague noun is what is done, not a subject ("hard time accomplishing"); "error handling" stays', () => {
  assert.equal(moves("You're going to have a very hard time accomplishing that with small models.").content.title, 'Write the plain walkthrough for it');
  assert.equal(moves('I saw people running into errors with long texts.').content.title, 'Write the fix for this failure');
  assert.equal(moves('Error handling is terrible in this library.').content.title, 'Write the fix for error handling');
  // A subject that opens with the failure names it (round 28): no "failing" after it.
  assert.equal(moves('Downloaded the Q3 to run on two 3090s, getting this error message.').content.title, 'Write the fix for error message');
});

test('forum shorthand is never part of a subject ("installer docs", not "installer docs IMO")', () => {
  assert.equal(moves('The installer docs IMO are terrible and confusing.').content.title, 'Answer the complaint about installer docs');
  // Spoken contractions too ("gonna suck", "expensive tho" were subjects).
  assert.equal(moves('Offloading a 235B model to RAM is gonna suck.').content.title, 'Answer this complaint');
  assert.equal(moves('Cloud GPUs are too expensive tho.').content.title, 'Break down what cloud GPUs really cost');
});

test('what a plural subject costs agrees with it ("what GPUs really cost")', () => {
  const gpus = moves('The GPUs are way too expensive for a hobbyist.');
  assert.equal(gpus.content.title, 'Break down what GPUs really cost');
  assert.match(gpus.pricing!.body, /weigh what GPUs cost\./);
  assert.equal(moves('The hosted API is way too expensive for my side project.').content.title, 'Break down what API really costs');
  assert.equal(moves('Commercial models like ElevenLabs are far too expensive for this.', ['ElevenLabs']).content.title, 'Break down what ElevenLabs really costs');
});

test('a failure whose subject already names it is not said twice ("the fix for request failures", not "…failures failing")', () => {
  const m = moves('Censorship drives up request failures across the board.');
  assert.equal(m.content.title, 'Write the fix for request failures');
  assert.equal(moves('The vLLM server failed twice last night.').content.title, 'Write the fix for vLLM server failing');
});

test('an intensifier the tagger reads as a noun ("super slow") is not the subject; the thing that is slow is', () => {
  assert.equal(moves('The problem with really large models is that inference speed is super slow.').content.title, 'Show how to make inference speed faster');
});

test("a named product's failure gets a positioning move against it", () => {
  const m = moves('LM Studio keeps crashing every time I load an embedding model.', ['LM Studio']);
  assert.match(m.content.title, /LM Studio/);
  assert.equal(m.position?.title, 'Position Quantforge against LM Studio');
});

test('moves use the pain\'s own subject and words: no two pains share a title or body', () => {
  const sentences = [
    'The prompt processing is painfully slow on my Mac.',
    'Ollama keeps crashing when I load a 32k context.',
    'I am completely lost setting up the chat templates.',
    'The subscription is too expensive for a student like me.',
    'I am worried about privacy when my prompts go to the cloud.',
  ];
  const all = sentences.map((s) => moves(s, s.startsWith('Ollama') ? ['Ollama'] : []));
  assert.equal(new Set(all.map((m) => m.content.title)).size, sentences.length);
  assert.equal(new Set(all.map((m) => m.content.body.replace(/“[^”]*”/, ''))).size, sentences.length, 'bodies differ beyond the quote');
  all.forEach((m, i) => assert.ok(m.content.body.includes(sentences[i]!.slice(0, 30)), 'the body quotes its pain'));
});

test('a subject is never a piece of a size the tagger split ("8B" → "8" "B", "2x" → "2" "x")', () => {
  const rig = moves('My 2x RTX 3090 setup keeps crashing under load.');
  assert.match(rig.content.title, /RTX 3090 setup/);
  assert.doesNotMatch(rig.content.title, /\bx RTX/);
  const size = moves('The 8B model will be too slow on a 3060 with small batch sizes.');
  assert.doesNotMatch(size.content.title, /\bB model/);
  const split = moves("I can run Q6 235B but I can't run Q4 of this.");
  assert.doesNotMatch(split.content.title, /235 B/);
});

test('a long pain is quoted whole up to a word and marked as cut, never stopped mid-clause', () => {
  const sentence =
    'He probably confused it with LM Studio, it still fails to load when using CUDA 12 on LM Studio, only the normal CUDA runtime is compatible and nobody documents it anywhere.';
  const m = moves(sentence, ['LM Studio']);
  const quoted = /“([^”]*)”/.exec(m.content.body)?.[1];
  assert.ok(quoted, m.content.body);
  assert.ok(quoted.endsWith('…'), quoted);
  assert.ok(sentence.startsWith(quoted.slice(0, -1)), 'a verbatim prefix');
  assert.ok(sentence.charAt(quoted.length - 1) === ' ', 'cut at a word boundary');
  const short = moves('LM Studio keeps crashing every time I load an embedding model.', ['LM Studio']);
  assert.match(short.content.body, /“LM Studio keeps crashing every time I load an embedding model\.”/);
});

test("a subject keeps a name's capitals and loses only a sentence's (\"LoRA\", not \"loRA\")", () => {
  const m = moves('The performance of LoRA is much worse than full parameter fine-tune in my tasks.');
  assert.match(m.content.title, /LoRA/, m.content.title);
  assert.doesNotMatch(m.content.title, /loRA/);
});

test('a subject is never a pronoun, a vague noun with a quality before it, or the noun of a fixed expression', () => {
  // "The main problem" says nothing the cue does not: the tokenizer is what fails (and failing is the kind).
  assert.equal(moves('The main problem is that the tokenizer keeps failing.').content.title, 'Write the fix for tokenizer failing');
  // "works out of the box" is not about a box.
  assert.doesNotMatch(moves('It may not work out of the box with my setup.').content.title, /\bbox\b/);
  // "I'm" is read as a noun by the tagger; it is the writer.
  assert.doesNotMatch(moves("I'm struggling to get the server to start at all.").content.title, /I['’]m/);
  // A phrase is what its last word names: "time reading ChatGPT crap" is not about time, nor a thing.
  assert.doesNotMatch(moves("It's much better to read some broken human text than to waste time reading ChatGPT crap.").content.title, /crap/);
});

test('with nothing to name, a move speaks of the quote it stands under ("this failure", "it"), never "this failing"', () => {
  assert.equal(moves('It keeps crashing and I hate it.').content.title, 'Write the fix for this failure');
  assert.equal(moves('It is so slow that I gave up.').content.title, 'Show how to make it faster');
  const roadmap = moves('It lacks that and I need it.').roadmap;
  assert.equal(roadmap?.title, 'Roadmap evidence from this thread');
});

test("a name keeps its capitals; only a common word opening the sentence loses its capital", () => {
  assert.equal(moves('I am impressed with Kimi K2 but it is too slow for daily use.').content.title, 'Show how to make Kimi K2 faster');
  assert.equal(moves('Memory leaks make the server crash every night.').content.title, 'Write the fix for memory leaks');
});

test('one everyday word nearest the cue names nothing: the move speaks of the quote, not of a farther phrase', () => {
  // "approach" names nothing to fix; a farther phrase ("RTX 3090") is no closer to the pain.
  assert.equal(moves('On my RTX 3090 that approach keeps failing.').content.title, 'Write the fix for this failure');
  assert.equal(moves('My server failed twice last night.').content.title, 'Write the fix for this failure');
  // A name or a compound still does, in lower case too.
  assert.equal(moves('The tokenizer keeps failing on long prompts.').content.title, 'Write the fix for tokenizer failing');
  assert.equal(moves('Image recognition does not work on PC.').content.title, 'Write the fix for image recognition not working');
});

test('a gerund that starts a verb phrase ends a subject ("a terrible time with vulkan trying to…" is about vulkan)', () => {
  assert.equal(moves('I had a terrible time with vulkan trying to allocate vram in chunks.').content.title, 'Answer the complaint about vulkan');
  assert.equal(moves("I'm having a hard time trying to understand the resource utilization.").content.title, 'Write the plain guide to resource utilization');
});

test('what someone is trying to set up or get working, in a sentence that says it is hard, is a task; "trying to get it…" is none', () => {
  assert.equal(moves("I'm having a hard time trying to figure out the resource utilization.").content.title, 'Publish a how-to: figure out the resource utilization');
  assert.equal(moves('I have never encountered a more difficult software package to run than trying to get vLLM working in Docker.').content.title, 'Publish a how-to: get vLLM working in Docker');
  assert.equal(difficultTask("I'm having trouble trying to get it to distribute across multiple gpus."), undefined);
});

test('a product named only by a link is not the subject, nor positioned against; one named in words is', () => {
  const linked = moves('The tool-calling bugs keep crashing my agent, see the discussion [here](https://huggingface.co/unsloth/discussions/10).', ['Hugging Face']);
  assert.doesNotMatch(linked.content.title, /Hugging Face/);
  assert.equal(linked.position, undefined);
  const named = moves('LMStudio keeps crashing every time I load an embedding model.', ['LM Studio']);
  assert.equal(named.content.title, 'Write the fix for LM Studio crashing');
});

test('what a pain is compared with is not its subject, nor positioned against ("slower than vLLM" is about the slow one)', () => {
  const slower = moves('But llama.cpp is way slower than vllm on my two 3090s.', ['llama.cpp', 'vLLM']);
  assert.equal(slower.content.title, 'Show how to make llama.cpp faster');
  assert.equal(slower.position?.title, 'Position Quantforge against llama.cpp');
  const only = moves('As for deep research, I find it underwhelming compared to both chatgpt and perplexity.', ['ChatGPT']);
  assert.doesNotMatch(only.content.title, /ChatGPT/i);
  assert.equal(only.position, undefined);
  // Not a product: the noun phrase after "than" is no subject either.
  assert.doesNotMatch(moves('I was so happy but its even worse than glm 4.5 at coding.').content.title, /glm/i);
  assert.equal(moves('I usually avoid MLX models because they are painfully slow, not as reliable as GGUF.', ['GGUF']).position, undefined);
  assert.doesNotMatch(moves('Prompt processing is painfully slow as soon as Ollama loads the second model.', ['Ollama']).content.title, /this|it faster/);
  // "vs" weighs both alike; a product named plainly as well is still the subject.
  assert.equal(moves('Ollama vs LM Studio: LM Studio keeps crashing on my laptop.', ['Ollama', 'LM Studio']).content.title, 'Write the fix for Ollama crashing');
  assert.equal(moves('Ollama keeps crashing, it was never worse than Ollama before.', ['Ollama']).content.title, 'Write the fix for Ollama crashing');
});

test('a move answers the kind of problem a sentence names, not its bare "problem" ("structured output does not work with Ollama" is a failure)', () => {
  assert.equal(moves('My real problem is that structured output does not work with Ollama.', ['Ollama']).content.title, 'Write the fix for Ollama not working');
  assert.equal(moves('I have been having issues with LM Studio crashing since the update.', ['LM Studio']).content.title, 'Write the fix for LM Studio crashing');
});

test('a bare "problem" or "issue" gets a fix in the writer\'s word, not a guide; a difficulty still gets a guide', () => {
  assert.equal(moves('I am having issues with LM Studio on my laptop.', ['LM Studio']).content.title, 'Write the fix for LM Studio issues');
  assert.equal(moves('I keep running into python dependency problems with the newer version.').content.title, 'Write the fix for python dependency problems');
  assert.equal(moves('I always have issues with FP8 models on my MacBook.').content.title, 'Write the fix for the issues with FP8 models');
  assert.equal(moves('LM Studio is so confusing on my laptop.', ['LM Studio']).content.title, 'Write the plain guide to LM Studio');
  // A difficulty that says its task gets a how-to about it.
  assert.equal(moves("I can't figure out how to set up LM Studio on my laptop.", ['LM Studio']).content.title, 'Publish a how-to: set up LM Studio on my laptop');
});

test('an everyday word opening the sentence is still an everyday word ("Concerns", "Output")', () => {
  assert.equal(moves('Output keeps failing after a few turns.').content.title, 'Write the fix for this failure');
});

test("what people can't find gets a move to publish it, not a fix for something that failed", () => {
  const docs = moves('I cannot find any documentation regarding the gaze detection.');
  assert.equal(docs.content.title, "Publish what people can't find");
  assert.match(docs.content.body, /come up empty/);
  const jan = moves("I googled and couldn't find much info on installing Jan as LXC on proxmox.", ['Jan']);
  assert.equal(jan.content.title, "Publish what people can't find on Jan");
  assert.equal(jan.position, undefined, 'not finding something about Jan is not Jan falling short');
  // A search that came up empty, in the past tense, is the same; a judgement ("didn't find the 70B
  // any better") is not a search.
  assert.equal(moves("Sadly I haven't found a way to disable thinking when llama.cpp serves the model.").content.title, "Publish what people can't find");
  assert.equal(moves("I didn't find any option to add a local model, which is frustrating.").content.title, "Publish what people can't find");
  assert.notEqual(moves("Sadly I didn't find the 70B was any better than the 32B, and it failed my tests.").content.title, "Publish what people can't find");
  // The thing searched for said before ("…still have not found it"), "not able to", "can barely".
  assert.equal(moves('I searched everywhere for the Qwen app but sadly still have not found it.').content.title, "Publish what people can't find");
  assert.equal(moves('We were not able to find an LLM provider benchmark that focuses on throughput, which is frustrating.').content.title, "Publish what people can't find");
  assert.equal(moves('I can barely find any discussion about DWQ models anywhere, which is annoying.').content.title, "Publish what people can't find");
  assert.notEqual(moves("Sadly I didn't find it that good, and it failed my tests.").content.title, "Publish what people can't find");
});

test('a gerund used as a preposition ends a subject ("documentation regarding…"); a compound stays ("instruction following")', () => {
  assert.equal(moves('The documentation regarding tool calls keeps failing me.').content.title, 'Write the fix for documentation failing');
  assert.match(moves('It has terrible instruction following and hallucinates more.').content.title, /instruction following/);
});

test('something not supported gets a workaround and roadmap evidence for it, not a fix: the object of "does not support X", the subject of "X is not supported"', () => {
  const active = moves('Sadly the new engine does not support KVcache quant on my card.');
  assert.equal(active.content.title, 'Publish a workaround for KVcache quant support');
  assert.match(active.content.body, /blocked because KVcache quant is not supported yet/);
  assert.equal(active.roadmap?.title, 'Roadmap evidence: KVcache quant support');
  const passive = moves("I tried autoawq but olmo2 isn't supported yet.");
  assert.equal(passive.content.title, 'Publish a workaround for olmo2 support');
  // The product that lacks it is positioned against, and is not what is missing.
  const lacking = moves('Sadly vLLM does not support AWQ on my card.', ['vLLM']);
  assert.equal(lacking.content.title, 'Publish a workaround for AWQ support');
  assert.equal(lacking.position?.title, 'Position Quantforge against vLLM');
  // Nothing named: the move says so rather than inventing a subject; nor does a pronoun name it,
  // whatever phrase comes before ("the same design as GLM" is not what "it" stands for).
  assert.equal(moves("Sadly it's not supported in any extension I know of.").content.title, 'Publish a workaround for the missing support');
  assert.equal(moves("Deepseek v3 released with MTP, the same design as GLM, but sadly it still isn't supported.").content.title, 'Publish a workaround for the missing support');
  assert.equal(moves('Sadly the guide says to install CUDA 12.4, which is not supported by Blackwell.').content.title, 'Publish a workaround for CUDA support');
});

test('a subject that already says it fails is not said to fail twice', () => {
  assert.equal(moves('I keep seeing a tool call failing with Qwen3 every single time.').content.title, 'Write the fix for tool call failing');
});

test('a difficulty that says what the writer is trying to do gets a how-to about that task, not a guide to the nearest noun', () => {
  assert.equal(
    moves("I'm struggling to get decent performance from the new GLM-4.5-Air model and could use some help finding the optimal settings.").content.title,
    'Publish a how-to: get decent performance from the new GLM-4.5-Air model',
  );
  assert.equal(moves("I've been having a very difficult time getting them to call tools.").content.title, 'Publish a how-to: getting them to call tools');
  assert.equal(moves("I can't figure out how to split the model across two cards.").content.title, 'Publish a how-to: split the model across two cards');
  // The task ends with its clause.
  assert.equal(difficultTask('I have no idea how to stitch together its setup with web search, any pointers?'), 'stitch together its setup with web search');
  assert.equal(difficultTask('I have no clue how to set up the reranker.'), 'set up the reranker');
  assert.equal(difficultTask('I had some trouble getting the reranker to load.'), 'getting the reranker to load');
  // A second verb of the writer's ends it too ("…and am very resource constrained").
  assert.equal(difficultTask("I've struggled to get a good vLLM implementation and am very resource constrained."), 'get a good vLLM implementation');
  assert.equal(difficultTask("I'm struggling to get the model and the tokenizer to load."), 'get the model and the tokenizer to load');
  // Judging is not attempting; a difficulty without a task keeps its move.
  assert.equal(difficultTask('It is hard to say which one is better.'), undefined);
  assert.equal(difficultTask('8 gpus can be tricky, 4 is easy.'), undefined);
  // ("a very hard time accomplishing that" keeps its walkthrough: the gerund test above.)
});

test("of the things a reply names, the one its thread is about is the move's subject; without one, the nearest", () => {
  const reply = 'I tried Kimi and it failed in coding vs Devstral small.';
  assert.equal(moves(reply, ['Kimi', 'Devstral']).content.title, 'Write the fix for Kimi failing');
  assert.equal(moves(reply, ['Kimi', 'Devstral'], 'Have you tried the new Devstral?').content.title, 'Write the fix for Devstral failing');
  assert.equal(moves(reply, ['Kimi', 'Devstral'], 'Which local model for coding?').content.title, 'Write the fix for Kimi failing');
  // A phrase by a name the thread's title holds; an everyday word the title shares does not count.
  const exl = "Slower than it should, caused me some bugs with the webui, many times the exl3 quants simply didn't work.";
  assert.equal(moves(exl, [], 'Is EXL3 doomed?').content.title, 'Write the fix for exl3 quants failing');
  assert.notEqual(moves(exl, [], 'Is the webui doomed? Quants are slower than they should').content.title, 'Write the fix for exl3 quants failing');
});

test('a subject that opens on a unit of memory keeps its number ("8 GB card", not "GB card"); a size alone is no subject', () => {
  assert.equal(moves('My 8GB card is too slow for 14B models.').content.title, 'Show how to make 8 GB card faster');
  assert.equal(moves('The 24 GB VRAM cards are way too expensive.').content.title, 'Break down what 24 GB VRAM cards really cost');
  assert.equal(moves('It keeps crashing with 32 GB.').content.title, 'Write the fix for this failure');
});

test('a plural noun and a problem word in its bare form are a subject and its verb ("open-source models struggle")', () => {
  // (A thing that struggles fails: the next test.)
  assert.equal(moves('It can handle long contexts, which is something most open-source models struggle with.').content.title, 'Write the fix for open-source models failing');
  assert.equal(moves('The PCIe lag is terrible.').content.title, 'Answer the complaint about PCIe lag');
});

test('a thing that gets stuck, struggles or is flaky fails: a fix, not a guide; a person who is stuck keeps the guide', () => {
  assert.equal(moves('The unsloth quantizations seem to get stuck in a thinking loop.').content.title, 'Write the fix for unsloth quantizations getting stuck');
  assert.equal(moves('My 32GB macbook even struggles to run 14B models.').content.title, 'Write the fix for 32 GB macbook failing');
  // What it struggles with is not what fails.
  assert.equal(moves("But it's struggling with live2d.").content.title, 'Write the fix for this failure');
  assert.equal(moves('It gets stuck in a loop every time I try.').content.title, 'Write the fix for this failure');
  assert.equal(moves('llama.cpp seems flaky at best when it comes to running them.', ['llama.cpp']).content.title, 'Write the fix for llama.cpp failing');
  assert.ok(moves('llama.cpp seems flaky at best when it comes to running them.', ['llama.cpp']).position, 'a product that fails gets a positioning move');
  // "Unreliable X" is X that fails, not "unreliable X failing".
  assert.equal(moves('Every UI system gives you inconsistent spacing.').content.title, 'Write the fix for spacing failing');
  // The writer, other people, or "they" (people as often as models): their difficulty.
  assert.equal(moves("I'm still stuck on the installer.").content.title, 'Write the plain guide to installer');
  assert.equal(moves('im stuck with the installer and its flags').content.title, 'Write the plain guide to installer');
  assert.match(moves('Users struggle with the installer.').content.title, /^Write the plain guide/);
  // Remembered is not stuck.
  assert.equal(moves('The parts that stuck with me were the benchmarks.').content.title, 'Write the plain guide to benchmarks');
});

test('a thing that struggles after a conjunction fails: its subject is the first clause\'s; the writer\'s stays a difficulty', () => {
  assert.equal(moves('Q4 MLX is good quality and very fast, but can struggle with more complex tasks.').content.title, 'Write the fix for Q4 MLX failing');
  assert.equal(moves('Qwen3 is clearly not as smart and struggles with complex situations.').content.title, 'Write the fix for Qwen3 failing');
  assert.match(moves('I can get higher tps for aggregated concurrent requests but struggling with single request.').content.title, /^Write the plain (?:guide|walkthrough)/);
  assert.equal(moves('Air was able to pass but did struggle at the neural network stage.').content.title, 'Write the fix for this failure');
});

test('a writer stuck choosing between options gets a comparison, naming the options when the sentence names their kind', () => {
  assert.equal(moves('I got confused as there are a lot of inference engines available and I do not know their pros and cons.').content.title, 'Publish a side-by-side of inference engines and when to pick each');
  assert.equal(moves('But honestly, with so many options out there, I feel a bit lost.').content.title, 'Publish a side-by-side of the options and when to pick each');
  assert.equal(moves('I want to fine tune TTS but there are plenty on the market so confused which one to use.').content.title, 'Publish a side-by-side of the options and when to pick each');
  assert.match(moves('I have found this amount of context can confuse a lot of models.').content.title, /^Write the /);
  assert.match(moves('I am confused by the installer flags.').content.title, /^Write the plain guide/);
});

test('a thing that gets confused fails; a person who is confused keeps the guide', () => {
  assert.equal(moves('I noticed that Qwen was confused when drawing bounding boxes.', ['Qwen']).content.title, 'Write the fix for Qwen failing');
  assert.equal(moves('It seems to get confused with background noise.').content.title, 'Write the fix for this failure');
  assert.match(moves('I was confused at first.').content.title, /^Write the plain (?:guide|walkthrough)/);
  assert.match(moves('My sister was confused by the settings.').content.title, /^Write the plain (?:guide|walkthrough)/);
});

test('what costs too much, by the grammar of the cost word; a cost is not assumed to be monthly', () => {
  assert.equal(moves('The most expensive GPU is out of reach.').content.title, 'Break down what GPU really costs');
  assert.equal(moves('The 24 GB VRAM cards are way too expensive.').content.title, 'Break down what 24 GB VRAM cards really cost');
  assert.equal(moves('The ram costs are just too much.').content.title, 'Break down what ram really costs');
  assert.equal(moves("It's more expensive than regular shipping to Place.").content.title, 'Break down what it really costs');
  const body = moves('The hosted API is way too expensive for my side project.').content.body;
  assert.match(body, /up front and to run/);
  assert.doesNotMatch(body, /per month/);
});

test('a concern about data gets what is stored and who sees it; any other concern, facts people can check', () => {
  assert.match(moves("I'm worried about privacy when my data goes to the cloud.").content.body, /what is stored, where, who can see it/);
  const other = moves("I'm concerned about its ability to handle long context lengths.").content.body;
  assert.doesNotMatch(other, /what is stored/);
  assert.match(other, /facts people can check/);
});

test('what is slow, by the grammar of "slow": the phrase it modifies or the one it is said of, not what it is slow for', () => {
  assert.equal(moves("With large models, you'll see very slow prompt processing.").content.title, 'Show how to make prompt processing faster');
  assert.equal(moves('PCIe/cxl is already too slow for expansion cards.').content.title, 'Show how to make PCIe/cxl faster');
  assert.equal(moves('My 8GB card is too slow for 14B models.').content.title, 'Show how to make 8 GB card faster');
});

test('"I can\'t get X to work" is a task: a how-to about getting X to work; "can\'t get it to work" names none', () => {
  assert.equal(difficultTask("I can't get 4-bit GPTQ quant to work in vLLM/SGLang, but it's interesting."), 'get 4-bit GPTQ quant to work in vLLM/SGLang');
  assert.equal(difficultTask("I can't get triton working for example."), 'get triton working');
  assert.equal(moves("I still can't get tool calling to work in Qwen CLI with 30B, just throws errors.").content.title, 'Publish a how-to: get tool calling to work in Qwen CLI with 30B');
  assert.equal(difficultTask("I can't get it working with ONNX Runtime either."), undefined);
  assert.equal(difficultTask("I couldn't get those to work either."), undefined);
});

test('"I can\'t get X to <do something>" is a task whatever X is made to do; a state got or a verbless "to" is none', () => {
  assert.equal(difficultTask("I can't get the 32B model to put <think> in the message response even when I remove it from the chat template -- any ideas?"), 'get the 32B model to put <think> in the message response');
  assert.equal(difficultTask('Also I can’t get any Google models to show as available either.'), 'get any Google models to show as available');
  assert.equal(moves("I can't get any model to produce a diff that applies.").content.title, 'Publish a how-to: get any model to produce a diff that applies');
  assert.equal(difficultTask("I can't get involved in the yak shaving required to play with it right now."), undefined);
  assert.equal(difficultTask("I can't get perfect JSON's to my requests."), undefined);
  assert.equal(difficultTask("I can't get it to reply with the correct thinking format."), undefined);
});

test('a thing not found to be good is a judgement, answered as a complaint; a search that came up empty is not', () => {
  // What it was not found good at is what the complaint says (move-aspect.ts).
  assert.equal(moves("I've never found llama.cpp to be all that great at handling concurrent chats.").content.title, 'Show how llama.cpp compares on handling concurrent chats');
  assert.equal(moves("I haven't found Flash to be all that good.").content.title, 'Answer the complaint about Flash');
  assert.equal(moves("I couldn't find any documentation on the new flags.").content.title, "Publish what people can't find");
  assert.equal(moves("Ollama doesn't load on my machine.").content.title, 'Write the fix for Ollama not loading');
});

test('a negated quality gets the move of what it says: not usable fails, not clear confuses, not worth it is a complaint; not ready is missing', () => {
  assert.equal(moves('Generating unit tests with Qwen3-Coder-30B is not really usable.').content.title, 'Write the fix for Qwen3-Coder-30B failing');
  assert.equal(moves('But, they are not reliable enough.').content.title, 'Write the fix for this failure');
  assert.equal(moves('The docs are not clear about the flags.').content.title, 'Write the plain guide to docs');
  assert.equal(moves('It is quite often not worth the maintenance headache.').content.title, 'Answer the complaint about maintenance headache');
  assert.equal(moves('Local models are still not ready for production.').content.title, 'Show the best way to get it today');
});

test('a move that names nothing can be said about a subject; one that names something, a walkthrough and a missing thing cannot', () => {
  const about = (sentence: string, subject: string) => aboutSubject(moves(sentence).content, subject)?.title;
  assert.equal(about('It keeps crashing after a few prompts.', 'LM Studio'), 'Write the fix for LM Studio failing');
  assert.equal(about('Having issues with it since the update.', 'GPUs'), 'Write the fix for the issues with GPUs');
  assert.equal(about('It is way too expensive.', 'GPUs'), 'Break down what GPUs really cost');
  assert.equal(about('It is painfully slow.', 'prompt processing'), 'Show how to make prompt processing faster');
  assert.equal(about('The new Ollama release keeps crashing.', 'LM Studio'), undefined);
  assert.equal(about("I'm so confused by all of this.", 'LM Studio'), undefined);
});

test('a task too long for a title is cut where a new clause starts, else before its last preposition that fits, never mid-phrase', () => {
  assert.equal(difficultTask("Recently I've been struggling with finding a MCP server so i can give it a YouTube video then it gives me its transcript."), 'finding a MCP server');
  assert.equal(difficultTask("I've been struggling to figure out what is causing the degradation as the token count increases with GLM 4.5 / GLM 4.5 Air."), 'figure out what is causing the degradation');
  assert.equal(difficultTask("I'm struggling with getting it to properly output unified diff format for automated code updates to existing files in large repositories."), 'getting it to properly output unified diff format for automated code updates');
  // Short enough: as written.
  assert.equal(difficultTask('I had some trouble getting the reranker to load while the server was busy.'), 'getting the reranker to load while the server was busy');
});

test('forum shorthand is never the subject: "slow af" is slow, not "af"', () => {
  const title = moves('i set 4000 and its fast and inaccurate but 50,000 is slow af').content.title;
  assert.doesNotMatch(title, /\baf\b/, title);
});

test('a move is read back to its subject and written again about another (moveSubject)', () => {
  const readBack = (sentence: string, products: string[] = []) => {
    const move = moves(sentence, products).content;
    return { move, read: moveSubject(move, sentence, 'LocalLLaMA', 'Quantforge') };
  };
  const slow = readBack('Gemma was painfully slow on my laptop.', ['Gemma']);
  assert.equal(slow.read?.subject, 'Gemma');
  const faster = slow.read!.about('Ollama');
  assert.equal(faster.title, 'Show how to make Ollama faster');
  assert.match(faster.body, /measured numbers for Ollama on common setups/);
  // Plural agreement is written again for the new subject: "what GPUs cost", "what Claude costs".
  const cost = readBack('The GPUs are way too expensive for my side project.');
  assert.equal(cost.read?.subject, 'GPUs');
  assert.equal(cost.read!.about('Claude').title, 'Break down what Claude really costs');
  // Moves that keep their own subject, name nothing, or were written for another product are not read back.
  assert.equal(readBack('I find LM Studio hard to set up.', ['LM Studio']).read, undefined);
  assert.equal(moveSubject({ title: 'Write the fix for this failure', body: 'x' }, 'It crashed.', 'LocalLLaMA', 'Quantforge'), undefined);
  const crash = moves('Gemma keeps crashing on my laptop.', ['Gemma']).content;
  assert.equal(moveSubject(crash, 'Gemma keeps crashing on my laptop.', 'LocalLLaMA', 'Quantforge')?.subject, 'Gemma');
  assert.equal(moveSubject(crash, 'Gemma keeps crashing on my laptop.', 'LocalLLaMA', 'EvalKit'), undefined, 'its body names Quantforge');
});

test('hardware too small for a model gets what runs where, in the memory the writer names; a tool that will not run, an out-of-memory error and cards that do not fit keep their fix', () => {
  const named = moves("I can't run 24b 27b models on my 8gb 3060ti card.");
  assert.equal(named.content.title, 'Show what runs in 8 GB');
  assert.match(named.content.body, /held back by the hardware they have, not by a bug\. Publish what fits where, starting with 8 GB:/);
  assert.equal(named.position, undefined);
  assert.equal(moves('(Lord knows I can\'t run this on my 4GB of VRAM)').content.title, 'Show what runs in 4 GB of VRAM');
  assert.equal(moves('64GB is not enough to run medium models').content.title, 'Show what runs in 64 GB');
  assert.equal(moves('128gb is nice, but in the end just not enough to work with.').content.title, 'Show what runs in 128 GB');
  assert.equal(moves("Maybe just needed better instructions, But I can't run the 72B model on my rig").content.title, 'Show what runs on which hardware');
  // A multiple is not the memory the writer has ("2x16gb" is 32 GB), so no amount is named.
  assert.equal(moves("Having 4080 super and 2x16gb ram couldn't run the new openai 120b model.").content.title, 'Show what runs on which hardware');
  for (const sentence of [
    "It can't even run cline....",
    "Runpod isn't too hard, but still doesn't fit your requirements.",
    'I have a RTX 8000 and every so often it gives me a Cuda out of memory error.',
    "My case can't fit both cards vertically.",
    "I can't really add a third card since the motherboard just wouldn't fit that many.",
    'Particularly, I was unable to run RDNA2 and RDNA3 cards together with same app instance.',
    // A model's size is no hardware: software that will not run it fails.
    'Llama-3_3-Nemotron-Super-49B-v1-mlx-4bit cannot be run in lm studio',
    "I'm a sad user who can't run GLM 4.5 Air yet because I'm using llama.cpp, unlike the GLM 4 9b model.",
  ]) assert.match(moves(sentence).content.title, /^Write the fix/, sentence);
});

test("a fix says how the failure shows when the sentence says it (crashing, throwing errors, hallucinating, not loading); mistakes, talk and a frozen part are no symptom", () => {
  assert.equal(moves('Since then, LM Studio crashes every time I try to open it.', ['LM Studio']).content.title, 'Write the fix for LM Studio crashing');
  assert.equal(moves('I tried it with vLLM and I got all kinds of errors.', ['vLLM']).content.title, 'Write the fix for vLLM throwing errors');
  assert.equal(moves('Qwen3 hallucinates file names in every answer.').content.title, 'Write the fix for Qwen3 hallucinating');
  assert.equal(moves('Mistral Small gives me garbage after the first reply.').content.title, 'Write the fix for Mistral Small producing garbage');
  for (const [sentence, title] of [
    ['The draft has so many grammatical errors in every chapter.', /failing$|this failure$/],
    ["It's the same nonsense people were saying about Amazon for years.", /failing$|this failure$|complaint/],
    ['The latents are pushed back through the frozen VAE decoder and the output breaks.', /failing$|this failure$/],
  ] as const) assert.match(moves(sentence).content.title, title, sentence);
  // Read back, the move is about its subject and its symptom; about another subject it says only that it fails.
  const quote = 'Since then, LM Studio crashes every time I try to open it.';
  const read = moveSubject(moves(quote, ['LM Studio']).content, quote, 'LocalLLaMA', 'Quantforge');
  assert.equal(read?.subject, 'LM Studio');
  assert.equal(read?.about('Ollama').title, 'Write the fix for Ollama failing');
});

test('a complaint that says what is bad gets a side-by-side on exactly that; the cue word leaves its subject', () => {
  const named = moves('had to fine-tune qwen since llama sucks at summarizing', ['Llama']);
  assert.equal(named.content.title, 'Show how Llama compares on summarizing');
  assert.match(named.content.body, /publish Llama side by side with the alternatives on summarizing/);
  assert.ok(named.position, 'a named product still gets its positioning move');
  assert.equal(moves('Honesty, I am a bit disappointed with Qwen3-235b models at least in terms of academic writing.').content.title, 'Show how Qwen3-235b models compare on academic writing');
  // Nothing named to compare: the aspect is what the complaint is about.
  assert.equal(moves("It's decent at logic and coding, but it's creative writing is horrible.").content.title, 'Answer the complaint about creative writing');
  assert.equal(moves('Most models suck at agentic workflows in general though.').content.title, 'Answer the complaint about agentic workflows');
  // A complaint that names no aspect keeps its move, about the phrase without the cue word.
  assert.equal(moves('Kobold comes with a horrible web UI.').content.title, 'Answer the complaint about web UI');
  assert.equal(moves('Nope, my first thought was "Q2_K is trash".').content.title, 'Answer the complaint about Q2_K');
});
