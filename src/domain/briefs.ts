import type { NumberedBrief, SignalItem } from './resources.ts';

export interface StoredBrief {
  window: string;
  sections: { kind: string; title: string; items: SignalItem[] }[];
}

/**
 * DESIGN §4 "briefs": items are numbered 1..N across the five newest briefs (newest brief first,
 * sections in order, items in order), so a number means the same item whatever `limit` was asked.
 */
export function numberBriefs(newestFirst: StoredBrief[]): NumberedBrief[] {
  let n = 0;
  return newestFirst.map((brief) => ({
    window: brief.window,
    brief: {
      sections: brief.sections.map((section) => ({
        kind: section.kind,
        title: section.title,
        items: section.items.map((item) => ({ n: ++n, ...item })),
      })),
    },
  }));
}

export interface FoundItem {
  n: number;
  when: string;
  kind: string;
  item: SignalItem;
}

export function findNumberedItem(newestFirst: StoredBrief[], wanted: number): FoundItem | undefined {
  let n = 0;
  for (const brief of newestFirst) {
    for (const section of brief.sections) {
      for (const item of section.items) {
        if (++n === wanted) return { n, when: brief.window, kind: section.kind, item };
      }
    }
  }
  return undefined;
}
