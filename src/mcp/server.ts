/**
 * The MCP server behind POST /api/mcp. The SDK wants a fresh server object per request (it binds
 * one to each exchange and refuses to share it), so the factory below is cheap: it only attaches
 * two handlers to precomputed tool definitions; nothing is compiled per request.
 */
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { invokeCapability } from '../capabilities/invoke.ts';
import type { Caller } from '../capabilities/types.ts';
import { INTERNAL_MESSAGE, ServiceError, invalid } from '../domain/errors.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/db.ts';
import { registryTools, type McpTool, type ToolSet } from './tools.ts';

export const SERVER_INFO = { name: 'project-signals', title: 'Project Signals', version: '0.1.0' };

export interface McpDeps {
  store: Store;
  logger: Logger;
  config: { publicUrl: string };
  /** The tools to serve; the registry's unless a test passes its own. */
  mcpTools?: ToolSet;
}

export function createMcpServer(deps: McpDeps, caller: Caller, requestId: string): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      'Read what online communities say about this project: numbered daily brief items (briefs_list, briefs_get), pain themes with verbatim quotes (pains_list, pains_get, pains_sources), competitors by mentions, source threads (posts_get), digest runs and the project memory. search finds posts, comments, quotes, themes and brief items by words; fetch gives the whole document behind a search result. Pass `project` (part of a project URL) to pick one of several projects.',
  });
  const tools = deps.mcpTools ?? registryTools;
  server.setRequestHandler('tools/list', async () => tools.list);
  server.setRequestHandler('tools/call', async (request) => {
    const tool = tools.find(request.params.name);
    // An unknown tool is a protocol error (the model cannot fix it by changing arguments).
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(deps, caller, requestId, tool.capability, request.params.arguments ?? {});
  });
  return server;
}

async function callTool(
  deps: McpDeps,
  caller: Caller,
  requestId: string,
  capability: McpTool['capability'],
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const started = performance.now();
  try {
    const { project, ...input } = args;
    if (project !== undefined && typeof project !== 'string') throw invalid('project: expected a string (part of a project URL)');
    const result = await invokeCapability(deps.store, caller, capability, { input, project, render: 'text' }, deps.config.publicUrl);
    return {
      content: [{ type: 'text', text: result.text ?? JSON.stringify(result.data) }],
      structuredContent: result.data as Record<string, unknown>,
    };
  } catch (err) {
    // Capability errors are tool results the model can read and act on, not protocol errors.
    const error = err instanceof ServiceError ? err : new ServiceError('internal', INTERNAL_MESSAGE);
    if (!(err instanceof ServiceError)) deps.logger.error({ requestId, err, tool: capability.name }, 'tool call failed');
    return {
      isError: true,
      content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
      structuredContent: { error: { code: error.code, message: error.message } },
    };
  } finally {
    deps.logger.debug({ requestId, tool: capability.name, ms: Math.round((performance.now() - started) * 100) / 100 }, 'tool call');
  }
}
