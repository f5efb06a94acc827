/**
 * What a complaint says its subject does badly (move-aspect.ts): the activity or thing after the
 * cue's "at", "in terms of", or a direct "in"/"for" with an activity, or the phrase something owns
 * before the cue; nothing for where, for whom, idioms, pronouns or numbers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { complaintAspect } from './move-aspect.ts';
import { tag } from './nlp.ts';
import { readPain } from './pain.ts';

function aspect(sentence: string): string | undefined {
  const tokens = tag(sentence);
  const reading = readPain(tokens, sentence);
  assert.ok(reading, `not read as a pain: ${sentence}`);
  return complaintAspect(tokens, reading.cue);
}

test('what it is bad at: a thing or an activity after "at", with its object', () => {
  assert.equal(aspect('had to fine-tune qwen since llama sucks at summarizing'), 'summarizing');
  assert.equal(aspect('Most models suck at agentic workflows in general though.'), 'agentic workflows');
  // The tagger reads these objects as verbs; the object still runs to the next function word.
  assert.equal(aspect("I've also noticed this model kinda sucks at following prompts."), 'following prompts');
  assert.equal(aspect("I've never found llama.cpp to be all that great at handling concurrent chats."), 'handling concurrent chats');
  // Past what it is measured against.
  assert.equal(aspect("I was so happy but its even worse than glm 4.5 at coding"), 'coding');
});

test('"in terms of", and an activity right after the cue with "in" or "for"', () => {
  assert.equal(aspect('Hunyuan A13B feels really bad in terms of hallucinations, but im not sure why.'), 'hallucinations');
  assert.equal(aspect('Honesty, I am a bit disappointed with these models at least in terms of academic writing.'), 'academic writing');
  assert.equal(aspect('Is it just me, or Gemma 3n really sucks in recognizing images?'), 'recognizing images');
  assert.equal(aspect('Now to pass judgment, gpt 20 has been useless for coding so far.'), 'coding');
});

test('what something owns, said before the cue ("its vision sucks", the slip "it\'s creative writing")', () => {
  assert.equal(aspect('I have tried Llama 4 Scout and its vision sucks, other models are way better.'), 'vision');
  assert.equal(aspect("It's decent at logic and coding, but it's creative writing is horrible."), 'creative writing');
});

test('no aspect: where, for whom, an idiom, a pronoun, a number, a quote, another clause', () => {
  assert.equal(aspect('Still no support of MLX, still useless on macOS.'), undefined);
  assert.equal(aspect('phone sized models are absolutely USELESS garbage only fit for testing.'), undefined);
  assert.equal(aspect('The new release is awful at all the things I tried.'), undefined);
  assert.equal(aspect('Meta has loads of models, it’s just they are terrible at productizing them'), undefined);
  assert.equal(aspect('Gemma 3 12B becomes useless at 8GB VRAM.'), undefined);
  assert.equal(aspect('regular RAG kinda sucks at resolving “who did what when” in long chats.'), undefined);
  assert.equal(aspect('The performance sucks, but I keep it for chat at night.'), undefined);
  assert.equal(aspect('It always gets in my way and slows me down… I find it annoying.'), undefined);
});
