/**
 * Runs one capability for one caller: the rules of spec §4.1 and DESIGN §4 "Project selection"
 * in one place, shared by `/api/v1/invoke` and the MCP tools so the two can never disagree.
 */
import { forbidden, notFound } from '../domain/errors.ts';
import type { Store } from '../store/db.ts';
import { getProject, selectProject, type ProjectRecord } from '../store/projects.ts';
import type { Capability, Caller } from './types.ts';
import { fitBlocks, TEXT_MAX } from './text.ts';
import { parseInput } from './validate.ts';

export interface InvokeRequest {
  input?: unknown;
  /** A part of the project's URL; ignored by user-scoped capabilities and by tied keys. */
  project?: string | undefined;
  render?: 'text' | undefined;
}

export interface InvokeResult {
  data: unknown;
  text?: string;
}

export async function invokeCapability(store: Store, caller: Caller, capability: Capability, request: InvokeRequest, publicUrl: string): Promise<InvokeResult> {
  const input = parseInput(capability.input, request.input ?? {});
  let data: unknown;
  if (capability.scope === 'project') {
    const project = await resolveProject(store, caller, request.project);
    data = await capability.run({ store, caller, publicUrl, project }, input);
  } else {
    data = await capability.run({ store, caller, publicUrl }, input);
  }
  if (request.render === 'text' && capability.text) return { data, text: boundText(capability.text(data, input)) };
  return { data };
}

export async function resolveProject(store: Store, caller: Caller, urlPart: string | undefined): Promise<ProjectRecord> {
  if (caller.tiedProjectId !== null) {
    // A tied credential always reads its own project, whatever `project` says (spec §4.1 rule 2).
    const project = await getProject(store.db, caller.tiedProjectId);
    if (!project || project.ownerId !== caller.userId) throw forbidden('The project this key is tied to is not available.');
    return project;
  }
  const project = await selectProject(store.db, caller.userId, urlPart);
  if (project) return project;
  // No match and "someone else's project" get the same answer, so nothing about others leaks.
  if (urlPart !== undefined) throw forbidden(`No project of yours has a URL containing "${urlPart}".`);
  throw notFound('No project yet: create one first (dashboard or `signals project create`).');
}

/**
 * Every text form bounds itself and says how to get the rest; this is the backstop that keeps the
 * DESIGN §11 promise (no text over TEXT_MAX) should one of them miss.
 */
function boundText(text: string): string {
  if (text.length <= TEXT_MAX) return text;
  return fitBlocks(text.split('\n'), () => 'The structured result (`data`, MCP `structuredContent`) holds all of it.');
}
