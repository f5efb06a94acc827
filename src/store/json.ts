/** JSON columns hold values this service wrote itself; a parse failure is corruption, not input. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
