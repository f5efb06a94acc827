import { z } from 'zod';
import { notFound } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { parseDocId } from '../store/search-documents.ts';
import { loadDocument, resultUrl } from './documents.ts';
import { fitBlocks, TEXT_MAX } from './text.ts';
import { projectCapability } from './types.ts';

export const fetchDocument = projectCapability({
  name: 'fetch',
  title: 'Fetch',
  kind: 'read',
  scope: 'project',
  description:
    'The whole document behind a `search` result id: a source thread (post or comment), a theme with its quotes, a signal, or a brief item, as text with its link and metadata.',
  input: z.strictObject({
    id: z.string().trim().min(1).max(LIMITS.documentId).describe('An id from `search`, e.g. post:1abcde or theme:sov_…'),
  }),
  output: z.object({
    id: z.string(),
    title: z.string(),
    text: z.string(),
    url: z.string(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.null()])),
  }),
  async run(ctx, input) {
    const id = parseDocId(input.id);
    if (!id) throw notFound(`no document "${input.id}" in this project: ids come from search (post:…, comment:…, signal:…, theme:…, brief:…)`);
    const { indexed, text, metadata } = await loadDocument(ctx, id, input.id);
    const answer = { id: input.id, title: indexed.title, text, url: resultUrl(ctx.publicUrl, ctx.project.memory.id, indexed), metadata };
    return { ...answer, text: fitted(answer) };
  },
  // ChatGPT reads `fetch` as one text content holding `{ id, title, text, url, metadata }`.
  text: (data) => JSON.stringify(data),
});

/**
 * The document's text, cut between lines so that the whole answer as JSON (quotes and newlines
 * escaped) stays within TEXT_MAX like every tool result.
 */
function fitted(answer: { text: string }): string {
  let max = TEXT_MAX;
  let text = answer.text;
  for (let over = JSON.stringify(answer).length - TEXT_MAX; over > 0; over = JSON.stringify({ ...answer, text }).length - TEXT_MAX) {
    max -= over + 100;
    text = fitBlocks(answer.text.split('\n'), () => 'The rest is at the document\'s url.', max);
  }
  return text;
}
