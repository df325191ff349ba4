// 1,000 pending builds and two runners asking at the same time: every build is handed out exactly once.
// On PostgreSQL the runners ask two Labrador processes sharing one database (the claim must hold with row
// locks, not a process-local lock); on SQLite, where one process owns the file, both ask that one. Each
// runner keeps two requests in flight (runner 1.7's `concurrent`). Prints the builds taken per second.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../../src/db/connect.ts';
import { insertBuilds } from '../../src/db/repositories/builds.ts';
import { insertPipeline } from '../../src/db/repositories/pipelines.ts';
import { createInstance, spawnLabrador, type Instance, type LabradorProcess } from '../helpers/process.ts';
import { RunnerClient } from '../helpers/runner-client.ts';

const BUILDS = 1000;
const PROJECTS = 4;
const REGISTRATION_TOKEN = 'claims-registration-token';
const onPostgres = Boolean(process.env.LABRADOR_TEST_PG_URL);

describe('build claims under contention', () => {
  let instance: Instance;
  const processes: LabradorProcess[] = [];
  let db: Db | undefined;

  before(async () => {
    instance = await createInstance();
  });
  after(async () => {
    await db?.close();
    await Promise.all(processes.map((labrador) => labrador.kill()));
    await instance.remove();
  });

  const start = async () => {
    const labrador = spawnLabrador({
      ...instance.env,
      LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN,
    });
    processes.push(labrador);
    return labrador.ready();
  };

  /** Projects through the API, then their pipelines and pending builds straight into the database. */
  async function seed(url: string): Promise<number[]> {
    const projectIds: number[] = [];
    for (let index = 0; index < PROJECTS; index += 1) {
      const reply = await fetch(`${url}/api/v3/projects`, {
        method: 'POST',
        headers: { 'private-token': instance.rootToken, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `claims${index}` }),
      });
      assert.equal(reply.status, 201, await reply.clone().text());
      projectIds.push(((await reply.json()) as { id: number }).id);
    }
    db = await openDatabase({ databaseUrl: instance.databaseUrl, dataDir: instance.dataDir });
    const at = new Date().toISOString();
    const ids: number[] = [];
    for (const projectId of projectIds) {
      const pipeline = await insertPipeline(db.kysely, {
        project_id: projectId,
        ref: 'master',
        sha: crypto.randomBytes(20).toString('hex'),
        before_sha: null,
        tag: 0 as const,
        status: 'pending',
        yaml_errors: null,
        user_id: null,
        commit_message: 'load',
        commit_author_name: null,
        commit_author_email: null,
        commit_committed_date: null,
        committed_at: null,
        started_at: null,
        finished_at: null,
        duration: null,
        created_at: at,
        updated_at: at,
      });
      const rows = Array.from({ length: BUILDS / PROJECTS }, (_, index) => ({
        project_id: projectId,
        pipeline_id: pipeline.id,
        type: 'build' as const,
        name: `job${index}`,
        stage: 'test',
        stage_idx: 0,
        status: 'pending' as const,
        ref: 'master',
        tag: 0 as const,
        commands: 'true',
        options: '{}',
        yaml_variables: '[]',
        tag_list: '[]',
        allow_failure: 0 as const,
        when: 'on_success' as const,
        environment: null,
        coverage: null,
        token: crypto.randomBytes(10).toString('hex'),
        runner_id: null,
        user_id: null,
        trigger_request_id: null,
        erased_by_id: null,
        erased_at: null,
        artifacts_file: null,
        artifacts_size: null,
        artifacts_metadata: null,
        artifacts_expire_at: null,
        description: null,
        target_url: null,
        queued_at: at,
        started_at: null,
        finished_at: null,
        created_at: at,
        updated_at: at,
      }));
      ids.push(...(await insertBuilds(db.kysely, rows)).map((build) => build.id));
    }
    return ids;
  }

  /** Asks for jobs until the server has none left for it; answers the ids it was given. */
  async function poll(runner: RunnerClient): Promise<number[]> {
    const taken: number[] = [];
    for (;;) {
      const job = await runner.requestJob();
      if (!job) return taken;
      taken.push(job.id);
    }
  }

  it('hands each of 1,000 pending builds to exactly one runner', { timeout: 240_000 }, async () => {
    const first = await start();
    const second = onPostgres ? await start() : first;
    const ids = await seed(first.url);
    assert.equal(ids.length, BUILDS);

    const runners = [new RunnerClient(first.url), new RunnerClient(second.url)];
    for (const runner of runners) assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    const started = performance.now();
    const loops = await Promise.all(runners.flatMap((runner) => [poll(runner), poll(runner)]));
    const seconds = (performance.now() - started) / 1000;

    const taken = loops.flat();
    assert.equal(new Set(taken).size, taken.length, 'a build was handed out twice');
    assert.deepEqual(
      [...taken].sort((a, b) => a - b),
      ids,
    );
    // Both runners got work (the queue is shared), and nothing is left.
    const byRunner = [loops[0].length + loops[1].length, loops[2].length + loops[3].length];
    assert.ok(
      byRunner.every((count) => count > 0),
      `per runner: ${byRunner}`,
    );
    for (const runner of runners) assert.equal(await runner.requestJob(), null);

    const rows = await db!.kysely.selectFrom('ci_builds').select(['status', 'runner_id']).execute();
    assert.equal(rows.length, BUILDS);
    assert.ok(rows.every((row) => row.status === 'running' && row.runner_id !== null));
    const perRunner = new Map<number, number>();
    for (const row of rows) perRunner.set(row.runner_id!, (perRunner.get(row.runner_id!) ?? 0) + 1);
    assert.deepEqual(
      [...perRunner.entries()].sort(([a], [b]) => a - b).map(([, count]) => count),
      runners
        .map((runner) => runner.id!)
        .sort((a, b) => a - b)
        .map((id) => perRunner.get(id)!),
    );
    assert.equal(
      [...perRunner.values()].reduce((sum, count) => sum + count, 0),
      BUILDS,
    );

    const engine = onPostgres ? 'PostgreSQL, two processes' : 'SQLite, one process';
    console.log(
      `# build claims (${engine}): ${BUILDS} builds in ${seconds.toFixed(1)} s = ` +
        `${(BUILDS / seconds).toFixed(0)} builds/s; per runner ${byRunner.join(' / ')}`,
    );
  });
});
