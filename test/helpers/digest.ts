/**
 * For the digest suites: a project watching r/LocalLLaMA with the competitors and offerings a
 * local-inference startup would track, and a source over in-memory threads (the `file` source has
 * its own suite; here the pipeline is under test).
 */
import { newProjectMemory, type ProjectMemory } from '../../src/domain/resources.ts';
import type { BundlePost } from '../../src/ingest/bundle.ts';
import { memorySource as threadsSource } from '../../src/ingest/sources/memory.ts';
import type { Source } from '../../src/ingest/sources/source.ts';
import type { Store } from '../../src/store/db.ts';
import { upsertProject } from '../../src/store/projects.ts';

export const TRACKED = ['Ollama', 'LM Studio', 'vLLM', 'llama.cpp', 'OpenRouter'];

export function localInferenceMemory(id: string, overrides: Partial<ProjectMemory> = {}): ProjectMemory {
  return {
    ...newProjectMemory({ id, name: 'Quantforge', url: `https://${id}.example.com`, category: 'Developer tools' }),
    competitors: TRACKED.map((name) => ({ name, url: `https://${name.toLowerCase().replace(/[^a-z]/g, '')}.example.com`, description: '' })),
    offerings: [
      { name: 'Managed GGUF endpoints', description: 'Hosted llama.cpp endpoints for any GGUF quant, with an OpenAI-compatible API and no VRAM limits.' },
      { name: 'Burst GPU pools', description: 'Multi-GPU boxes by the minute for models too big for your own VRAM or memory.' },
    ],
    communities: [{ name: 'r/LocalLLaMA', description: 'People running open-weight models on their own hardware.' }],
    memoryStatus: 'ready',
    ...overrides,
  };
}

export async function createDigestProject(store: Store, ownerId: string, id: string, overrides: Partial<ProjectMemory> = {}, createdAt = new Date().toISOString()): Promise<ProjectMemory> {
  const memory = localInferenceMemory(id, overrides);
  await upsertProject(store.db, { id, ownerId, memory, createdAt });
  return memory;
}

/** The window's threads like a real source; `fail` makes it throw after handing out that many. */
export function memorySource(threads: BundlePost[], options: { fail?: { after: number; message: string } } = {}): Source {
  const inner = threadsSource('memory', threads);
  if (!options.fail) return inner;
  const { after, message } = options.fail;
  return {
    name: 'memory',
    async *threads(request) {
      let handed = 0;
      for await (const thread of inner.threads(request)) {
        if (handed >= after) throw new Error(message);
        handed += 1;
        yield thread;
      }
      if (handed >= after) throw new Error(message);
    },
  };
}

/** Rows per table, of one project or of all: what "adds nothing twice" compares. */
export async function rowCounts(store: Store, projectId?: string) {
  const count = async (table: 'signals' | 'themes' | 'briefs' | 'runs' | 'posts') => {
    let query = store.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n'));
    if (projectId !== undefined) query = query.where('project_id', '=', projectId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  return { signals: await count('signals'), themes: await count('themes'), briefs: await count('briefs'), runs: await count('runs'), posts: await count('posts') };
}
