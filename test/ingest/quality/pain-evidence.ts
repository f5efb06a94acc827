/**
 * Four more sources of evidence for telling pains apart, measured on labels made before, never the
 * held-out half (docs/quality.md, "Four more ways to tell pains apart"):
 *
 * 1. the daily-brief fixtures' blind "is the quote a pain" as training labels for the comment
 *    gate: 5-fold cross-validated AUC on the quotes both annotators agree on, against the shipped
 *    gate's;
 * 2. opening posts whose title announces or shows off something, left out of the pains;
 * 3. opening posts under flairs that rarely hold a pain, left out of the pains (needs the export
 *    for the flairs: SIGNALS_SHARED_DATA, default ../shared/data/reddit-localllama);
 * 4. help in the replies (2026-11-28, later): whether the replies a post or comment gets offer help
 *    ("have you tried…", "make sure…", "what GPU are you using?") says whether it voiced a problem,
 *    as AUC on the comment labels, the brief-lead labels and the labelled opening posts (needs
 *    the export for the replies).
 *
 * Both gates are scored post by post as `npm run quality` scores pains, on the 300 candidate
 * training posts (never trained on) and the 500 training posts.
 *
 *   node --import tsx test/ingest/quality/pain-evidence.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readPassage, threadReader } from '../../../src/ingest/analyze/rules.ts';
import { NO_KNOWN_NAMES, productMatcher, trackedProducts } from '../../../src/ingest/analyze/products.ts';
import { commentPainGate } from '../../../src/ingest/analyze/pain-model.ts';
import { linear, sigmoid, type Features } from '../../../src/ingest/analyze/linear-model.ts';
import { wordVectors } from '../../../src/ingest/analyze/vectors.ts';
import { foldOfKey, train } from '../../../scripts/logistic-regression.ts';
import { EVALUATION_MEMORY, overlaps, type Label } from './evaluate.ts';

const root = new URL('../../../', import.meta.url).pathname;
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(root, path), 'utf8')) as T;

interface Example {
  features: Features;
  positive: boolean;
  key: string;
}

/** Every rated quote of the daily-brief fixtures, with the annotators' "is it a pain" answers. */
function ratedQuotes(): Map<string, boolean[]> {
  const out = new Map<string, boolean[]>();
  const visit = (dir: string) => {
    const files = readdirSync(dir);
    if (files.includes('items.json')) {
      const items = JSON.parse(readFileSync(join(dir, 'items.json'), 'utf8')) as { id: string; quote: string }[];
      const answers = files.filter((f) => /^answers-\d\.json$/.test(f)).map((f) => new Map((JSON.parse(readFileSync(join(dir, f), 'utf8')) as { id: string; quote_pain: boolean }[]).map((a) => [a.id, a.quote_pain])));
      for (const item of items) for (const a of answers) if (a.has(item.id)) (out.get(item.quote) ?? out.set(item.quote, []).get(item.quote)!).push(a.get(item.id)!);
    }
    for (const f of files) if (statSync(join(dir, f)).isDirectory()) visit(join(dir, f));
  };
  visit(join(root, 'test/fixtures/quality/daily-briefs'));
  return out;
}

function auc(scored: { score: number; positive: boolean }[]): number {
  let won = 0;
  let pairs = 0;
  for (const a of scored) if (a.positive) for (const b of scored) if (!b.positive) {
    pairs++;
    won += a.score > b.score ? 1 : a.score === b.score ? 0.5 : 0;
  }
  return won / pairs;
}

function gateFromBriefLabels(): void {
  const products = productMatcher(trackedProducts([]), '', NO_KNOWN_NAMES);
  const gate = commentPainGate(wordVectors().dims);
  const brief: Example[] = [];
  for (const [quote, answers] of ratedQuotes()) {
    if (answers.length < 2 || answers.some((a) => a !== answers[0])) continue;
    // The quote read alone, as a comment: its sentence the gate likes best.
    const read = readPassage(quote, false, products).flatMap((r) => (r.features ? [r.features] : []));
    if (read.length === 0) continue;
    brief.push({ features: read.reduce((a, b) => (gate.probability(b) > gate.probability(a) ? b : a)), positive: answers[0]!, key: quote });
  }
  const comments: Example[] = readJson<{ comment: string; sentence: string; pain: boolean }[]>('fixtures/training/comment-pains.json').flatMap((l) => {
    const r = readPassage(l.comment, false, products).find((x) => x.sentence.startsWith(l.sentence.replace(/…$/, '')));
    return r?.features ? [{ features: r.features, positive: l.pain, key: l.sentence }] : [];
  });
  console.log(`\n1. Daily-brief quotes both annotators agree on: ${brief.length} (${brief.filter((e) => e.positive).length} pains); comment labels: ${comments.length}\n`);
  console.log('| lambda | shipped comment gate | trained on brief + comment labels | on brief labels alone |\n|---|---|---|---|');
  for (const lambda of [3, 10, 30, 100]) {
    const shipped: { score: number; positive: boolean }[] = [];
    const both: typeof shipped = [];
    const alone: typeof shipped = [];
    for (let f = 0; f < 5; f++) {
      const rest = brief.filter((e) => foldOfKey(e.key, 5) !== f);
      const w1 = train([...rest, ...comments], lambda);
      const w2 = train(rest, lambda);
      for (const e of brief.filter((x) => foldOfKey(x.key, 5) === f)) {
        shipped.push({ score: gate.probability(e.features), positive: e.positive });
        both.push({ score: sigmoid(linear(e.features, w1.dense, w1.hashed, w1.bias)), positive: e.positive });
        alone.push({ score: sigmoid(linear(e.features, w2.dense, w2.hashed, w2.bias)), positive: e.positive });
      }
    }
    console.log(`| ${lambda} | ${auc(shipped).toFixed(3)} | ${auc(both).toFixed(3)} | ${auc(alone).toFixed(3)} |`);
  }
}

