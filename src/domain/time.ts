/** Timestamps are always `YYYY-MM-DDTHH:MM:SS.mmmZ` (DESIGN §4); Date#toISOString gives exactly that. */
export function isoNow(): string {
  return new Date().toISOString();
}

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The exact shape of a real instant: Date.parse alone would roll "02-30" or "T24:00" over. */
export function isIsoTimestamp(value: string): boolean {
  if (!ISO_TIMESTAMP.test(value)) return false;
  const ms = Date.parse(value);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === value;
}
