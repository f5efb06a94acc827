/**
 * The resource shapes of spec §2 with DESIGN §4's nesting, as Zod schemas. They are the single
 * source of the TypeScript types the capabilities return, of the output schemas published to
 * discovery/MCP/docs, and of the shape assertions in the tests.
 */
import { z } from 'zod';

const timestamp = z.string().describe('ISO 8601 UTC timestamp, YYYY-MM-DDTHH:MM:SS.mmmZ');

export const MEMORY_STATUSES = ['pending', 'building', 'ready', 'failed'] as const;
export const RUN_STATUSES = ['queued', 'running', 'complete', 'failed'] as const;
export const SIGNAL_KINDS = ['pain', 'competitor', 'content'] as const;
export const THEME_TYPES = ['pain', 'competitor'] as const;
export const SECTION_KINDS = ['content', 'offers'] as const;

export type MemoryStatus = (typeof MEMORY_STATUSES)[number];
export type RunStatus = (typeof RUN_STATUSES)[number];
export type SignalKind = (typeof SIGNAL_KINDS)[number];
export type ThemeType = (typeof THEME_TYPES)[number];

export const competitorSchema = z.object({ name: z.string(), url: z.string(), description: z.string() });
export const namedSchema = z.object({ name: z.string(), description: z.string() });

export const memorySchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  category: z.string(),
  description: z.string(),
  idealCustomer: z.string(),
  competitors: z.array(competitorSchema),
  offerings: z.array(namedSchema),
  communities: z.array(namedSchema),
  filterRules: z.array(z.string()),
  memoryStatus: z.enum(MEMORY_STATUSES),
  memoryRefreshRequestedAt: timestamp.nullable(),
});
export type ProjectMemory = z.infer<typeof memorySchema>;
/** The memory of a project just created: nothing known yet, memory not built (`pending`). */
export function newProjectMemory(p: { id: string; name: string; url: string; category: string }): ProjectMemory {
  return {
    ...p,
    description: '',
    idealCustomer: '',
    competitors: [],
    offerings: [],
    communities: [],
    filterRules: [],
    memoryStatus: 'pending',
    memoryRefreshRequestedAt: null,
  };
}

/** The memory fields a user can edit; a memory rebuild leaves the edited ones alone. */
export type MemoryField = 'description' | 'category' | 'idealCustomer' | 'competitors' | 'offerings' | 'communities' | 'filterRules';

/** Fields the creator of a project filled in (its category): a memory build keeps them, as if edited. */
export function givenFields(p: { category: string }): MemoryField[] {
  return p.category.trim() === '' ? [] : ['category'];
}

export const projectSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  memoryStatus: z.enum(MEMORY_STATUSES),
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

export const quoteSchema = z.object({ text: z.string(), who: z.string(), sub: z.string() });
export const moveSchema = z.object({ title: z.string(), body: z.string() });
export const itemSourceSchema = z.object({ title: z.string(), url: z.string(), sub: z.string() });

export const signalItemSchema = z.object({
  origin: z.string(),
  surfaced: z.object({ summary: z.string(), quote: quoteSchema.optional() }),
  move: moveSchema,
  sources: z.array(itemSourceSchema),
});
export type SignalItem = z.infer<typeof signalItemSchema>;

export const numberedItemSchema = signalItemSchema.extend({ n: z.number().int() });

export const briefSchema = z.object({
  window: z.string(),
  brief: z.object({
    sections: z.array(
      z.object({ kind: z.string(), title: z.string(), items: z.array(numberedItemSchema) }),
    ),
  }),
});
export type NumberedBrief = z.infer<typeof briefSchema>;

export const themeRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  postCount: z.number().int(),
  lastUpdatedAt: timestamp,
});
export type ThemeRow = z.infer<typeof themeRowSchema>;

export const movesSchema = z.record(z.string(), moveSchema);

export const painSignalSchema = z.object({
  signalId: z.string(),
  quote: z.string(),
  author: z.string(),
  postUrl: z.string(),
  postTitle: z.string(),
  community: z.string(),
  seenAt: timestamp,
  moves: movesSchema,
});
export type PainSignal = z.infer<typeof painSignalSchema>;

export const themeFullSchema = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  postCount: z.number().int(),
  firstSeenAt: timestamp,
  lastSeenAt: timestamp,
  pains: z.array(painSignalSchema),
});
export type ThemeFull = z.infer<typeof themeFullSchema>;

export const sourcePostSchema = z.object({
  id: z.string(),
  permalink: z.string(),
  title: z.string(),
  selftext: z.string(),
  author: z.string(),
  score: z.number().int(),
  postCreatedAt: timestamp,
  content: z.string(),
  community: z.string(),
});
export type SourcePost = z.infer<typeof sourcePostSchema>;

export const extractedSignalSchema = z.object({
  kind: z.string(),
  quote: z.string(),
  author: z.string(),
  sovId: z.string().nullable(),
});

export const competitorEntrySchema = z.object({
  name: z.string(),
  url: z.string().nullable(),
  mentions: z.number().int(),
  sources: z.array(z.object({ title: z.string(), url: z.string(), quote: z.string() })),
});
export type CompetitorEntry = z.infer<typeof competitorEntrySchema>;

export const runSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  windowStart: timestamp,
  windowEnd: timestamp,
  status: z.enum(RUN_STATUSES),
  signalCounts: z.record(z.string(), z.number().int()),
  postsAnalyzed: z.number().int(),
});
export type DigestRun = z.infer<typeof runSchema>;

/** What one watched community gave a run (kept with the run; DESIGN §8 step 5). */
export interface CommunityOutcome {
  community: string;
  /** `reddit-rss`, `reddit-api`, `hn`, `stackexchange`, `github`, `discourse`; null: no source. */
  source: string | null;
  status: 'ok' | 'failed' | 'skipped';
  threads: number;
  requests: number;
  /** Why it failed or was skipped. */
  error?: string;
  /** What the run should say though nothing failed (a feed's 100-post limit reached, …). */
  notes?: string[];
}
