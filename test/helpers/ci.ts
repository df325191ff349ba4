// Reads of CI state for tests that check what a push or a runner call left behind, plus small helpers
// to commit a .gitlab-ci.yml through the real git client.
import fs from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from './app.ts';
import { createProject, createUser, type TestProject, type TestUser } from './factory.ts';
import { GitClient, listen, repoUrl } from './git.ts';

export async function pipelinesOf(t: TestApp, projectId: number) {
  return t.server.deps.db.kysely
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

export async function buildsOf(t: TestApp, pipelineId: number) {
  return t.server.deps.db.kysely
    .selectFrom('ci_builds')
    .selectAll()
    .where('pipeline_id', '=', pipelineId)
    .orderBy('id')
    .execute();
}

/** Writes files (path → content) into a work tree and commits them. */
export async function commitFiles(
  client: GitClient,
  dir: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  await client.ok(['add', '-A'], dir);
  await client.ok(['commit', '-q', '--allow-empty', '-m', message], dir);
  return (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
}

/** A listening app with a user, a project and a work tree whose `origin` is the project over HTTP. */
export interface CiProject {
  t: TestApp;
  base: string;
  client: GitClient;
  owner: TestUser;
  project: TestProject;
  work: string;
  /** Commits the files, pushes master and answers the project's newest pipeline (if any). */
  push(
    files: Record<string, string>,
    message?: string,
  ): Promise<Awaited<ReturnType<typeof pipelinesOf>>[number] | undefined>;
  close(): Promise<void>;
}

export async function startCiProject(env: Record<string, string>, name: string): Promise<CiProject> {
  const t = await startTestApp(env);
  const base = await listen(t);
  const client = new GitClient();
  const owner = await createUser(t, `${name}owner`);
  const project = await createProject(t, { owner, path: name });
  const work = await client.workTree('work');
  await client.ok(
    ['remote', 'add', 'origin', repoUrl(base, project.fullPath, owner.username, owner.password)],
    work,
  );
  return {
    t,
    base,
    client,
    owner,
    project,
    work,
    async push(files, message = 'ci') {
      await commitFiles(client, work, files, message);
      await client.ok(['push', '-q', 'origin', 'master'], work);
      return (await pipelinesOf(t, project.id)).at(-1);
    },
    async close() {
      await t.close();
      client.close();
    },
  };
}
