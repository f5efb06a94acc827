import { z } from 'zod';
import { memorySchema, type ProjectMemory } from '../domain/resources.ts';
import { bullet, fitBlocks } from './text.ts';
import { projectCapability } from './types.ts';

export const MEMORY_FIELDS = ['product', 'icp', 'communities', 'competitors', 'offerings', 'filter_rules'] as const;
type Field = (typeof MEMORY_FIELDS)[number];

/** DESIGN §4: which memory properties each `field` selects (besides id, name and url). */
const FIELD_PROPERTIES: Record<Field, (keyof ProjectMemory)[]> = {
  product: ['description', 'category'],
  icp: ['idealCustomer'],
  communities: ['communities'],
  competitors: ['competitors'],
  offerings: ['offerings'],
  filter_rules: ['filterRules'],
};

const output = z.object({
  memory: memorySchema.partial().required({ id: true, name: true, url: true }),
  field: z.enum(MEMORY_FIELDS).nullable(),
});
type Output = z.infer<typeof output>;

export const projectMemory = projectCapability({
  name: 'project.memory',
  title: 'Project memory',
  kind: 'read',
  scope: 'project',
  description:
    "The project's memory: product description and category, ideal customer, tracked competitors, offerings, watched communities and filter rules. Pass `field` to get one part only.",
  input: z.strictObject({
    field: z.enum(MEMORY_FIELDS).optional().describe('Return only this part of the memory; omit for everything.'),
  }),
  output,
  async run({ project }, input): Promise<Output> {
    const memory = project.memory;
    if (!input.field) return { memory, field: null };
    const picked: Output['memory'] = { id: memory.id, name: memory.name, url: memory.url };
    for (const key of FIELD_PROPERTIES[input.field]) Object.assign(picked, { [key]: memory[key] });
    return { memory: picked, field: input.field };
  },
  text: ({ memory: m }) =>
    fitBlocks(
      [
        `Project: ${m.name} (${m.url})`,
        m.category !== undefined && `Category: ${m.category || '(none)'}`,
        m.description !== undefined && `Product: ${m.description || '(none)'}`,
        m.idealCustomer !== undefined && `Ideal customer: ${m.idealCustomer || '(none)'}`,
        ...(m.competitors ?? []).map((c) => `Competitor: ${c.name} (${c.url}): ${c.description}`),
        ...(m.offerings ?? []).map((o) => `Offering: ${o.name}: ${o.description}`),
        ...(m.communities ?? []).map((c) => `Community: ${c.name}: ${c.description}`),
        ...(m.filterRules ?? []).map((r) => `Filter rule: ${r}`),
        m.memoryStatus !== undefined && `Memory status: ${m.memoryStatus}`,
      ]
        .filter((line): line is string => typeof line === 'string')
        .map(bullet),
      () => 'Pass `field` for one part of the memory at a time.',
    ),
});
