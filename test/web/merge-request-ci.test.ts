// A merge request's page and its CI, as 8.13's merge widget showed them: the head pipeline's line
// (`Pipeline #N pending for <sha>.`) with each job, the Pipelines and Builds tabs, "Merge When Build
// Succeeds" while the pipeline runs (armed, shown with who armed it, cancelled from the page, then merged
// by the pipeline's success), and the refusal a person needs when the project merges only green builds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { commitFiles, startCiProject, type CiProject } from '../helpers/ci.ts';
import { Runner17 } from '../helpers/runner-v4-client.ts';
import { signedInClient, type WebClient } from '../helpers/web.ts';
import { until } from '../helpers/wait.ts';

const REGISTRATION_TOKEN = 'mr-ci-registration';
const YML = 'stages: [test]\nunit:\n  script: [make test]\n';

describe('pages: a merge request and its pipeline', () => {
  let ci: CiProject;
  let web: WebClient;
  let runner: Runner17;
  const api = () => `/api/v3/projects/${ci.project.id}`;

  async function pushBranch(branch: string, file: string): Promise<string> {
    await ci.client.ok(['checkout', '-q', '-B', branch, 'master'], ci.work);
    const sha = await commitFiles(ci.client, ci.work, { [file]: `${branch}\n` }, `work on ${branch}`);
    await ci.client.ok(['push', '-q', 'origin', branch], ci.work);
    await ci.client.ok(['checkout', '-q', 'master'], ci.work);
    return sha;
  }

  async function openMergeRequest(branch: string) {
    const created = await ci.t.request('POST', `${api()}/merge_requests`, {
      token: ci.owner.token,
      body: { source_branch: branch, target_branch: 'master', title: `Merge ${branch}` },
    });
    assert.equal(created.status, 201, created.text);
    return created.body;
  }

  async function pipelineOf(branch: string) {
    return until(`the pipeline of ${branch}`, async () => {
      const list = await ci.t.request('GET', `${api()}/pipelines?ref=${branch}`, { token: ci.owner.token });
      return list.body[0];
    });
  }

  /** Has the runner take jobs until it takes `ref`'s, which ends in `state` (others it passes). */
  async function finishJobOf(ref: string, state: 'success' | 'failed') {
    for (let taken = 0; taken < 5; taken++) {
      const job = await runner.requestJob();
      assert.ok(job, `a pending job for ${ref}`);
      const mine = job.git_info.ref === ref;
      const extra = mine && state === 'failed' ? { failure_reason: 'script_failure' } : { exit_code: 0 };
      assert.equal((await runner.update(job, mine ? state : 'success', extra)).status, 200);
      if (mine) return;
    }
    assert.fail(`no job of ${ref}`);
  }

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'widget');
    await ci.push({ '.gitlab-ci.yml': YML, 'README.md': 'widget\n' }, 'first');
    runner = new Runner17(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    // master's own pipeline: taken and finished so it does not stand in the way of the branch's job.
    const job = await runner.requestJob();
    assert.ok(job);
    assert.equal((await runner.update(job, 'success', { exit_code: 0 })).status, 200);
    web = await signedInClient(ci.t, ci.owner);
  });
  after(() => ci?.close());

  it('shows the head pipeline with its jobs, and the Pipelines and Builds tabs', async () => {
    const sha = await pushBranch('shown', 'shown.txt');
    const mr = await openMergeRequest('shown');
    const pipeline = await pipelineOf('shown');
    const url = `/${ci.project.fullPath}/merge_requests/${mr.iid}`;
    const page = await web.get(url);
    assert.equal(page.status, 200);
    assert.match(
      page.text,
      new RegExp(
        `Pipeline <a href="/${ci.project.fullPath}/pipelines/${pipeline.id}">#${pipeline.id}</a> pending for <a class="mono" href="/${ci.project.fullPath}/commit/${sha}">${sha.slice(0, 8)}</a>`,
      ),
    );
    assert.match(page.text, /<ul class="list" aria-label="Jobs"><li>.*pending.*test:<\/span> unit<\/li>/);
    assert.match(page.text, new RegExp(`href="${url}/pipelines"`));
    assert.match(page.text, new RegExp(`href="${url}/builds"`));
    assert.match(page.text, />Merge When Build Succeeds<\/button>/);
    assert.match(page.text, />Merge Immediately<\/button>/);

    const pipelines = await web.get(`${url}/pipelines`);
    assert.equal(pipelines.status, 200);
    assert.match(pipelines.text, /<table aria-label="Pipelines">/);
    assert.match(pipelines.text, new RegExp(`>#${pipeline.id}</a>`));
    const builds = await web.get(`${url}/builds`);
    assert.equal(builds.status, 200);
    assert.match(builds.text, /<table aria-label="Builds">/);
    assert.match(builds.text, /<td>unit<\/td>/);
    await finishJobOf('shown', 'success');
  });

  it('arms the automatic merge, shows who armed it, cancels it, and merges when the build succeeds', async () => {
    const sha = await pushBranch('auto', 'auto.txt');
    const mr = await openMergeRequest('auto');
    await pipelineOf('auto');
    const url = `/${ci.project.fullPath}/merge_requests/${mr.iid}`;
    await web.get(url);
    const arm = () => web.post(`${url}/merge`, { sha, merge_when_build_succeeds: '1' });
    assert.equal((await arm()).status, 302);
    let page = await web.get(url);
    assert.match(page.text, /to be merged automatically when the build succeeds/);
    assert.doesNotMatch(page.text, />Merge Immediately<\/button>/);
    assert.equal((await web.post(`${url}/cancel_merge_when_build_succeeds`)).status, 302);
    page = await web.get(url);
    assert.doesNotMatch(page.text, /to be merged automatically/);
    const shown = await ci.t.request('GET', `${api()}/merge_requests/${mr.id}`, { token: ci.owner.token });
    assert.equal(shown.body.merge_when_build_succeeds, false);
    assert.match(page.text, /Canceled the automatic merge/);

    assert.equal((await arm()).status, 302);
    await finishJobOf('auto', 'success');
    await until('the automatic merge', async () => {
      const read = await ci.t.request('GET', `${api()}/merge_requests/${mr.id}`, { token: ci.owner.token });
      return read.body.state === 'merged';
    });
    page = await web.get(url);
    assert.match(page.text, /Merged into master/);
    assert.match(page.text, /passed for/);
  });

  it('says why it will not merge when the project merges only green builds and the build failed', async () => {
    const flag = await ci.t.request('PUT', api(), {
      token: ci.owner.token,
      body: { name: 'widget', only_allow_merge_if_build_succeeds: true },
    });
    assert.equal(flag.status, 200, flag.text);
    await pushBranch('red', 'red.txt');
    const mr = await openMergeRequest('red');
    await pipelineOf('red');
    await finishJobOf('red', 'failed');
    const page = await web.get(`/${ci.project.fullPath}/merge_requests/${mr.iid}`);
    assert.match(page.text, /The build for this merge request failed\./);
    assert.doesNotMatch(page.text, />Merge<\/button>/);
    assert.match(page.text, /failed for/);
  });
});
