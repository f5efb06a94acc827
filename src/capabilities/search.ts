import { z } from 'zod';
import { invalid } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';
import { SEARCH_KINDS } from '../store/search-documents.ts';
import { queryTerms, searchDocs } from '../store/search.ts';
import { resultUrl } from './documents.ts';
import { TEXT_MAX } from './text.ts';
import { projectCapability } from './types.ts';

const result = z.object({
  id: z.string().describe('Pass it to `fetch` for the whole document.'),
  title: z.string(),
  url: z.string(),
  snippet: z.string().describe('The words around the match.'),
  kind: z.enum(SEARCH_KINDS),
});

export const search = projectCapability({
  name: 'search',
  title: 'Search',
  kind: 'read',
  scope: 'project',
  description:
    "Full-text search over the project's source posts, comments, signals (pain quotes, competitor mentions, questions), themes and brief items, best match first. Each result has an id to pass to `fetch` for the whole text.",
  input: z.strictObject({
    query: z.string().trim().min(1).max(LIMITS.searchQuery).describe('Words to look for, e.g. "export timeout". Results holding every word come first.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.searchResultsMax)
      .default(LIMITS.searchResultsDefault)
      .describe(`How many results, 1 to ${LIMITS.searchResultsMax}; default ${LIMITS.searchResultsDefault}.`),
  }),
  output: z.object({ results: z.array(result) }),
  async run({ store, project, publicUrl }, input) {
    const terms = queryTerms(input.query);
    if (terms.length === 0) throw invalid('input.query: give at least one word (letters or digits) to search for');
    const hits = await searchDocs(store, project.memory.id, terms, input.limit);
    return {
      results: hits.map((h) => ({
        id: h.docId,
        title: h.title,
        url: resultUrl(publicUrl, project.memory.id, { doc_id: h.docId, url: h.url }),
        snippet: h.snippet,
        kind: h.kind,
      })),
    };
  },
  // ChatGPT's deep research and company knowledge read `search` results as one text content
  // holding this JSON (`{ results: [{ id, title, url }] }`; snippet and kind ride along). JSON
  // cannot be cut anywhere, so a list too long for TEXT_MAX (long titles and URLs) loses its
  // last results instead.
  text: (data) => {
    for (let shown = data.results.length; ; shown--) {
      const text = JSON.stringify({ results: data.results.slice(0, shown) });
      if (text.length <= TEXT_MAX || shown === 0) return text;
    }
  },
});
