/**
 * Which pain themes a window's brief weighs first (src/store/digest.ts `themesInWindow`): those
 * with the most distinct posts in the window; between those with as many, the theme more posts
 * have voiced so far, then the best-received post. In a daily window most themes have one post,
 * and rated blind, items of themes with ten posts or more were worth forwarding twice as often
 * as those of two to nine (docs/quality.md, "Which themes a daily brief weighs first").
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseBundle, type Bundle } from '../../src/ingest/bundle.ts';
import { importBundle } from '../../src/ingest/import.ts';
import { themesInWindow } from '../../src/store/digest.ts';
import { ALICE, blankProject } from '../fixtures/small-bundle.ts';
import { DIALECTS } from '../helpers/database.ts';
import { startService, type TestService } from '../helpers/service.ts';

const PROJECT = 'prj_window_rank';
const BEFORE = '2026-11-10T09:00:00.000Z';
const INSIDE = '2026-11-19T09:00:00.000Z';

/** A theme with `earlier` posts before the window and `inside` posts in it, the best scored `score`. */
function theme(name: string, earlier: number, inside: number, score: number) {
  const posts = [...Array.from({ length: earlier }, (_, i) => ({ at: BEFORE, n: `e${i}` })), ...Array.from({ length: inside }, (_, i) => ({ at: INSIDE, n: `w${i}` }))].map(({ at, n }) => ({
    id: `${name}_${n}`,
    url: `https://www.reddit.com/r/SaaS/comments/${name}_${n}/t/`,
    permalink: `/r/SaaS/comments/${name}_${n}/t/`,
    community: 'SaaS',
    title: `A thread about ${name}`,
    selftext: 'Text.',
    author: 'someone',
    score,
    postCreatedAt: at,
    comments: [],
  }));
  return {
    posts,
    theme: { id: `sov_${name}`, type: 'pain' as const, title: `Problems with ${name}`, summary: '.', updatedAt: INSIDE },
    signals: posts.map((p) => ({ id: `sig_${p.id}`, postId: p.id, kind: 'pain' as const, quote: `${name} broke.`, author: 'someone', themeId: `sov_${name}`, competitor: null, seenAt: p.postCreatedAt, moves: {} })),
  };
}

for (const dialect of DIALECTS) {
  describe(`themesInWindow (${dialect})`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startService(dialect);
      const themes = [theme('recurring', 9, 1, 5), theme('popular', 1, 1, 900), theme('busy', 0, 2, 1), theme('quiet', 0, 1, 2)];
      const bundle: Bundle = {
        format: 'project-signals-bundle',
        version: 1,
        projects: [
          {
            ...blankProject,
            owner: ALICE,
            id: PROJECT,
            name: 'Ranked',
            url: 'https://ranked.example.com',
            createdAt: BEFORE,
            posts: themes.flatMap((t) => t.posts),
            themes: themes.map((t) => t.theme),
            signals: themes.flatMap((t) => t.signals),
          },
        ],
      };
      await importBundle(svc.store, parseBundle(bundle));
    });
    after(() => svc.close());

    test('most window posts first; at as many, the theme more posts have voiced, then the best-received post', async () => {
      const ranked = await themesInWindow(svc.store.db, PROJECT, 'pain', '2026-11-18T00:00:00.000Z', '2026-11-20T00:00:00.000Z', 10);
      assert.deepEqual(
        ranked.map((t) => [t.title, t.posts]),
        [
          ['Problems with busy', 2],
          ['Problems with recurring', 1],
          ['Problems with popular', 1],
          ['Problems with quiet', 1],
        ],
      );
    });
  });
}
