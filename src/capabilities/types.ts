import type { z } from 'zod';
import type { Store } from '../store/db.ts';
import type { ProjectRecord } from '../store/projects.ts';

/** Who is calling: an account, and the project its credential is tied to, if any. */
export interface Caller {
  userId: string;
  /** Set for keys (and later OAuth grants) tied to one project: that project is always used. */
  tiedProjectId: string | null;
  keyId: string | null;
}

export interface UserContext {
  store: Store;
  caller: Caller;
  /** Where people reach the service (PUBLIC_URL): links to dashboard pages are built on it. */
  publicUrl: string;
}

export interface ProjectContext extends UserContext {
  project: ProjectRecord;
}

interface CapabilityBase<I extends z.ZodType, O> {
  /** `area.verb`; the MCP tool name swaps the dot for an underscore. */
  name: string;
  /** A short human title (MCP tool title, docs heading). */
  title: string;
  kind: 'read' | 'write';
  description: string;
  input: I;
  output: z.ZodType<O>;
  /**
   * The text form for `render: "text"` and MCP tool results, written for a model to read (DESIGN
   * §11), at most TEXT_MAX characters (text.ts). It gets the input too, so that a cut answer can
   * say which page or limit brings the rest.
   */
  text?: (data: O, input: z.output<I>) => string;
}

export interface ProjectCapability<I extends z.ZodType = z.ZodType, O = unknown> extends CapabilityBase<I, O> {
  scope: 'project';
  run(ctx: ProjectContext, input: z.output<I>): Promise<O>;
}

export interface UserCapability<I extends z.ZodType = z.ZodType, O = unknown> extends CapabilityBase<I, O> {
  scope: 'user';
  run(ctx: UserContext, input: z.output<I>): Promise<O>;
}

export type Capability<I extends z.ZodType = z.ZodType, O = unknown> = ProjectCapability<I, O> | UserCapability<I, O>;

/** Identity functions that keep each capability file's input and output types precise. */
export function projectCapability<I extends z.ZodType, O>(c: ProjectCapability<I, O>): ProjectCapability<I, O> {
  return c;
}
export function userCapability<I extends z.ZodType, O>(c: UserCapability<I, O>): UserCapability<I, O> {
  return c;
}
