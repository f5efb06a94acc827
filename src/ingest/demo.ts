/**
 * `signals demo`: two fictional projects, Quantforge (hosted inference) and EvalKit (model
 * evaluation), filled by the real digest pipeline over the real r/LocalLLaMA threads shipped in
 * `fixtures/localllama-threads.json.gz` and `fixtures/localllama-demo-days.json.gz` (both made by
 * scripts/make-demo-fixture.ts). So the demo shows
 * exactly what the product produces: the rules analyzer's signals, TF-IDF themes and briefs.
 *
 * The fixture's history is replayed as one backfill run and then seven daily runs ending at the
 * hour after its newest thread, each with a run id derived from its window. Deterministic and
 * idempotent: everything written derives from the fixture and the tables below (no clock, no
 * randomness), and a window that already has a run is skipped, so a second `signals demo` adds
 * nothing.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { derivedId } from '../domain/ids.ts';
import type { ProjectMemory } from '../domain/resources.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/db.ts';
import { upsertProject } from '../store/projects.ts';
import type { BundlePost } from './bundle.ts';
import { DigestBusyError, runDigest, type DigestSummary } from './digest/run.ts';
import { memorySource } from './sources/memory.ts';

/**
 * The labelled threads of the quality fixture, and more threads of the demo's daily windows: with
 * the first alone a daily window held 12 threads and its brief was mostly single reports.
 */
const FIXTURES = [new URL('../../fixtures/localllama-threads.json.gz', import.meta.url), new URL('../../fixtures/localllama-demo-days.json.gz', import.meta.url)];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAILY_RUNS = 7;
/** A digest finishes a few minutes after its window closes. */
const RUN_MINUTES = 7 * 60_000;

type DemoProject = Omit<ProjectMemory, 'memoryStatus' | 'memoryRefreshRequestedAt'>;

const QUANTFORGE: DemoProject = {
  id: 'prj_demo_inference',
  name: 'Quantforge',
  url: 'https://quantforge.example.com',
  category: 'AI infrastructure',
  description:
    'Hosted inference for open-weight models: pick any GGUF, EXL or safetensors quant and get a tuned, OpenAI-compatible endpoint on dedicated GPUs in minutes, without buying or babysitting hardware.',
  idealCustomer:
    'Developers and small teams who run local models today (Ollama, llama.cpp, LM Studio) and hit the limits of their own GPU: not enough VRAM for 70B+ or MoE models, slow prompt processing on long contexts, or a box that cannot serve more than one user.',
  competitors: [
    { name: 'Ollama', url: 'https://ollama.com', description: 'Free desktop runtime and model library; the default first step into local models.' },
    { name: 'LM Studio', url: 'https://lmstudio.ai', description: 'Desktop app to download and chat with local models, with an OpenAI-compatible local server.' },
    { name: 'vLLM', url: 'https://github.com/vllm-project/vllm', description: 'High-throughput open-source serving engine, strongest on multi-GPU NVIDIA servers.' },
    { name: 'OpenRouter', url: 'https://openrouter.ai', description: 'One API and bill for hundreds of hosted models from many providers.' },
  ],
  offerings: [
    {
      name: 'Managed GGUF endpoints',
      description: 'Upload or pick any quant from Hugging Face and get an OpenAI-compatible endpoint with llama.cpp or vLLM settings tuned for it.',
    },
    {
      name: 'Burst GPU pools',
      description: 'Hourly multi-GPU pools (2–8 × 48 GB) for 70B–235B and MoE models, with tensor parallelism preconfigured.',
    },
    {
      name: 'Quant advisor',
      description: 'Tells you which quant, context length and offload split fit a given GPU and latency budget, before you download 100 GB.',
    },
  ],
  communities: [{ name: 'LocalLLaMA', description: 'r/LocalLLaMA: people running open-weight models on their own hardware.' }],
  filterRules: [
    'Ignore memes and image-only posts.',
    'Ignore model-release hype without discussion of running the model.',
    'Skip jailbreak and NSFW roleplay requests.',
  ],
};


