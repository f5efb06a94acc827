/**
 * A digest run's time window: threads created after `start` and at or before `end`, and the
 * label briefs show for it ("Nov 19 – Nov 20"; years appear only when the window spans two).
 */

export interface Window {
  start: Date;
  end: Date;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DURATION = /^(\d{1,5})\s*(m|h|d|w)$/i;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

export class WindowError extends Error {}

/**
 * `--since` as a duration before `now` ("24h", "7d", "2w", "90m") or a date/instant
 * ("2025-08-01", "2025-08-01T06:00:00Z").
 */
export function parseSince(value: string, now: Date): Date {
  const duration = DURATION.exec(value.trim());
  if (duration) {
    const ms = Number(duration[1]) * UNIT_MS[duration[2]!.toLowerCase() as keyof typeof UNIT_MS];
    return new Date(now.getTime() - ms);
  }
  return parseInstant(value, '--since');
}

/** A date ("2025-08-01", midnight UTC) or an ISO instant. */
export function parseInstant(value: string, what: string): Date {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/.test(text)) {
    const date = new Date(/T/.test(text) ? text : `${text}T00:00:00.000Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new WindowError(`${what} "${value}" is neither a duration like 24h, 7d or 2w nor a date like 2025-08-01`);
}

export function windowLabel(window: Window): string {
  const { start, end } = window;
  const sameYear = start.getUTCFullYear() === end.getUTCFullYear();
  const day = (d: Date) => `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${sameYear ? '' : `, ${d.getUTCFullYear()}`}`;
  const first = day(start);
  const last = day(end);
  return first === last ? first : `${first} – ${last}`;
}

export function contains(window: Window, at: string): boolean {
  const t = Date.parse(at);
  return t > window.start.getTime() && t <= window.end.getTime();
}
