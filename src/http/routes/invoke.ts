import { Hono } from 'hono';
import { z } from 'zod';
import { invokeCapability } from '../../capabilities/invoke.ts';
import { findCapability } from '../../capabilities/registry.ts';
import { parseInput } from '../../capabilities/validate.ts';
import { notFound } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/limits.ts';
import type { AppDeps, AppEnv } from '../env.ts';
import { jsonBody } from '../middleware/json-body/index.ts';

/** The request shape of spec §4.1; it never changes when capabilities are added. */
const envelope = z.strictObject({
  capability: z.string().min(1).max(100),
  // Not z.record: it copies the object and silently drops an own `__proto__` key, which the
  // capability's strict schema must see (and refuse as an unknown property).
  input: z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), 'Invalid input: expected object')
    .optional(),
  project: z.string().trim().min(1).max(LIMITS.url).optional(),
  render: z.literal('text').optional(),
});

export function invokeRoute({ store, config }: AppDeps & { config: NonNullable<AppDeps['config']> }) {
  return new Hono<AppEnv>().post('/', jsonBody(LIMITS.bodyBytes), async (c) => {
    const request = parseInput(envelope, c.get('body'), 'body');
    const capability = findCapability(request.capability);
    if (!capability) throw notFound(`Unknown capability "${request.capability}". GET /api/v1/capabilities lists them.`);
    c.set('capability', capability.name);
    const result = await invokeCapability(store, c.get('caller'), capability, request, config.publicUrl);
    return c.json(result);
  });
}
