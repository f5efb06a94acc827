/**
 * `npm run quality`: the analyzer's scores against the hand labels, per half (docs/quality.md).
 * The held-out half is the honest figure. `--details` lists the misses and false alarms of the
 * TUNING half only: held-out posts are never shown one by one, so rules cannot drift towards them
 * (`--final` adds the held-out half's top products, for the report in docs/quality.md).
 *
 * `--analyzer llm` scores the `llm` analyzer instead, on the endpoint the LLM_* variables name
 * (docs/llm.md): the pain and product figures, from one run over the 240 labelled opening posts.
 * No figure is printed when the run fell back to `rules` for any post: it would be a blend of the
 * two.
 */
import { parseArgs } from 'node:util';
import type { Analyzer } from '../../../src/ingest/analyze/analyzer.ts';
import { LlmConfigError } from '../../../src/ingest/analyze/llm.ts';
import { familyKey as familyOf } from '../../../src/ingest/analyze/products.ts';
import { rulesAnalyzer } from '../../../src/ingest/analyze/rules.ts';
import { analyzerFromEnv } from '../../../src/ingest/analyze/select.ts';
import { heldOutAgreement } from './agreement.ts';
import { evaluateAnalyzer, evaluateBySet, type LabelSet, type Scores } from './evaluate.ts';
import { groupingBySet, type GroupingScores } from './grouping.ts';

type Halves = Record<LabelSet | 'all', Scores>;

const f = (x: number) => x.toFixed(3);
const PAIN_AND_PRODUCTS: [string, (s: Scores) => string][] = [
  ['pain precision', (s) => `${f(s.painPrecision)} (${s.truePositives}/${s.predictedPainPosts})`],
  ['pain recall', (s) => `${f(s.painRecall)} (${s.truePositives}/${s.painPosts})`],
  ['product precision (top 20)', (s) => `${f(s.productPrecision)} (${s.topProducts.filter((p) => p.product).length}/${s.topProducts.length})`],
  ['product recall (all)', (s) => `${f(s.allRecall)} (${s.allFound}/${s.allMentions})`],
  ['product recall (tracked)', (s) => `${f(s.trackedRecall)} (${s.trackedFound}/${s.trackedMentions})`],
];
const GROUPING: [string, (g: GroupingScores) => string][] = [
  ['grouping precision (pairs)', (g) => `${f(g.precision)} (${g.truePairs}/${g.predictedPairs})`],
  ['grouping recall (pairs)', (g) => `${f(g.recall)} (${g.truePairs}/${g.goldPairs})`],
];

function table(halves: Halves, grouping?: Record<LabelSet | 'all', GroupingScores>): string[] {
  const row = (name: string, cell: (set: LabelSet | 'all') => string) => `| ${name} | ${cell('heldout')} | ${cell('tuning')} | ${cell('all')} |`;
  const pains = PAIN_AND_PRODUCTS.map(([name, cell]) => row(name, (set) => cell(halves[set])));
  const pairs = grouping ? GROUPING.map(([name, cell]) => row(name, (set) => cell(grouping[set]))) : [];
  return [
    `| measure | held-out (${halves.heldout.posts} posts) | tuning (${halves.tuning.posts}) | all (${halves.all.posts}) |`,
    '|---|---|---|---|',
    ...pains.slice(0, 2),
    ...pairs,
    ...pains.slice(2),
  ];
}

const top = (s: Scores) => s.topProducts.map((p) => `${p.name}${p.product ? '' : ' (NOT A PRODUCT)'} ×${p.posts}`).join(', ');

function ceiling(): string {
  const second = heldOutAgreement();
  return `a second labeller on the held-out half (the ceiling): pain precision ${second.painPrecision.toFixed(3)}, recall ${second.painRecall.toFixed(3)}; product pairs precision ${second.productPrecision.toFixed(3)}, recall ${second.productRecall.toFixed(3)}`;
}

function rulesReport(flags: { details: boolean; final: boolean }): void {
  const halves = evaluateBySet();
  const grouping = groupingBySet();
  for (const line of table(halves, grouping)) console.log(line);
  console.log(`\ngrouping: ${grouping.all.themes} themes over the ${grouping.all.threads} fixture threads (with comments); largest ${grouping.all.largest} posts`);
  console.log(`top products, tuning half: ${top(halves.tuning)}`);
  // The held-out half's list is for the final report only (docs/quality.md): read while changing
  // rules, it would tune them to the held-out posts.
  console.log(ceiling());
  if (flags.final) console.log(`top products, held-out half: ${top(halves.heldout)}`);
  if (!flags.details) return;
  for (const r of halves.tuning.results) {
    const predicted = r.predictedQuotes.length > 0;
    if (predicted === r.label.pain && (r.painHit || !r.label.pain)) continue;
    const kind = !r.label.pain ? 'FALSE ALARM' : predicted ? 'WRONG QUOTE' : 'MISS';
    console.log(`\n${kind} ${r.label.id} — ${r.post.title}\n  label: ${r.label.note}`);
    for (const q of r.label.quotes) console.log(`  gold: ${q.slice(0, 160)}`);
    for (const q of r.predictedQuotes) console.log(`  got:  ${q.slice(0, 160)}`);
  }
  console.log('\nproducts missed (tuning half):');
  for (const r of halves.tuning.results) {
    const missed = r.label.products.filter((p) => !r.predictedProducts.includes(familyOf(p)));
    const extra = r.predictedNames.filter((n) => !r.label.products.some((p) => familyOf(p) === familyOf(n)));
    if (missed.length || extra.length) console.log(`  ${r.label.id}: missed ${missed.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`);
  }
  for (const line of grouping.tuningDetails) console.log(line);
}

/** Exit status 2: the endpoint is not configured (or badly); 1: the run fell back to `rules`, so there is no `llm` figure. */
async function llmReport(): Promise<number> {
  let analyzer: Analyzer;
  try {
    analyzer = analyzerFromEnv(process.env);
  } catch (err) {
    if (err instanceof LlmConfigError) {
      console.error(`quality: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (analyzer === rulesAnalyzer) {
    console.error('quality: --analyzer llm needs an OpenAI-compatible endpoint: set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY if it asks for one; docs/llm.md)');
    return 2;
  }
  const { scores, report } = await evaluateAnalyzer(analyzer);
  for (const note of report.notes) console.error(`note: ${note}`);
  if (report.analyzer !== 'llm') {
    console.error(
      `quality: the run was analysed by ${report.analyzer}, not by the LLM alone (see the notes above): its figures would mix the two analyzers, so none are printed. ` +
        'Raise LLM_MAX_TOKENS_PER_RUN if the token budget ran out, or LLM_TIMEOUT_SECONDS for a slow endpoint.',
    );
    return 1;
  }
  for (const line of table(scores)) console.log(line);
  console.log(`\nanalyzer: llm (${process.env.LLM_MODEL?.trim()}); grouping is scored for the rules analyzer only: the labelled pairs compare the rules grouper's themes`);
  console.log(`top products, tuning half: ${top(scores.tuning)}`);
  console.log(ceiling());
  return 0;
}

const { values: flags } = parseArgs({
  options: { analyzer: { type: 'string', default: 'rules' }, details: { type: 'boolean', default: false }, final: { type: 'boolean', default: false } },
});
if (flags.analyzer === 'llm') {
  process.exitCode = await llmReport();
} else if (flags.analyzer === 'rules') {
  rulesReport({ details: flags.details!, final: flags.final! });
} else {
  console.error(`quality: --analyzer is rules or llm, not "${flags.analyzer}"`);
  process.exitCode = 2;
}
