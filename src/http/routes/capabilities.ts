import { Hono } from 'hono';
import { discovery } from '../../capabilities/registry.ts';
import type { AppEnv } from '../env.ts';

/** Spec §4.4: every capability, reads and writes, with its JSON Schema. */
export function capabilitiesRoute() {
  const body = JSON.stringify(discovery);
  return new Hono<AppEnv>().get('/', (c) => c.body(body, 200, { 'Content-Type': 'application/json' }));
}
