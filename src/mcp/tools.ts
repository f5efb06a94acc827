/**
 * The MCP tools, derived from the capability registry once at start-up: one tool per capability
 * that agents may invoke on their own (reads), none written by hand. Adding a capability to the
 * registry adds its tool here with no other change.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { capabilities, inputJsonSchema, isAgentInvokable, outputJsonSchema } from '../capabilities/registry.ts';
import type { Capability } from '../capabilities/types.ts';
import { ERROR_CODES } from '../domain/errors.ts';
import { LIMITS } from '../domain/limits.ts';

export interface McpTool {
  definition: Tool;
  capability: Capability;
}

/** `briefs.list` → `briefs_list` (spec §4.5). */
export function toolName(capabilityName: string): string {
  return capabilityName.replaceAll('.', '_');
}

const projectArgument = {
  type: 'string',
  minLength: 1,
  maxLength: LIMITS.url,
  description:
    "Part of the project's URL choosing which of your projects to read (case-insensitive); defaults to your most recent project. Ignored by keys tied to one project and by account-wide tools.",
};

/**
 * The result a failed call carries in `structuredContent` (DESIGN §6). It is admitted by every
 * published outputSchema because clients validate `structuredContent` against it even on
 * `isError` results (the v1 TypeScript SDK client does), and would otherwise throw instead of
 * showing the model the error.
 */
const errorResult = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: { code: { type: 'string', enum: [...ERROR_CODES] }, message: { type: 'string' } },
      required: ['code', 'message'],
      additionalProperties: false,
    },
  },
  required: ['error'],
  additionalProperties: false,
};

function toolInputSchema(c: Capability): Tool['inputSchema'] {
  const schema = inputJsonSchema(c) as { properties?: Record<string, unknown> } & Record<string, unknown>;
  return { ...schema, type: 'object', properties: { ...schema.properties, project: projectArgument } };
}

function toolOutputSchema(c: Capability): NonNullable<Tool['outputSchema']> {
  const { $schema, ...data } = outputJsonSchema(c);
  // MCP wants an object schema at the root; the success shape or the error shape sit under anyOf.
  return { $schema, type: 'object', anyOf: [data, errorResult] } as NonNullable<Tool['outputSchema']>;
}

/** The tools of a capability list: its agent-invokable entries, nothing else. */
export function toolsFrom(list: readonly Capability[]): McpTool[] {
  return list.filter(isAgentInvokable).map((capability) => ({
    capability,
    definition: {
      name: toolName(capability.name),
      title: capability.title,
      description: capability.description,
      inputSchema: toolInputSchema(capability),
      outputSchema: toolOutputSchema(capability),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
  }));
}

/** A tool set with lookup by name, built once; the endpoint serves `registryTools`. */
export class ToolSet {
  readonly list: { tools: Tool[] };
  private readonly byName: Map<string, McpTool>;

  constructor(readonly tools: readonly McpTool[]) {
    this.list = { tools: tools.map((t) => t.definition) };
    this.byName = new Map(tools.map((t) => [t.definition.name, t]));
  }

  find(name: string): McpTool | undefined {
    return this.byName.get(name);
  }
}

export const registryTools = new ToolSet(toolsFrom(capabilities));
