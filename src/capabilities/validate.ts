import type { z } from 'zod';
import { invalid } from '../domain/errors.ts';
import { formatPath } from '../ingest/bundle.ts';

/** Validates capability input, turning the first Zod issue into an `invalid` error that names it. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, where = 'input'): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw invalid(describeIssue(result.error.issues[0]!, where));
}

export function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const path = issue.path.length > 0 ? `${where}.${formatPath(issue.path)}`.replace('.[', '[') : where;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${path}: unknown propert${issue.keys.length > 1 ? 'ies' : 'y'} ${issue.keys.slice(0, 5).map((k) => `"${clip(k)}"`).join(', ')}`;
    case 'invalid_union':
      // A discriminated union reports a bad `op` with the allowed values: list them.
      if (issue.discriminator && 'options' in issue && issue.options) {
        const at = issue.path.at(-1) === issue.discriminator ? path : `${path}.${issue.discriminator}`;
        return `${at}: must be one of ${issue.options.join(', ')}`;
      }
      return `${path}: ${issue.message}`;
    default:
      return `${path}: ${issue.message}`;
  }
}

/** A caller's own property names come back in messages; a huge one is cut, not echoed whole. */
function clip(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}…` : name;
}
