import type { Generated } from 'kysely';
/**
 * Row types of our own tables (better-auth owns `user`, `session`, `account`, `verification`).
 * Timestamps are ISO text in both databases so that they sort and compare the same way; lists and
 * nested objects are JSON text, read and written whole.
 */
export interface ProjectsTable {
  id: string;
  owner_id: string;
  name: string;
  url: string;
  category: string;
  description: string;
  ideal_customer: string;
  competitors: string;
  offerings: string;
  communities: string;
  filter_rules: string;
  /** JSON array of memory field names a user changed through memory.edit: a rebuild keeps them. */
  edited_fields: string;
  memory_status: string;
  memory_refresh_requested_at: string | null;
  /** When the memory build holding the project started (null when none ever ran). */
  memory_build_started_at: string | null;
  /** Why the last memory build failed (null unless memory_status is `failed`). */
  memory_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  project_id: string | null;
  name: string;
  key_hash: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface PostsTable {
  project_id: string;
  id: string;
  url: string;
  permalink: string;
  permalink_key: string;
  community: string;
  title: string;
  selftext: string;
  author: string;
  score: number;
  post_created_at: string;
  /** JSON: the nested comment tree of the bundle format. */
  comments: string;
}

export interface ThemesTable {
  id: string;
  project_id: string;
  type: string;
  title: string;
  summary: string;
  updated_at: string;
  /** Derived from signals by refreshDerived(); kept on the row so pages sort on an index. */
  post_count: number;
  signal_count: number;
  first_seen_at: string | null;
  last_seen_at: string | null;
  /** `lastUpdatedAt` (DESIGN §4): last_seen_at, or updated_at while the theme has no signal. */
  recent_at: string;
}

export interface SignalsTable {
  id: string;
  project_id: string;
  post_id: string;
  kind: string;
  quote: string;
  author: string;
  theme_id: string | null;
  competitor: string | null;
  /** lower-cased, trimmed `competitor`: one product whatever the spelling. */
  competitor_key: string | null;
  seen_at: string;
  moves: string;
}

export interface BriefsTable {
  id: string;
  project_id: string;
  window: string;
  window_start: string;
  window_end: string;
  created_at: string;
  sections: string;
}

export interface RunsTable {
  id: string;
  project_id: string;
  window_start: string;
  window_end: string;
  status: string;
  signal_counts: string;
  posts_analyzed: number;
  error: string | null;
  /** JSON: the run's per-community collection outcomes (CommunityOutcome[]). */
  communities: string;
  created_at: string;
  updated_at: string;
}

/** What a project's community has been collected through (migration 006). */
export interface SourceCursorsTable {
  project_id: string;
  community: string;
  source: string;
  collected_from: string;
  collected_through: string;
  updated_at: string;
}

/** Per project and theme type: the totals pains.list reports without counting on every call. */
export interface ThemeTotalsTable {
  project_id: string;
  type: string;
  theme_count: number;
  post_count: number;
}

/** Per project and product: competitors.list without grouping every competitor signal per call. */
export interface CompetitorTotalsTable {
  project_id: string;
  competitor_key: string;
  name: string;
  mentions: number;
  last_seen_at: string;
}

/** How a project's threads write a name family: with a parameter count, or as a product (migration 008). */
export interface NameSizesTable {
  project_id: string;
  family: string;
  sized: number;
  /** Passages writing the family before a hardware noun (migration 009). */
  hardware: number;
  mentions: number;
}

/** Who may run a project's digest now (DESIGN §8); see migration 003. */
export interface DigestLeasesTable {
  project_id: string;
  holder: string | null;
  run_id: string | null;
  expires_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** better-auth's user table, as far as our queries read it (better-auth creates and writes it). */
export interface UserTable {
  id: string;
  email: string;
  name: string;
}

export interface OAuthGrantsTable {
  user_id: string;
  client_id: string;
  /** null: all the user's projects, like an untied key. */
  project_id: string | null;
  created_at: string;
  updated_at: string;
}

/*
 * better-auth's OAuth provider tables, as far as our queries read them (it creates and writes
 * them; names are its camelCase ones). Dates are text on SQLite and timestamps on PostgreSQL.
 */
export interface OAuthClientTable {
  clientId: string;
  name: string | null;
  uri: string | null;
  /** JSON array on SQLite; better-auth (de)serializes it. */
  redirectUris: string;
}

export interface OAuthTokenRowTable {
  id: string;
  clientId: string;
  userId: string | null;
  revoked: unknown;
}

export interface OAuthConsentTable {
  id: string;
  clientId: string;
  userId: string | null;
}

/**
 * One searchable document (migration 007, store/search.ts). Its words are in the engine's index
 * (an FTS5 table on SQLite, the `document` tsvector on PostgreSQL), not here.
 */
export interface SearchDocsTable {
  id: Generated<number>;
  project_id: string;
  /** What `search` answers as `id` and `fetch` takes: `post:…`, `comment:…`, `signal:…`, `theme:…`, `brief:…`. */
  doc_id: string;
  kind: string;
  /** The stored row the document comes from (a post's id for its comments too): what a rewrite replaces. */
  source: string;
  /** When it was written in its community (a theme: when it was last written): ties rank newest first. */
  at: string;
}

export interface Schema {
  user: UserTable;
  oauth_grants: OAuthGrantsTable;
  oauthClient: OAuthClientTable;
  oauthRefreshToken: OAuthTokenRowTable;
  oauthAccessToken: OAuthTokenRowTable;
  oauthConsent: OAuthConsentTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  posts: PostsTable;
  themes: ThemesTable;
  signals: SignalsTable;
  briefs: BriefsTable;
  runs: RunsTable;
  theme_totals: ThemeTotalsTable;
  competitor_totals: CompetitorTotalsTable;
  name_sizes: NameSizesTable;
  settings: SettingsTable;
  digest_leases: DigestLeasesTable;
  source_cursors: SourceCursorsTable;
  search_docs: SearchDocsTable;
}
