/**
 * Every bound on caller input, in one place. DESIGN §4 (memory.edit) and spec §8 fix these; the
 * capability schemas, the bundle validator and the docs all read them from here.
 */
export const LIMITS = {
  name: 200,
  text: 4_000,
  rule: 500,
  url: 2_048,
  communities: 5,
  editsPerCall: 64,
  briefsListMax: 5,
  briefsListDefault: 3,
  /** Briefs whose items share one numbering (DESIGN §4 "briefs"). */
  numberedBriefs: 5,
  pageSizeMax: 100,
  /** Far past any real project; bounds the offset a caller can make the database walk. */
  pageMax: 100_000,
  pageSizeDefault: 25,
  sovIdsMax: 25,
  competitorSources: 25,
  /** competitors.list `limit` (DESIGN §11). */
  competitorsListMax: 200,
  competitorsListDefault: 50,
  /** pains.sources `commentsPerThread` (DESIGN §11): the newest comments kept per thread. */
  threadCommentsMax: 1_000,
  threadCommentsDefault: 200,
  idLength: 200,
  /** search (DESIGN §11): the query's length, and how many results. */
  searchQuery: 500,
  searchResultsMax: 50,
  searchResultsDefault: 10,
  /** fetch: a document id from search (`comment:` ids hold a post id and a comment id). */
  documentId: 600,
  permalinkLength: 2_048,
  bodyBytes: 1024 * 1024,
  /** A bearer credential: an API key is 36 characters, an OAuth JWT access token under 1,000. */
  bearerToken: 4_096,
  /** Post and comment bodies in bundles; Reddit caps posts at 40,000 characters. */
  postText: 100_000,
  quote: 10_000,
} as const;
