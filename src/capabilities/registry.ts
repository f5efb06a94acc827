/**
 * The single list of capabilities. Invoke, discovery, the MCP tools, the docs' table and the
 * tests' tenant matrix all read it: adding a capability is adding its file and one line here.
 */
import { z } from 'zod';
import { briefsGet } from './briefs-get.ts';
import { briefsList } from './briefs-list.ts';
import { competitorsList } from './competitors-list.ts';
import { fetchDocument } from './fetch.ts';
import { memoryEdit } from './memory-edit.ts';
import { painsGet } from './pains-get.ts';
import { painsList } from './pains-list.ts';
import { painsSources } from './pains-sources.ts';
import { postsGet } from './posts-get.ts';
import { projectList } from './project-list.ts';
import { projectMemory } from './project-memory.ts';
import { runsGet } from './runs-get.ts';
import { search } from './search.ts';
import type { Capability } from './types.ts';

// Each entry is typed by its own schemas; the list erases them (function parameters are
// contravariant, so no common type keeps them). That is safe because the one caller of `run`
// (http/invoke, mcp) first parses the input with the same capability's `input` schema.
export const capabilities = [
  projectMemory,
  projectList,
  briefsList,
  briefsGet,
  painsList,
  painsGet,
  painsSources,
  postsGet,
  runsGet,
  competitorsList,
  search,
  fetchDocument,
  memoryEdit,
] as unknown as readonly Capability[];

const byName = new Map(capabilities.map((c) => [c.name, c]));

export function findCapability(name: string): Capability | undefined {
  return byName.get(name);
}

/** Reads are safe for agents to call on their own; writes need a person's intent. */
export function isAgentInvokable(c: Capability): boolean {
  return c.kind === 'read';
}

export interface CapabilityDescription {
  name: string;
  kind: 'read' | 'write';
  scope: 'project' | 'user';
  agentInvokable: boolean;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** The discovery document, computed once: schemas do not change while the process runs. */
export const discovery: { capabilities: CapabilityDescription[] } = {
  capabilities: capabilities.map((c) => ({
    name: c.name,
    kind: c.kind,
    scope: c.scope,
    agentInvokable: isAgentInvokable(c),
    description: c.description,
    inputSchema: inputJsonSchema(c),
  })),
};

export function inputJsonSchema(c: Capability): Record<string, unknown> {
  return z.toJSONSchema(c.input, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
}

export function outputJsonSchema(c: Capability): Record<string, unknown> {
  return z.toJSONSchema(c.output, { io: 'output', target: 'draft-2020-12' }) as Record<string, unknown>;
}
