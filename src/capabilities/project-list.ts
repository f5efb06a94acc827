import { z } from 'zod';
import { projectSummarySchema } from '../domain/resources.ts';
import { listProjectSummaries } from '../store/projects.ts';
import { bullets } from './text.ts';
import { userCapability } from './types.ts';

export const projectList = userCapability({
  name: 'project.list',
  title: 'List projects',
  kind: 'read',
  scope: 'user',
  description:
    "Every project of the caller's account, newest first, with its id, name, URL and memory status. Use a part of a project's URL as `project` to read that project.",
  input: z.strictObject({}),
  output: z.object({ projects: z.array(projectSummarySchema) }),
  async run({ store, caller }) {
    return { projects: await listProjectSummaries(store.db, caller.userId) };
  },
  text: ({ projects }) =>
    projects.length === 0 ? '- No projects yet.' : bullets(projects.map((p) => `${p.name} (${p.url}), id ${p.id}, memory ${p.memoryStatus}`)),
});
