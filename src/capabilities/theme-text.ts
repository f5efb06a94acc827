/** Text-form lines for a theme and its quotes, shared by pains.get and pains.sources. */
import type { PainSignal, ThemeFull } from '../domain/resources.ts';
import { bullet, count, day } from './text.ts';

export function themeHeading(theme: Omit<ThemeFull, 'pains'> & { pains: readonly unknown[] }): string {
  return bullet(
    `Theme ${theme.id}: ${theme.title} (${count(theme.postCount, 'post')}, ${count(theme.pains.length, 'quote')}, seen ${day(theme.firstSeenAt)} to ${day(theme.lastSeenAt)}). ${theme.summary}`,
  );
}

/** A quote with who said it where and when, the post's link and the moves it suggests. */
export function painLine(pain: PainSignal): string {
  const moves = Object.entries(pain.moves)
    .map(([kind, m]) => `${kind} move: ${m.title}: ${m.body}`)
    .join(' ');
  return bullet(`"${pain.quote}" (${pain.author} in ${pain.community}, ${day(pain.seenAt)}; ${pain.postTitle}, ${pain.postUrl})${moves ? ` ${moves}` : ''}`);
}
