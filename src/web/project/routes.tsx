/**
 * The project pages of DESIGN §9, one file each, under /projects/:id. Every page loads the
 * signed-in owner's project through `projectPage`/`projectPost` (context.tsx) and reads through
 * the capability handlers; every form post ends in a redirect (POST-redirect-GET).
 */
import { Hono } from 'hono';
import type { WebEnv } from '../security.ts';
import { briefsRoutes } from './briefs.tsx';
import { competitorsRoutes } from './competitors.tsx';
import type { ProjectPageDeps } from './context.tsx';
import { memoryRoutes } from './memory.tsx';
import { runsRoutes } from './runs.tsx';
import { themesRoutes } from './themes.tsx';

export function projectRoutes(deps: ProjectPageDeps): Hono<WebEnv> {
  const app = new Hono<WebEnv>();
  memoryRoutes(app, deps);
  briefsRoutes(app, deps);
  themesRoutes(app, deps);
  competitorsRoutes(app, deps);
  runsRoutes(app, deps);
  return app;
}