/** "I built…", "…is out", "Introducing…", "released": a title that announces or shows off something. */
const ANNOUNCES = /^\s*\[?(?:release|released|new model|announcement|announcing|introducing|launch(?:ed|ing)?)\b|\b(?:i|we)\s+(?:just\s+)?(?:built|made|created|released|open[- ]?sourced|wrote|trained|fine[- ]?tuned|launched|published|developed)\b|\b(?:is|are)\s+(?:now\s+)?(?:out|here|live|available)\b|\bjust\s+(?:released|dropped|launched)\b|\breleased?\b|\bintroducing\b|\bannounc\w+/i;
/** Flairs of r/LocalLLaMA that seldom hold a pain. */
const QUIET_FLAIRS = new Set(['Resources', 'New Model', 'News', 'Funny', 'Generation', 'Tutorial | Guide']);

/** A file of the r/LocalLLaMA export the fixtures were drawn from. */
function exportFile(name: string): string {
  return join(process.env.SIGNALS_SHARED_DATA ?? join(root, '../shared/data/reddit-localllama'), name);
}

/** Each post's flair, from the export (empty without it). */
function flairs(): Map<string, string> {
  const file = exportFile('posts.jsonl.gz');
  if (!existsSync(file)) return new Map();
  return new Map(gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((line) => {
    const post = JSON.parse(line) as { id: string; link_flair_text?: string | null };
    return [post.id, post.link_flair_text ?? ''];
  }));
}

/** The export's comments (none without it). */
function exportComments(): { id: string; parentId: string; body: string }[] {
  const file = exportFile('comments.jsonl.gz');
  if (!existsSync(file)) return [];
  return gunzipSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((line) => {
    const c = JSON.parse(line) as { id: string; parent_id: string; body?: string | null };
    return { id: c.id, parentId: c.parent_id.slice(3), body: c.body ?? '' };
  });
}

/** Words of a reply that helps with a problem: a thing to try, a check, a question about the setup, the same trouble. */
const HELPS = /\b(?:try|tried|have you|did you|you need|you should|you can|you could|you might|make sure|check (?:if|that|your|the)|set (?:the|your)|use (?:the|a|--)|what (?:gpu|quant|version|os|backend|settings|are you|is your)|are you (?:using|running)|which (?:version|quant|gpu)|update|upgrade|downgrade|reinstall|same (?:issue|problem|here)|i had (?:the same|this)|fixed (?:it|this)|workaround|sounds like)\b/i;

/** Of the direct replies to each post or comment id: how many, and how many offer help. */
function replyHelp(comments: readonly { parentId: string; body: string }[]): Map<string, { replies: number; helping: number }> {
  const out = new Map<string, { replies: number; helping: number }>();
  for (const c of comments) {
    const e = out.get(c.parentId) ?? { replies: 0, helping: 0 };
    e.replies += 1;
    if (HELPS.test(c.body)) e.helping += 1;
    out.set(c.parentId, e);
  }
  return out;
}

function helpInReplies(): void {
  const comments = exportComments();
  if (comments.length === 0) return console.log('\n4. Help in the replies: no export, nothing measured');
  const help = replyHelp(comments);
  const idOf = (text: string) => comments.find((c) => c.body.includes(text))?.id;
  const share = (id: string) => {
    const e = help.get(id);
    return e ? e.helping / e.replies : 0;
  };
  const rows: [string, { id: string; positive: boolean }[]][] = [];
  rows.push(['comment labels (803)', readJson<{ comment: string; pain: boolean }[]>('fixtures/training/comment-pains.json').flatMap((l) => {
    const id = idOf(l.comment.trim());
    return id ? [{ id, positive: l.pain }] : [];
  })]);
  const leads = ['test/fixtures/quality/brief-leads.json', 'test/fixtures/quality/brief-leads-2026-11-26.json'].flatMap((f) => readJson<{ signals: { quote: string; pain: boolean }[] }[]>(f).flatMap((t) => t.signals));
  rows.push(['brief-lead quotes (800)', leads.flatMap((s) => {
    const id = idOf(s.quote);
    return id ? [{ id, positive: s.pain }] : [];
  })]);
  const posts = [...readJson<Label[]>('fixtures/training/localllama-labels.json'), ...readJson<Label[]>('fixtures/training/candidates/localllama-labels-501-800.json')];
  rows.push(['opening posts, 500 training + 300 candidates', posts.map((l) => ({ id: l.id, positive: l.pain }))]);
  // What would matter to the analyzer: among the posts it finds a pain in, are the real ones told apart?
  const read = threadReader(EVALUATION_MEMORY);
  const texts = new Map([...readJson<PostText[]>('fixtures/training/localllama-posts.json'), ...readJson<PostText[]>('fixtures/training/candidates/localllama-posts-501-800.json')].map((p) => [p.id, p]));
  const flagged = posts.filter((l) => read(openingPost(texts.get(l.id)!)).some((s) => s.kind === 'pain'));
  rows.push(['those the analyzer finds a pain in', flagged.map((l) => ({ id: l.id, positive: l.pain }))]);
  console.log('\n4. Help in the replies: does a post or comment whose replies offer help voice a problem? (AUC; 0.5 = no better than chance)\n');
  console.log('| labels | found in the export | pains | AUC, share of replies helping | with a helping reply: pains / others |\n|---|---|---|---|---|');
  for (const [name, labelled] of rows) {
    const scored = labelled.map((l) => ({ score: share(l.id), positive: l.positive }));
    const withHelp = (positive: boolean) => labelled.filter((l) => l.positive === positive && (help.get(l.id)?.helping ?? 0) > 0).length;
    const pains = labelled.filter((l) => l.positive).length;
    console.log(`| ${name} | ${labelled.length} | ${pains} | ${auc(scored).toFixed(3)} | ${withHelp(true)} of ${pains} / ${withHelp(false)} of ${labelled.length - pains} |`);
  }
}

/** A labelled training post as its fixture holds it. */
type PostText = { id: string; title: string; selftext?: string; text?: string };

/** The post as the analyzer reads an opening post: without its comments, as `npm run quality` does. */
function openingPost(p: PostText) {
  return { id: p.id, title: p.title, selftext: p.selftext ?? p.text ?? '', community: 'LocalLLaMA', author: '', url: '', permalink: '', postCreatedAt: '2025-07-01T00:00:00Z', score: 1, comments: [] };
}

/** Whether a post's opening post is left out of the pains. */
type Gate = (post: { id: string; title: string }) => boolean;

function postGates(): void {
  const flair = flairs();
  const read = threadReader(EVALUATION_MEMORY);
  const sets: [string, string, string][] = [
    ['300 candidate training posts (never trained on)', 'fixtures/training/candidates/localllama-posts-501-800.json', 'fixtures/training/candidates/localllama-labels-501-800.json'],
    ['500 training posts', 'fixtures/training/localllama-posts.json', 'fixtures/training/localllama-labels.json'],
  ];
  console.log('\n2–3. Opening posts left out of the pains, scored per post as `npm run quality` scores pains\n');
  console.log('| posts | gate | such posts labelled pain | precision | recall |\n|---|---|---|---|---|');
  for (const [name, postsFile, labelsFile] of sets) {
    const posts = new Map(readJson<PostText[]>(postsFile).map((p) => [p.id, p]));
    const labels = readJson<Label[]>(labelsFile);
    const gates: [name: string, gated: Gate][] = [
      ['none', () => false],
      ['title announces', (p) => ANNOUNCES.test(p.title)],
    ];
    if (flair.size > 0) gates.push(['quiet flair', (p) => QUIET_FLAIRS.has(flair.get(p.id) ?? '')]);
    const found = new Map(labels.map((l) => {
      const post = openingPost(posts.get(l.id)!);
      const quotes = read(post).filter((s) => s.kind === 'pain').map((s) => s.quote);
      return [l.id, { any: quotes.length > 0, hit: l.pain && quotes.some((q) => l.quotes.some((x) => overlaps(post, q, x))) }];
    }));
    const painPosts = labels.filter((l) => l.pain).length;
    for (const [gateName, gated] of gates) {
      const held = labels.filter((l) => gated(posts.get(l.id)!));
      const kept = labels.filter((l) => !gated(posts.get(l.id)!) && found.get(l.id)!.any);
      const hits = kept.filter((l) => found.get(l.id)!.hit).length;
      const such = gateName === 'none' ? '—' : `${held.filter((l) => l.pain).length} of ${held.length}`;
      console.log(`| ${name} | ${gateName} | ${such} | ${(hits / kept.length).toFixed(3)} (${hits}/${kept.length}) | ${(hits / painPosts).toFixed(3)} (${hits}/${painPosts}) |`);
    }
  }
}

gateFromBriefLabels();
postGates();
helpInReplies();
