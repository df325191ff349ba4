// Merge request pipelines from real pushes and MR creations: a file whose rules ask for
// `merge_request_event` gets a pipeline of the MR's source head when the MR opens (v4 or v3) and when
// its source branch is pushed, with today's CI_MERGE_REQUEST_* variables; jobs without rules stay on
// branch pipelines; a file that does not ask gets none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17, type V4Job } from '../helpers/runner-v4-client.ts';

const YML = `
branch-job:
  script: echo branch
mr-job:
  script: echo mr
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
legacy-mr:
  script: echo legacy
  only: [merge_requests]
`;

describe('merge request pipelines', () => {
  let ci: CiProject;
  let runner: Runner17;
  let masterSha: string;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: 'mr-pipelines-token' }, 'mrpipes');
    runner = new Runner17(ci.base);
    assert.equal((await runner.register('mr-pipelines-token')).status, 201);
    const first = await ci.push({ '.gitlab-ci.yml': YML });
    assert.ok(first);
    masterSha = first.sha;
  });
  after(() => ci.close());

  const api = (path: string) => `/api/v4/projects/${ci.project.id}${path}`;
  const get = async (path: string) => {
    const reply = await ci.t.request('GET', api(path), { token: ci.owner.token });
    assert.equal(reply.status, 200, reply.text);
    return reply.body;
  };
  const jobNames = async (pipelineId: number) =>
    ((await get(`/pipelines/${pipelineId}/jobs`)) as Array<{ name: string }>).map((j) => j.name).sort();

  /** Pushes a commit to `branch` (created from what the work tree has). */
  async function pushBranch(branch: string, file: string): Promise<string> {
    await ci.client.ok(['checkout', '-q', '-B', branch], ci.work);
    const sha = await commitFiles(ci.client, ci.work, { [file]: `${file}\n` }, `Change ${file}`);
    await ci.client.ok(['push', '-q', 'origin', branch], ci.work);
    await ci.t.server.deps.pushQueue.drain();
    return sha;
  }

  /** Takes jobs until the one named `name` comes (the others are finished as successes). */
  async function takeJob(name: string): Promise<V4Job> {
    for (;;) {
      const job = await runner.requestJob();
      assert.ok(job, `no job ${name} handed out`);
      if (job.job_info.name === name) return job;
      assert.equal((await runner.update(job, 'success')).status, 200);
    }
  }

  it('keeps branch pipelines to jobs that do not ask for merge requests', async () => {
    const [pipeline] = (await get('/pipelines?ref=master')) as Array<{ id: number; source: string }>;
    assert.equal(pipeline!.source, 'push');
    assert.deepEqual(await jobNames(pipeline!.id), ['branch-job']);
  });

  it('opening an MR makes a merge_request_event pipeline of its source head', async () => {
    const head = await pushBranch('feature', 'feature.txt');
    const created = await ci.t.request('POST', api('/merge_requests'), {
      token: ci.owner.token,
      body: {
        source_branch: 'feature',
        target_branch: 'master',
        title: 'WIP: Feature',
        labels: 'zeta,alpha',
      },
    });
    assert.equal(created.status, 201, created.text);
    const iid = created.body.iid as number;
    const listed = (await get(`/merge_requests/${iid}/pipelines`)) as Array<Record<string, unknown>>;
    const detached = listed.filter((p) => p.source === 'merge_request_event');
    assert.equal(detached.length, 1, JSON.stringify(listed));
    assert.equal(detached[0]!.ref, `refs/merge-requests/${iid}/head`);
    assert.equal(detached[0]!.sha, head);
    // The branch pipeline of the push is listed too, and only it has the branch job.
    const branchPipeline = listed.find((p) => p.source === 'push');
    assert.ok(branchPipeline);
    assert.deepEqual(await jobNames(branchPipeline.id as number), ['branch-job']);
    assert.deepEqual(await jobNames(detached[0]!.id as number), ['legacy-mr', 'mr-job']);

    // Labrador keeps GitLab's ref of the MR's head.
    const remote = await ci.client.ok(['ls-remote', 'origin', `refs/merge-requests/${iid}/head`], ci.work);
    assert.equal(remote.split('\t')[0], head);

    const job = await takeJob('mr-job');
    const variables = Object.fromEntries(job.variables.map((v) => [v.key, v.value]));
    assert.equal(variables.CI_PIPELINE_SOURCE, 'merge_request_event');
    assert.equal(variables.CI_COMMIT_REF_NAME, 'feature');
    assert.equal(variables.CI_COMMIT_BRANCH, undefined);
    assert.equal(variables.CI_COMMIT_SHA, head);
    assert.equal(variables.CI_MERGE_REQUEST_IID, String(iid));
    assert.equal(variables.CI_MERGE_REQUEST_ID, String(created.body.id));
    assert.equal(variables.CI_MERGE_REQUEST_PROJECT_ID, String(ci.project.id));
    assert.equal(variables.CI_MERGE_REQUEST_PROJECT_PATH, ci.project.fullPath);
    assert.equal(variables.CI_MERGE_REQUEST_REF_PATH, `refs/merge-requests/${iid}/head`);
    assert.equal(variables.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME, 'feature');
    assert.equal(variables.CI_MERGE_REQUEST_TARGET_BRANCH_NAME, 'master');
    assert.equal(variables.CI_MERGE_REQUEST_TITLE, 'WIP: Feature');
    assert.equal(variables.CI_MERGE_REQUEST_DRAFT, 'true');
    assert.equal(variables.CI_MERGE_REQUEST_LABELS, 'alpha,zeta');
    assert.equal(variables.CI_MERGE_REQUEST_DIFF_BASE_SHA, masterSha);
    // As GitLab leaves them in a pipeline of the source head (set only in merged results pipelines).
    assert.equal(variables.CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, '');
    assert.equal(variables.CI_MERGE_REQUEST_TARGET_BRANCH_SHA, '');
    assert.equal((await runner.update(job, 'success')).status, 200);
  });

  it('a push to the source branch makes one more of each, and names the MR in branch jobs', async () => {
    const head = await pushBranch('feature', 'second.txt');
    const pipelines = (await get('/pipelines?sha=' + head)) as Array<{
      id: number;
      source: string;
      ref: string;
    }>;
    assert.deepEqual(pipelines.map((p) => p.source).sort(), ['merge_request_event', 'push']);
    const remote = await ci.client.ok(['ls-remote', 'origin', 'refs/merge-requests/1/head'], ci.work);
    assert.equal(remote.split('\t')[0], head);
    const listed = (await get('/merge_requests/1/pipelines')) as Array<{ source: string }>;
    assert.equal(listed.filter((p) => p.source === 'merge_request_event').length, 2);

    const job = await takeJob('branch-job');
    const variables = Object.fromEntries(job.variables.map((v) => [v.key, v.value]));
    assert.equal(variables.CI_COMMIT_BRANCH, 'feature');
    assert.equal(variables.CI_OPEN_MERGE_REQUESTS, `${ci.project.fullPath}!1`);
    assert.equal(variables.CI_MERGE_REQUEST_IID, undefined);
    assert.equal((await runner.update(job, 'success')).status, 200);
  });

  it('an MR opened through v3 gets one too; a file that asks for none gets none', async () => {
    await ci.client.ok(['checkout', '-q', 'master'], ci.work);
    await pushBranch('v3-topic', 'v3.txt');
    const v3 = await ci.t.request('POST', `/api/v3/projects/${ci.project.id}/merge_requests`, {
      token: ci.owner.token,
      body: { source_branch: 'v3-topic', target_branch: 'master', title: 'Through v3' },
    });
    assert.equal(v3.status, 201, v3.text);
    const listed = (await get(`/merge_requests/${v3.body.iid}/pipelines`)) as Array<{ source: string }>;
    assert.equal(listed.filter((p) => p.source === 'merge_request_event').length, 1);

    await ci.client.ok(['checkout', '-q', 'master'], ci.work);
    await ci.client.ok(['checkout', '-q', '-B', 'plain'], ci.work);
    await commitFiles(ci.client, ci.work, { '.gitlab-ci.yml': 'only-branches:\n  script: echo\n' }, 'Plain');
    await ci.client.ok(['push', '-q', 'origin', 'plain'], ci.work);
    const plain = await ci.t.request('POST', api('/merge_requests'), {
      token: ci.owner.token,
      body: { source_branch: 'plain', target_branch: 'master', title: 'Plain' },
    });
    assert.equal(plain.status, 201, plain.text);
    const plainListed = (await get(`/merge_requests/${plain.body.iid}/pipelines`)) as Array<{
      source: string;
    }>;
    assert.deepEqual(
      plainListed.map((p) => p.source),
      ['push'],
    );
  });
});
