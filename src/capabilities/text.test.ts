import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clip, fitBlocks, TEXT_MAX } from './text.ts';

const rest = () => 'Ask for page 2.';

test('a text of exactly TEXT_MAX characters is whole; one more character cuts it', () => {
  // 1,000 lines of 99 characters and 999 newlines: 99,999; the last line one longer makes 100,000.
  const exact = Array.from({ length: 1_000 }, () => `- ${'x'.repeat(97)}`);
  exact[999] = `- ${'x'.repeat(98)}`;
  const whole = exact.join('\n');
  assert.equal(whole.length, TEXT_MAX);
  assert.equal(fitBlocks(exact, rest), whole, 'at the bound: nothing cut');

  const over = [...exact.slice(0, 999), `${exact[999]}z`];
  assert.equal(over.join('\n').length, TEXT_MAX + 1);
  const cut = fitBlocks(over, rest);
  assert.ok(cut.length <= TEXT_MAX, `${cut.length}`);
  const lines = cut.split('\n');
  assert.match(lines.at(-1)!, /^- \[Cut here: the full answer is 100,001 characters, over the 100,000 a text answer holds\. Ask for page 2\.\]$/);
  // Whole blocks only, in order, before the cut line.
  for (const [i, l] of lines.slice(0, -1).entries()) assert.equal(l, over[i]);
});

test('the cut line tells the rest function how many blocks were shown', () => {
  const blocks = Array.from({ length: 300 }, (_, i) => `- item ${i} ${'y'.repeat(990)}`);
  let seen = { shown: -1, total: -1, partial: true };
  const text = fitBlocks(blocks, (cut) => {
    seen = cut;
    return `${cut.shown} of ${cut.total} shown.`;
  });
  assert.equal(seen.partial, false);
  assert.equal(seen.total, 300);
  assert.equal(text.split('\n').length, seen.shown + 1);
  assert.ok(text.endsWith(`${seen.shown} of 300 shown.]`));
  assert.ok(text.length <= TEXT_MAX && text.length > TEXT_MAX - 2_000, `${text.length}`);
});

test('a first block longer than the bound is cut at a line boundary, and says so', () => {
  const thread = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'z'.repeat(40)}`).join('\n');
  let partial = false;
  const text = fitBlocks([thread, '- after'], (cut) => {
    partial = cut.partial;
    return 'Read the rest at the link.';
  });
  assert.equal(partial, true);
  assert.ok(text.length <= TEXT_MAX);
  const lines = text.split('\n');
  for (const l of lines.slice(0, -1)) assert.match(l, /^line \d+ z{40}$/, 'no line is broken in the middle');
  assert.ok(!text.includes('- after'));
});

test('a cut line longer than its room is shortened, so the bound holds whatever the message', () => {
  const blocks = Array.from({ length: 200 }, () => 'w'.repeat(999));
  const text = fitBlocks(blocks, () => 'm'.repeat(5_000));
  assert.ok(text.length <= TEXT_MAX);
  assert.ok(text.endsWith(']'));
});

test('clip keeps short values and cuts long ones at a word, with an ellipsis', () => {
  assert.equal(clip('short\nvalue'), 'short value');
  const long = 'word '.repeat(100);
  const clipped = clip(long, 50);
  assert.ok(clipped.length <= 50);
  assert.ok(clipped.endsWith('word…'));
});
