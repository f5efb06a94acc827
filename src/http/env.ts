import type { Caller } from '../capabilities/types.ts';
import type { LastUsedRecorder } from '../auth/api-keys.ts';
import type { Auth } from '../auth/better-auth.ts';
import type { DigestLauncher } from '../ingest/digest/launcher.ts';
import type { Logger } from '../logger.ts';
import type { ToolSet } from '../mcp/tools.ts';
import type { Store } from '../store/db.ts';

/** What every request handler can reach through `c.var`. */
export interface AppEnv {
  Variables: {
    requestId: string;
    caller: Caller;
    /** The parsed JSON body, set by the json-body middleware. */
    body: Record<string, unknown>;
    /** Set by a route so the request's log line can say what was called. */
    capability: string;
  };
}

export interface AppDeps {
  store: Store;
  logger: Logger;
  lastUsed: LastUsedRecorder;
  /**
   * Where callers reach the service (OAuth resource, allowed Host/Origin) and where it listens;
   * DESIGN §2's defaults (http://localhost:8080 on 127.0.0.1) when absent.
   */
  config?: { publicUrl: string; host: string; digestHourUtc?: number };
  /** The MCP tool set; the registry's unless a test serves its own. */
  mcpTools?: ToolSet;
  /**
   * better-auth on the same database: when given, its handler is mounted at /api/auth/* and the
   * web pages (DESIGN §7: /signup, /login, /logout, /dashboard) are served.
   */
  auth?: Auth;
  /** Starts the dashboard's "Run now" digests; without it the runs page says runs start only in `signals serve`. */
  launcher?: DigestLauncher;
}