const EVALKIT: DemoProject = {
  id: 'prj_demo_devtools',
  name: 'EvalKit',
  url: 'https://evalkit.example.dev',
  category: 'Developer tools',
  description:
    'A CLI and dashboard for running and evaluating models side by side: the same prompt suites against Ollama, llama.cpp, vLLM and hosted APIs, with fixed sampler settings, regression diffs and tool-call tests.',
  idealCustomer:
    'Engineers choosing or shipping an open-weight model who do not trust leaderboards and need repeatable, task-specific comparisons across models, quants and runtimes.',
  competitors: [
    { name: 'LMArena', url: 'https://lmarena.ai', description: 'Crowd-voted public leaderboard of chat models.' },
    { name: 'promptfoo', url: 'https://www.promptfoo.dev', description: 'Open-source CLI for testing and red-teaming prompts and models.' },
    { name: 'lm-evaluation-harness', url: 'https://github.com/EleutherAI/lm-evaluation-harness', description: 'EleutherAI framework for academic benchmarks.' },
  ],
  offerings: [
    {
      name: 'Side-by-side runner',
      description: 'Runs one prompt suite across local runtimes and hosted APIs with pinned sampler settings and templates.',
    },
    {
      name: 'Regression diffs',
      description: 'Compares a new model, quant or runtime version against last week’s results and flags what got worse.',
    },
    {
      name: 'Tool-call test packs',
      description: 'Ready-made suites that check tool calling, JSON output and agent steps across models.',
    },
  ],
  communities: [{ name: 'LocalLLaMA', description: 'r/LocalLLaMA: model comparisons, benchmarks and coding-agent reports.' }],
  filterRules: ['Ignore memes and image-only posts.', 'Ignore hardware buying advice unless it compares model quality.'],
};

/** Oldest first: the last one created is the owner's default project (DESIGN §4). */
export const DEMO_PROJECTS: readonly DemoProject[] = [EVALKIT, QUANTFORGE];

/** Every demo thread, newest first (as each fixture lists them). */
export function demoThreads(): BundlePost[] {
  const threads = FIXTURES.flatMap((file) => JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as BundlePost[]);
  return threads.sort((a, b) => (a.postCreatedAt === b.postCreatedAt ? (a.id < b.id ? -1 : 1) : a.postCreatedAt < b.postCreatedAt ? 1 : -1));
}

/** The replayed windows: everything up to a week before the anchor, then one per day. */
export function demoWindows(threads: readonly BundlePost[]): { start: Date; end: Date }[] {
  const times = threads.map((t) => Date.parse(t.postCreatedAt));
  const anchor = Math.ceil((Math.max(...times) + 1) / HOUR) * HOUR;
  const windows = [{ start: new Date(Math.min(...times) - 1_000), end: new Date(anchor - DAILY_RUNS * DAY) }];
  for (let k = DAILY_RUNS - 1; k >= 0; k--) windows.push({ start: new Date(anchor - (k + 1) * DAY), end: new Date(anchor - k * DAY) });
  return windows;
}

export interface DemoResult {
  projects: string[];
  /** Runs made now; empty when every window had run before. */
  runs: DigestSummary[];
}

export async function loadDemo(store: Store, ownerId: string, logger?: Logger): Promise<DemoResult> {
  const threads = demoThreads();
  const windows = demoWindows(threads);
  const oldest = Math.min(...threads.map((t) => Date.parse(t.postCreatedAt)));
  // Projects exist a few days before the oldest thread, at a plausible office hour, a day apart.
  const createdBase = Math.floor(oldest / DAY) * DAY - 3 * DAY + 9 * HOUR;
  const source = memorySource('demo fixture (r/LocalLLaMA)', threads);
  const runs: DigestSummary[] = [];
  for (const [i, project] of DEMO_PROJECTS.entries()) {
    const createdAt = new Date(createdBase + i * (DAY + 2 * HOUR)).toISOString();
    const memory: ProjectMemory = { ...project, memoryStatus: 'ready', memoryRefreshRequestedAt: null };
    await upsertProject(store.db, { id: project.id, ownerId, memory, createdAt });
    for (const window of windows) {
      try {
        const summary = await runDigest({
          store,
          projectId: project.id,
          source,
          window,
          logger,
          runId: derivedId('run', project.id, window.end.toISOString()),
          oncePerWindow: true,
          now: () => new Date(window.end.getTime() + RUN_MINUTES),
        });
        if (summary.status !== 'complete') throw new Error(`demo digest of ${project.id} failed: ${summary.error}`);
        runs.push(summary);
      } catch (err) {
        // The window ran before: the demo is already there.
        if (!(err instanceof DigestBusyError)) throw err;
      }
    }
  }
  return { projects: DEMO_PROJECTS.map((p) => p.id), runs };
}
