/**
 * The analyzer's quality floor (docs/quality.md): scores on the HELD-OUT half of the hand labels
 * (labelled blind, never read post by post while writing rules) may not fall below what the docs
 * report. Raise these numbers when the rules get better; a change that lowers them has to say why
 * in docs/quality.md first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateBySet, loadLabels, loadThemeLabels } from './quality/evaluate.ts';
import { heldOutAgreement, loadSecondLabels } from './quality/agreement.ts';
import { groupingBySet } from './quality/grouping.ts';
import { leadFixture, scoreBrief, scoreLeads, shippedLead } from './quality/leads.ts';

/** As reported in docs/quality.md (`npm run quality`), held-out half, rounded down. */
const FLOOR = {
  painPrecision: 0.54,
  // Lower than the 0.45 of the pure rules: the pain model trades recall for precision (F0.5);
  // on the 500 training posts its recall is above the rules' (docs/quality.md).
  painRecall: 0.43,
  productPrecision: 0.8,
  productRecall: 0.6,
  trackedRecall: 0.96,
  groupingPrecision: 0.5,
  // 1 of 8 held-out pairs: one true pair, as before the comment gate (1 of 7), out of one more
  // labelled pair (docs/quality.md, "Pains in comments", says why); see there too how little these pairs say.
  groupingRecall: 0.12,
};

test('the rules analyzer scores at least what docs/quality.md reports on the held-out half', () => {
  const { heldout: s } = evaluateBySet();
  const { heldout: g } = groupingBySet();
  assert.equal(s.posts, 120);
  const got = {
    painPrecision: s.painPrecision,
    painRecall: s.painRecall,
    productPrecision: s.productPrecision,
    productRecall: s.allRecall,
    trackedRecall: s.trackedRecall,
    groupingPrecision: g.precision,
    groupingRecall: g.recall,
  };
  for (const [name, floor] of Object.entries(FLOOR)) {
    const value = got[name as keyof typeof got];
    assert.ok(value >= floor, `${name} ${value.toFixed(3)} < ${floor}`);
  }
});

test('the labels are verbatim and complete; every pain post has one theme label', () => {
  const themes = loadThemeLabels();
  const themeIds = new Set(themes.themes.map((t) => t.id));
  const { all } = evaluateBySet();
  assert.equal(all.posts, 240);
  assert.equal(new Set(loadLabels().map((l) => l.id)).size, 240, 'no post is labelled twice');
  for (const r of all.results) {
    for (const quote of r.label.quotes) assert.ok(r.post.title.includes(quote) || r.post.selftext.includes(quote), `${r.label.id}: ${quote}`);
    assert.equal(r.label.pain, r.label.quotes.length > 0, `${r.label.id}: a pain label has quotes, a no-pain label none`);
    const theme = themes.posts[r.label.id];
    if (r.label.pain) assert.ok(theme !== undefined && themeIds.has(theme), `${r.label.id}: a pain post has a known theme`);
    else assert.equal(theme, undefined, `${r.label.id}: a post without pain has no theme`);
  }
});

test('the second labelling of the held-out half is complete and verbatim; its agreement is what docs/quality.md reports', () => {
  const agreed = heldOutAgreement();
  assert.equal(agreed.posts, 120);
  // agreement() throws when a post lacks a second label; quotes are checked like the first labels'.
  const a = loadSecondLabels();
  assert.equal(new Set(a.map((l) => l.id)).size, 120);
  const threads = new Map(evaluateBySet().all.results.map((r) => [r.label.id, r.post]));
  for (const l of a) {
    const post = threads.get(l.id)!;
    for (const quote of l.quotes) assert.ok(post.title.includes(quote) || post.selftext.includes(quote), `${l.id}: ${quote}`);
    assert.equal(l.pain, l.quotes.length > 0, l.id);
  }
  assert.deepEqual([agreed.hits, agreed.otherPain, agreed.referencePain], [52, 56, 53]);
});

test('a brief item leads with a pain about its theme at least as often as docs/quality.md reports (held-out themes)', () => {
  const themes = leadFixture();
  assert.equal(themes.length, 40);
  assert.ok(themes.every((t) => t.signals.length > 0 && t.signals.length <= 10));
  const heldOut = themes.slice(20);
  const shipped = scoreLeads(heldOut, shippedLead);
  const bestReceived = scoreLeads(heldOut, (t) => t.signals[0]!);
  // 14 of 20 when measured (the best-received quote: 3 of 20).
  assert.ok(shipped.good >= 14, `${shipped.good} of 20`);
  assert.ok(shipped.good > bestReceived.good);
});

test('under the titles of 2026-11-26 too, a brief leads with a pain about its title as often as docs/quality.md reports (held-out themes)', () => {
  const themes = leadFixture('brief-leads-2026-11-26.json');
  assert.equal(themes.length, 40);
  const heldOut = themes.slice(20);
  const shipped = scoreLeads(heldOut, shippedLead);
  const bestReceived = scoreLeads(heldOut, (t) => t.signals[0]!);
  // 13 of 20 when measured (the best-received quote: 6 of 20); the brief's five items: 5 of 5.
  assert.ok(shipped.good >= 13, `${shipped.good} of 20`);
  assert.ok(shipped.good > bestReceived.good);
  const brief = scoreBrief(heldOut);
  assert.equal(brief.items, 5);
  assert.ok(brief.good >= 5, `${brief.good} of ${brief.items}`);
});

test('a brief shows themes that hold one problem: its items lead with a pain about their title at least as often as docs/quality.md reports (held-out themes)', () => {
  const heldOut = leadFixture().slice(20);
  const gated = scoreBrief(heldOut);
  const everyTheme = scoreBrief(heldOut, false);
  // 5 of 5 when measured (every theme shown: 4 of 5).
  assert.equal(gated.items, 5);
  assert.ok(gated.good >= 5, `${gated.good} of ${gated.items}`);
  assert.ok(gated.good >= everyTheme.good);
});
