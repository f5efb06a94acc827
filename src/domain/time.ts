/** Timestamps are always `YYYY-MM-DDTHH:MM:SS.mmmZ` (DESIGN §4); Date#toISOString gives exactly that. */
export function isoNow(): string {
  return new Date().toISOString();
}

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isIsoTimestamp(value: string): boolean {
  return ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}
