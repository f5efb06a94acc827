import { z } from 'zod';
import { projectSummarySchema } from '../domain/resources.ts';
import { listProjectSummaries } from '../store/projects.ts';
import { bullet, fitBlocks } from './text.ts';
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
    projects.length === 0
      ? '- No projects yet.'
      : fitBlocks(
          projects.map((p) => bullet(`${p.name} (${p.url}), id ${p.id}, memory ${p.memoryStatus}`)),
          (cut) => `${cut.shown} of ${projects.length} projects are shown, newest first; the structured result holds them all.`,
        ),
});
