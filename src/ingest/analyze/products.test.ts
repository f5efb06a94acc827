/**
 * Product names (DESIGN §8.2): what counts (tracked names anywhere, others in a product context),
 * what never does (the non-products real runs produced: "when I", "CS", "English", "Spring Break",
 * "Monday", "Mexico", "China", "288.0 GB", "under Linux"), and one product per spelling family.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tag } from './nlp.ts';
import { familyKey, knownNames, linkSites, productMatcher, trackedProducts } from './products.ts';
import { passages, sentences } from './text.ts';
import { fixtureThreads } from '../../../test/helpers/reddit-export.ts';

const find = (sentence: string, tracked: string[] = ['Ollama', 'LM Studio', 'llama.cpp'], own = 'Quantforge') =>
  productMatcher(trackedProducts(tracked), own).find(tag(sentence), sentence);

describe('product names', () => {
  test('tracked products anywhere, however they are spelled, in the memory spelling', () => {
    assert.deepEqual(find('ollama and lmstudio both choke on llamacpp builds'), ['LM Studio', 'llama.cpp', 'Ollama']);
    assert.deepEqual(find('OLLAMA is fine'), ['Ollama']);
  });

  test('untracked names in a product context: use, switch, alternative to, vs, than, lists', () => {
    assert.deepEqual(find('I switched from Zoom to Google Meet because calls kept dropping.'), ['Zoom', 'Google Meet']);
    assert.deepEqual(find('Is there an alternative to Chegg or Quizlet that is free?'), ['Chegg', 'Quizlet']);
    assert.deepEqual(find('My teammates use Discord vs Slack for everything.'), ['Discord', 'Slack']);
    assert.deepEqual(find('I run everything with Docker these days.'), ['Docker']);
    assert.deepEqual(find('We use Canvas for quizzes and it keeps crashing.'), ['Canvas']);
    assert.deepEqual(find('It has been a while, but IIRC llama.cpp wasn’t deterministic.', []), ['llama.cpp'], 'shorthand opens no name');
    // Nor does a word capitalised only because it opens the sentence.
    assert.deepEqual(find('Also Msty keeps crashing on my Mac.', []), ['Msty']);
    assert.deepEqual(find('Because Zentara Code keeps crashing, I use Cline now.', []), ['Zentara Code', 'Cline']);
    assert.deepEqual(find('If Canvas keeps crashing again I will switch.', []), ['Canvas']);
  });

  test('a plural of a name the community knows says what the name says; a closing period is not part of a name', () => {
    // GGUF (a file format) and Mac (hardware) are never products in the shipped lists; Docker is one.
    assert.deepEqual(find('I switched to GGUFs and tried Macs for this.'), []);
    assert.deepEqual(find('I run everything with Dockers these days.'), ['Docker']);
    // A plural whose singular nobody labelled goes by the ordinary rules.
    assert.deepEqual(find('I switched to Koboldcpps.'), ['Koboldcpps']);
    assert.deepEqual(find('Last month I switched to Docker.'), ['Docker']);
    assert.deepEqual(find('Honestly I just switched to Zoom.'), ['Zoom']);
  });

  test('a product the community knows counts typed in lower case, when the word is no English word, in the labels’ spelling', () => {
    assert.deepEqual(find('Just transformers or have you tried unsloth?', []), ['Unsloth']);
    assert.deepEqual(find('Install sillytavern on your computer and use it from your phone.', []), ['SillyTavern']);
    assert.deepEqual(find('I tried the unsloth Colab notebook yesterday.', []), ['Unsloth'], 'one word: not "unsloth Colab"');
    // "docker", "perplexity", "cursor" are English words: only their capitals, or tracking, make them products.
    assert.deepEqual(find('I measured it with perplexity and ran it with docker.', []), []);
  });

  test('what a program reads is no product: file names, environment variables, quantisation levels', () => {
    assert.deepEqual(find('I switched to settings.json for the config and tried tts.py.', []), []);
    assert.deepEqual(find('I use CUDA_VISIBLE_DEVICES and llama-server.exe every day.', []), []);
    assert.deepEqual(find('I switched from Q4_K_M to IQ4XS and then tried FP16.', []), []);
    // Names that end like code or use a separator stay names.
    assert.deepEqual(find('I switched from Transformers.js to llama.cpp and then tried LM_Studio.', []), ['Transformers.js', 'llama.cpp', 'LM_Studio']);
  });

  test('a failure is something a product does, not what a person says or thinks', () => {
    assert.deepEqual(find('If you listen closely, Zuck doesn’t specify what is being used.'), []);
    assert.deepEqual(find('Honestly Altman doesn’t think about local users at all.'), []);
    assert.deepEqual(find('For me Koboldcpp doesn’t support tool calling.'), ['Koboldcpp']);
    assert.deepEqual(find('For me Koboldcpp doesn’t seem to load anything.'), ['Koboldcpp']);
  });

  test('no context, no product: a capitalised word alone is not a name', () => {
    assert.deepEqual(find('Zoom was down again today.'), []);
    assert.deepEqual(find('Hate it. Group projects are the worst.'), []);
  });

  test('never products: places, people, dates, holidays, languages, platforms, units, acronyms, fragments', () => {
    for (const s of [
      'When I tried it on Monday in Mexico it failed.',
      'I moved to CS after Spring Break and took English with Professor Smith.',
      'China released a model with 288.0 GB weights, running under Linux.',
      'I switched to Python and then moved to Windows in December.',
      'We compared it with AMD GPUs and System VRAM limits.',
      'Christmas break was better than Thanksgiving this year.',
      'OpenAI released a new model and Alibaba announced another.',
      // People compromise does not know, named like products in this community.
      'Compared to Musk and Zuck, I trust nobody: Zuck vs Altman is the real fight.',
      'It’s the case with Elon Musk.',
      // Compound adjectives and kinds of hardware.
      'I switched to CPU-only inference and compared it with AI-generated code on my iGPU.',
      // Forum shorthand, capitalised or not.
      'Quantization is still a mystery to me LoL.',
      'With this (which AFAIK doesn’t exist yet) the data won’t have an address.',
      'I said that Asian companies are better in quality than American.',
    ]) {
      assert.deepEqual(find(s), [], s);
    }
  });

  test('a benchmark is no product: a name with a "bench" part, or one a score is reported on, next to it', () => {
    assert.deepEqual(find('Kimi K2 is also first place in EQ-Bench, btw.', []), []);
    assert.deepEqual(find('Performance of the new coder on SWE-bench Verified!', []), []);
    assert.deepEqual(find('32B scored 81.2% on Aider Polyglot...', []), []);
    assert.deepEqual(find('For instance, in GPQA Diamond, the lite model achieves 53.79%.', []), []);
    // A score said elsewhere in the sentence, or a bare percentage, is not about the name.
    assert.deepEqual(find('Qwen3 scores 70 on HumanEval and runs fine in Msty', []), ['Msty']);
    assert.deepEqual(find('I get 90% GPU use on Msty with the new build', []), ['Msty']);
  });

  test('one product per spelling family; an untracked versioned name is a release, not a product', () => {
    for (const name of ['Qwen', 'Qwen3', 'Qwen3-32B', 'qwen-3']) assert.equal(familyKey(name), 'qwen', name);
    assert.equal(familyKey('Claude 3.5 Sonnet'), 'claude');
    assert.equal(familyKey('GPT4All'), 'gpt4all', 'letters after the digits are part of the name');
    assert.deepEqual(find('Claude 3.5 Sonnet is better than GPT-4o here.', ['Claude']), ['Claude']);
    assert.deepEqual(find('I tried Qwen3-32B and switched to Llama 3 instead of it.'), []);
  });

  test('a tracked name that opens a longer name the labels call a product is that product, not the tracked one', () => {
    // The shipped lists know "Claude Code" and "Gemini CLI" as products of their own.
    assert.ok(knownNames().products.includes('claudecode') && knownNames().products.includes('geminicli'));
    assert.deepEqual(find('I use Claude Code every day.', ['Claude']), ['Claude Code']);
    assert.deepEqual(find('Gemini CLI keeps crashing on me.', ['Gemini']), ['Gemini CLI']);
    assert.deepEqual(find('Claude Code Router works with Ollama.', ['Claude', 'Ollama']), ['Claude Code', 'Ollama']);
    // The tracked product itself, named again later in the sentence, still counts.
    assert.deepEqual(find('I moved from claude-code back to plain Claude.', ['Claude']), ['claude-code', 'Claude']);
    // Versions and other following words keep the tracked family.
    assert.deepEqual(find('Claude 3.5 Sonnet writes better code.', ['Claude']), ['Claude']);
    assert.deepEqual(find('I asked Claude Today to fix it.', ['Claude']), ['Claude']);
    // A project tracking the longer name gets its own spelling back.
    assert.deepEqual(find('I use claude code every day.', ['Claude', 'Claude Code']), ['Claude Code']);
  });

  test("a link names a product when the labels agree its site's links do, in the labels' spelling", () => {
    assert.deepEqual(knownNames().links.huggingface, 'Hugging Face');
    assert.deepEqual(find('Weights: https://huggingface.co/openai/gpt-oss-120b'), ['Hugging Face']);
    assert.deepEqual(find('Latest from them (see [here](https://www.huggingface.co/unsloth/x/blob/main)).'), ['Hugging Face']);
    // A site the labels split on (GitHub: half the posts linking there) or never saw says nothing.
    assert.deepEqual(find('Code is at https://github.com/foo/bar and docs at https://example.org/x.'), []);
    // Without a scheme it is text, read by the name rules (here: a known name after "on").
    assert.deepEqual(find('I saw it on huggingface.co yesterday.'), ['huggingface.co']);
    assert.deepEqual(find('It is huggingface.co stuff.'), []);
    // A tracked product's own site is the tracked product, once.
    assert.deepEqual(find('Get it from https://ollama.com/download, Ollama is easy.', ['Ollama']), ['Ollama']);
  });

  test('the site of a link is the name under its public suffix', () => {
    assert.deepEqual(linkSites('https://huggingface.co/x http://docs.vllm.ai/en https://user.github.io/p https://www.bbc.co.uk/news'), ['huggingface', 'vllm', 'github', 'bbc']);
    // A short name under a country-code domain is the site, not a suffix: docs.jan.ai is Jan's.
    assert.deepEqual(linkSites('https://docs.jan.ai/quickstart https://api.abc.de/v1'), ['jan', 'abc']);
    assert.deepEqual(linkSites('no links here, only huggingface.co'), []);
  });

  test('a project tracking two members of a family keeps them apart (the longest tracked name wins)', () => {
    assert.deepEqual(find('Qwen3-Coder beats Qwen on this.', ['Qwen', 'Qwen3-Coder']).sort(), ['Qwen', 'Qwen3-Coder']);
    assert.deepEqual(find('Qwen3-Coder is my daily driver.', ['Qwen', 'Qwen3-Coder']), ['Qwen3-Coder']);
  });

  test('the project is never its own competitor', () => {
    assert.deepEqual(find('Quantforge vs Ollama for hosted inference', ['Ollama']), ['Ollama']);
  });
});

test('a versioned spelling of a tracked family counts anywhere, as the tracked product', () => {
  assert.deepEqual(find('Qwen3-32B keeps looping on long prompts.', ['Qwen']), ['Qwen']);
});

describe('the cheap test before tagging (mightName)', () => {
  test('says "might" of every fixture sentence in which find() finds a name', () => {
    const matcher = productMatcher(trackedProducts(['Ollama', 'LM Studio']), 'Quantforge');
    const missed: string[] = [];
    let named = 0;
    for (const thread of fixtureThreads()) {
      for (const { text } of passages(thread)) {
        for (const sentence of sentences(text)) {
          if (matcher.find(tag(sentence), sentence).length === 0) continue;
          named += 1;
          if (!matcher.mightName(sentence)) missed.push(sentence);
        }
      }
    }
    assert.ok(named > 300, `only ${named} sentences name a product`);
    assert.deepEqual(missed, []);
  });

  test('spares a sentence whose capitals have no cue word near them, and only such a sentence', () => {
    const matcher = productMatcher(trackedProducts(['Ollama']), 'Quantforge');
    const noCue = 'The Qwen team did great work on this release.';
    assert.equal(matcher.mightName(noCue), false);
    assert.equal(matcher.holdsCandidate(noCue), true, 'the trainer still counts its names');
    assert.equal(matcher.mightName('I switched over to the new Qwen release.'), true, 'past determiners and "new"');
    assert.equal(matcher.mightName('That is job security for lawyers, police...and RoboCop.'), true, 'a cue glued to a word by dots');
    assert.equal(matcher.mightName('Honestly Mistral keeps crashing here.'), true, 'a cue after the name');
    assert.equal(matcher.mightName('We tested ollama here.'), true, 'a tracked name anywhere');
  });
});
