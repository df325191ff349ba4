// Reads of CI state for tests that check what a push or a runner call left behind, plus small helpers
// to commit a .gitlab-ci.yml through the real git client.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { insertBuilds, updateBuild } from '../../src/db/repositories/builds.ts';
import { insertPipeline } from '../../src/db/repositories/pipelines.ts';
import { storeArtifacts } from '../../src/storage/artifacts.ts';
import { tracePath, writeTrace } from '../../src/storage/traces.ts';
import type { CiStatus, CiWhen } from '../../src/domain/types.ts';
import type { Executor } from '../../src/db/types.ts';
import { makeZip } from './zip.ts';
import { startTestApp, type TestApp } from './app.ts';
import { createProject, createUser, type TestProject, type TestUser } from './factory.ts';
import { GitClient, listen, repoUrl } from './git.ts';

export async function pipelinesOf(t: TestApp, projectId: number) {
  // Pushes answered already have their pipelines recorded right after: wait for that.
  await t.server.deps.pushQueue.drain();
  return t.server.deps.db.kysely
    .selectFrom('ci_pipelines')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

export async function buildsOf(t: TestApp, pipelineId: number) {
  await t.server.deps.pushQueue.drain();
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
  /** Commits the files, pushes master and answers the project's newest pipeline (if any), once recorded. */
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

export interface SeedBuild {
  name: string;
  status: CiStatus;
  stage?: string;
  stageIdx?: number;
  when?: CiWhen;
  commands?: string;
  /** Stores a zip archive with this content as the build's artifacts. */
  artifacts?: Record<string, string>;
  artifactsExpireAt?: string | null;
  /** Writes this trace. */
  trace?: string;
  startedAt?: string | null;
}

/**
 * A pipeline with builds in the given statuses, written straight through the repositories and storage
 * (no runner, no push): for tests of who may read and act, where how the builds got there is beside the
 * point. Builds are inserted in order, so later ones have higher ids.
 */
export async function seedPipeline(
  t: TestApp,
  project: { id: number },
  options: {
    sha: string;
    ref?: string;
    status?: CiStatus;
    userId?: number | null;
    builds: SeedBuild[];
    /** Written through this connection (another server's, for a race) instead of the app's. */
    db?: Executor;
  },
) {
  const db = options.db ?? t.server.deps.db.kysely;
  const at = new Date().toISOString();
  const pipeline = await insertPipeline(db, {
    project_id: project.id,
    ref: options.ref ?? 'master',
    sha: options.sha,
    before_sha: null,
    tag: 0,
    status: options.status ?? 'success',
    yaml_errors: null,
    user_id: options.userId ?? null,
    commit_message: null,
    commit_author_name: null,
    commit_author_email: null,
    commit_committed_date: null,
    committed_at: null,
    started_at: at,
    finished_at: null,
    duration: null,
    created_at: at,
    updated_at: at,
  });
  const builds = await insertBuilds(
    db,
    options.builds.map((build, index) => ({
      project_id: project.id,
      pipeline_id: pipeline.id,
      type: 'build' as const,
      name: build.name,
      stage: build.stage ?? 'test',
      stage_idx: build.stageIdx ?? index,
      status: build.status,
      ref: options.ref ?? 'master',
      tag: 0,
      commands: build.commands ?? 'true',
      options: '{}',
      yaml_variables: '[]',
      tag_list: '[]',
      allow_failure: 0,
      when: build.when ?? 'on_success',
      environment: null,
      token: crypto.randomBytes(10).toString('hex'),
      user_id: options.userId ?? null,
      trigger_request_id: null,
      started_at: build.startedAt === undefined ? at : build.startedAt,
      finished_at: ['success', 'failed', 'canceled'].includes(build.status) ? at : null,
      created_at: at,
      updated_at: at,
    })),
  );
  for (const [index, spec] of options.builds.entries()) {
    const build = builds[index]!;
    if (spec.trace !== undefined)
      await writeTrace(tracePath(t.config.dataDir, build), Buffer.from(spec.trace));
    if (spec.artifacts) {
      const zip = await makeZip(spec.artifacts);
      const stored = await storeArtifacts(
        t.config.dataDir,
        build,
        'artifacts.zip',
        Readable.from([zip]),
        1 << 30,
      );
      await updateBuild(db, build.id, {
        artifacts_file: stored.filename,
        artifacts_size: stored.size,
        artifacts_metadata: stored.metadata,
        artifacts_expire_at: spec.artifactsExpireAt ?? null,
      });
    }
  }
  return { pipeline, builds: await buildsOf(t, pipeline.id) };
}
