/**
 * memory.edit (spec §4.3, DESIGN §4): the ten operations, their input schema and their pure
 * application to a project memory. Applying is all-or-nothing: the first edit that is malformed,
 * changes nothing or breaks a limit throws, naming it (`edits[3]: …`), and nothing is kept.
 */
import { z } from 'zod';
import { invalid, limitHit } from './errors.ts';
import { LIMITS } from './limits.ts';
import type { MemoryField, ProjectMemory } from './resources.ts';

const text = (max: number, what: string) =>
  z.string().trim().min(1, `${what} must not be empty`).max(max, `${what} is longer than ${max} characters`);
const name = text(LIMITS.name, 'name').describe(`A name, 1 to ${LIMITS.name} characters; compared case-insensitively.`);
const description = text(LIMITS.text, 'description').describe(`1 to ${LIMITS.text} characters.`);
const url = text(LIMITS.url, 'url')
  // Spelled case by case rather than with the `i` flag, which JSON Schema's `pattern` cannot carry.
  .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/$.?#][^\s]*$/, 'url must be an http or https URL')
  .describe(`An http or https URL, at most ${LIMITS.url} characters.`);
const rule = text(LIMITS.rule, 'rule').describe(`A filter rule, 1 to ${LIMITS.rule} characters.`);
const body = text(LIMITS.text, 'text').describe(`1 to ${LIMITS.text} characters.`);

const op = <T extends string>(value: T, doc: string) => z.literal(value).describe(doc);

export const editSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: op('set_product', 'Replace the product description.'), text: body }),
  z.strictObject({ op: op('set_icp', 'Replace the ideal-customer description.'), text: body }),
  z.strictObject({ op: op('add_competitor', 'Track a competitor.'), name, url, description }),
  z.strictObject({ op: op('remove_competitor', 'Stop tracking a competitor.'), name }),
  z.strictObject({ op: op('add_offering', 'Add an offering.'), name, description }),
  z.strictObject({ op: op('remove_offering', 'Remove an offering.'), name }),
  z.strictObject({ op: op('add_community', `Watch a community (at most ${LIMITS.communities}).`), name, description }),
  z.strictObject({ op: op('remove_community', 'Stop watching a community.'), name }),
  z.strictObject({ op: op('add_filter_rule', 'Add a filter rule.'), rule }),
  z.strictObject({ op: op('remove_filter_rule', 'Remove a filter rule.'), rule }),
]);
export type Edit = z.output<typeof editSchema>;

/** Each operation's fields besides `op`, read from the schema (forms that build edits use it). */
export const EDIT_FIELDS = Object.fromEntries(
  editSchema.options.map((option) => [option.shape.op.value, Object.keys(option.shape).filter((key) => key !== 'op')]),
) as unknown as Record<Edit['op'], readonly string[]>;

export interface EditOutcome {
  memory: ProjectMemory;
  applied: string[];
  touched: Set<MemoryField>;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
/** Community names also ignore a leading `r/` or `/r/`: "r/SaaS" and "saas" are one community. */
export const communityKey = (n: string) => n.trim().replace(/^\/?r\//i, '').toLowerCase();
const sameCommunity = (a: string, b: string) => communityKey(a) === communityKey(b);

export function applyEdits(start: ProjectMemory, edits: Edit[]): EditOutcome {
  const memory: ProjectMemory = structuredClone(start);
  const applied: string[] = [];
  const touched = new Set<MemoryField>();
  edits.forEach((edit, i) => {
    const fail = (message: string) => invalid(`edits[${i}]: ${message}`);
    switch (edit.op) {
      case 'set_product':
        if (memory.description === edit.text) throw fail('the product description already has this text');
        memory.description = edit.text;
        touched.add('description');
        applied.push('Replaced the product description.');
        break;
      case 'set_icp':
        if (memory.idealCustomer === edit.text) throw fail('the ideal-customer description already has this text');
        memory.idealCustomer = edit.text;
        touched.add('idealCustomer');
        applied.push('Replaced the ideal-customer description.');
        break;
      case 'add_competitor':
        if (memory.competitors.some((c) => sameName(c.name, edit.name))) throw fail(`competitor "${edit.name}" is already tracked`);
        memory.competitors.push({ name: edit.name, url: edit.url, description: edit.description });
        touched.add('competitors');
        applied.push(`Added competitor "${edit.name}".`);
        break;
      case 'remove_competitor': {
        const found = memory.competitors.find((c) => sameName(c.name, edit.name));
        if (!found) throw fail(`competitor "${edit.name}" is not tracked`);
        memory.competitors = memory.competitors.filter((c) => c !== found);
        touched.add('competitors');
        applied.push(`Removed competitor "${found.name}".`);
        break;
      }
      case 'add_offering':
        if (memory.offerings.some((o) => sameName(o.name, edit.name))) throw fail(`offering "${edit.name}" already exists`);
        memory.offerings.push({ name: edit.name, description: edit.description });
        touched.add('offerings');
        applied.push(`Added offering "${edit.name}".`);
        break;
      case 'remove_offering': {
        const found = memory.offerings.find((o) => sameName(o.name, edit.name));
        if (!found) throw fail(`offering "${edit.name}" does not exist`);
        memory.offerings = memory.offerings.filter((o) => o !== found);
        touched.add('offerings');
        applied.push(`Removed offering "${found.name}".`);
        break;
      }
      case 'add_community':
        if (memory.communities.some((c) => sameCommunity(c.name, edit.name))) throw fail(`community "${edit.name}" is already watched`);
        if (memory.communities.length >= LIMITS.communities) {
          throw limitHit(`edits[${i}]: a project watches at most ${LIMITS.communities} communities; remove one first`);
        }
        memory.communities.push({ name: edit.name, description: edit.description });
        touched.add('communities');
        applied.push(`Started watching community "${edit.name}".`);
        break;
      case 'remove_community': {
        const found = memory.communities.find((c) => sameCommunity(c.name, edit.name));
        if (!found) throw fail(`community "${edit.name}" is not watched`);
        memory.communities = memory.communities.filter((c) => c !== found);
        touched.add('communities');
        applied.push(`Stopped watching community "${found.name}".`);
        break;
      }
      case 'add_filter_rule':
        if (memory.filterRules.includes(edit.rule)) throw fail(`filter rule "${edit.rule}" already exists`);
        memory.filterRules.push(edit.rule);
        touched.add('filterRules');
        applied.push(`Added filter rule "${edit.rule}".`);
        break;
      case 'remove_filter_rule':
        if (!memory.filterRules.includes(edit.rule)) throw fail(`filter rule "${edit.rule}" does not exist`);
        memory.filterRules = memory.filterRules.filter((r) => r !== edit.rule);
        touched.add('filterRules');
        applied.push(`Removed filter rule "${edit.rule}".`);
        break;
    }
  });
  return { memory, applied, touched };
}
