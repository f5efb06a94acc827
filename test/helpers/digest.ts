/**
 * For the digest suites: a project watching r/LocalLLaMA with the competitors and offerings a
 * local-inference startup would track, and a source over in-memory threads (the `file` source has
 * its own suite; here the pipeline is under test).
 */
import { newProjectMemory, type ProjectMemory } from '../../src/domain/resources.ts';
import type { BundlePost } from '../../src/ingest/bundle.ts';
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

export async function createDigestProject(store: Store, ownerId: string, id: string, overrides: Partial<ProjectMemory> = {}): Promise<ProjectMemory> {
  const memory = localInferenceMemory(id, overrides);
  await upsertProject(store.db, { id, ownerId, memory, createdAt: new Date().toISOString() });
  return memory;
}

/** Threads of the window, oldest first, like a real source; `fail` throws after that many. */
export function memorySource(threads: BundlePost[], options: { fail?: { after: number; message: string } } = {}): Source {
  return {
    name: 'memory',
    async *threads(request) {
      const inWindow = threads
        .filter((t) => Date.parse(t.postCreatedAt) > request.since.getTime() && Date.parse(t.postCreatedAt) <= request.until.getTime())
        .sort((a, b) => (a.postCreatedAt < b.postCreatedAt ? -1 : a.postCreatedAt > b.postCreatedAt ? 1 : a.id < b.id ? -1 : 1));
      let handed = 0;
      for (const thread of inWindow) {
        if (options.fail && handed >= options.fail.after) throw new Error(options.fail.message);
        request.signal?.throwIfAborted();
        handed += 1;
        yield thread;
      }
    },
  };
}
