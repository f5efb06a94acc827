/**
 * The `llm` analyzer's figures from recorded answers (docs/quality.md, "The llm analyzer on the
 * labels"): a local chat-completions endpoint that answers each request the analyzer sends with
 * the answer recorded for it, and `npm run quality -- --analyzer llm` against it.
 *
 *   node --import tsx test/ingest/quality/llm-replay.ts test/fixtures/quality/llm-answers/<set>
 *
 * A set is `answers.json`: `[{ request, content }]`, `request` the SHA-256 of a request's messages
 * (the prompt and the threads it sends) and `content` the answer's message content, and the
 * prompts it was recorded with (`prompts/`, passed as LLM_PROMPTS_DIR). A request with no
 * recorded answer (the prompts, the batching or the posts changed since the recording) gets an
 * HTTP 404 and goes to `rules`, so the report prints no figure rather than a blend.
 *
 * `--record DIR` writes the requests the analyzer sends now, one `request-NN.json` each (messages
 * and response format), for whoever answers them; `--answers DIR` turns a folder of
 * `answer-NN.json` beside those requests into a set's `answers.json` (printed on stdout).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLlmAnalyzer } from '../../../src/ingest/analyze/llm.ts';
import { rulesAnalyzer } from '../../../src/ingest/analyze/rules.ts';
import { completion, type RecordedRequest, signalsContent, startFakeLlm } from '../../helpers/fake-llm.ts';
import { evaluateAnalyzer } from './evaluate.ts';

interface Recorded {
  request: string;
  content: string;
}

/** The key of a request: its messages (the prompt and the threads sent), so an edited prompt finds no old answer. */
export function requestKey(request: Pick<RecordedRequest, 'body'>): string {
  return keyOf(request.body.messages);
}

function keyOf(messages: readonly { role: string; content: string }[]): string {
  return createHash('sha256').update(JSON.stringify(messages.map((m) => [m.role, m.content]))).digest('hex');
}

/** Writes the requests of one run over the labelled posts (answered with no signal) to `dir`. */
async function record(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const fake = await startFakeLlm([], { body: completion(signalsContent([])) });
  try {
    await evaluateAnalyzer(createLlmAnalyzer({ baseUrl: fake.baseUrl, model: 'recording', maxTokensPerRun: Number.MAX_SAFE_INTEGER, fallback: rulesAnalyzer }));
    fake.requests.forEach((r, i) => {
      writeFileSync(join(dir, `request-${String(i + 1).padStart(2, '0')}.json`), `${JSON.stringify({ messages: r.body.messages, response_format: r.body.response_format }, null, 1)}\n`);
    });
    console.error(`${fake.requests.length} requests written to ${dir}`);
  } finally {
    await fake.close();
  }
}

/** `answers.json` from `request-NN.json` and `answer-NN.json` files (searched in `dir` and its folders). */
function collect(dir: string): Recorded[] {
  const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
  const all = files(dir);
  const out: Recorded[] = [];
  for (const answer of all.filter((f) => /answer-\d+\.json$/.test(f)).sort()) {
    const request = JSON.parse(readFileSync(answer.replace(/answer-(\d+)\.json$/, 'request-$1.json'), 'utf8')) as { messages: { role: string; content: string }[] };
    const content = readFileSync(answer, 'utf8').trim();
    out.push({ request: keyOf(request.messages), content });
  }
  return out;
}

/** The prompts a set was recorded with, when it keeps them (`prompts/`): the shipped ones may have changed since. */
function promptsDirOf(set: string): string | undefined {
  const dir = join(set, 'prompts');
  return existsSync(dir) ? dir : undefined;
}

/** A local endpoint answering each request with the answer `set` recorded for it (HTTP 404 for a request it has none for). */
export async function startReplay(set: string): Promise<{ baseUrl: string; promptsDir?: string; close: () => Promise<void> }> {
  const answers = new Map((JSON.parse(readFileSync(join(set, 'answers.json'), 'utf8')) as Recorded[]).map((a) => [a.request, a.content]));
  const server = await startFakeLlm([], (request) => {
    const content = answers.get(requestKey(request));
    return content === undefined ? { status: 404, body: { error: { message: 'no answer recorded for this request' } } } : { body: completion(content) };
  });
  const promptsDir = promptsDirOf(set);
  return { baseUrl: server.baseUrl, ...(promptsDir ? { promptsDir } : {}), close: () => server.close() };
}

/** Runs the quality report's `--analyzer llm` against `set`'s answers; resolves to its exit status. */
async function replay(set: string): Promise<number> {
  const server = await startReplay(set);
  try {
    const report = fileURLToPath(new URL('./report.ts', import.meta.url));
    return await new Promise<number>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', report, '--analyzer', 'llm'],
        { env: { ...process.env, LLM_BASE_URL: server.baseUrl, LLM_MODEL: `recorded answers of ${set}`, LLM_MAX_TOKENS_PER_RUN: String(Number.MAX_SAFE_INTEGER), ...(server.promptsDir ? { LLM_PROMPTS_DIR: server.promptsDir } : {}) } },
        (err) => resolve(err ? ((err as { code?: number }).code ?? 1) : 0),
      );
      child.stdout?.pipe(process.stdout);
      child.stderr?.pipe(process.stderr);
    });
  } finally {
    await server.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [command, dir] = process.argv.slice(2);
  if (command === '--record' && dir) await record(dir);
  else if (command === '--answers' && dir) console.log(JSON.stringify(collect(dir), null, 1));
  else if (command && !command.startsWith('--')) process.exitCode = await replay(command);
  else {
    console.error('usage: llm-replay.ts <answer set dir> | --record <dir> | --answers <dir>');
    process.exitCode = 2;
  }
}
