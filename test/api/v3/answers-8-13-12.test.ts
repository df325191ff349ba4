// What GitLab 8.13.12 answers where 8.13.0 (and Labrador before) answered otherwise, each as a v3 client
// sees it: a developer merges into a protected branch that lets developers merge; a project that only
// merges after a successful build refuses a merge whose pipeline failed (405); a push that puts an open
// MR's head on its target branch marks the MR merged; an MR's notes hidden from a guest of a private
// project are `404 Notes Not Found`, an unknown note `404 Not found`; subscribing to an MR takes the
// right to update it; a confidential issue's notes and award emoji are hidden from a guest with their own
// 404s; editing an issue of a project whose issues are off is 403; an artifacts upload reads `expire_in`
// from a multipart field before or after the file.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addProjectMember, createUser, type TestUser } from '../../helpers/factory.ts';
import { commitFiles, pipelinesOf, seedPipeline, startCiProject, type CiProject } from '../../helpers/ci.ts';
import { RunnerClient } from '../../helpers/runner-client.ts';
import { makeZip } from '../../helpers/zip.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

const REGISTRATION_TOKEN = 'answers-registration-token';

describe('v3 answers of GitLab 8.13.12', () => {
  let ci: CiProject;
  let developer: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let api: string;

  const call = (method: string, url: string, token: string, body: Record<string, unknown> = {}) =>
    ci.t.request(method, url, { token, body });

  /** Pushes a branch off master with one commit, as the owner; answers its head. */
  async function pushBranch(branch: string) {
    await ci.client.ok(['checkout', '-q', '-B', branch, 'origin/master'], ci.work);
    const head = await commitFiles(ci.client, ci.work, { [`${branch}.txt`]: `${branch}\n` }, `Add ${branch}`);
    await ci.client.ok(['push', '-q', 'origin', branch], ci.work);
    return head;
  }

  async function openMergeRequest(branch: string, token: string) {
    const created = await call('POST', `${api}/merge_requests`, token, {
      source_branch: branch,
      target_branch: 'master',
      title: `Merge ${branch}`,
    });
    assert.equal(created.status, 201, created.text);
    return created.body as { id: number; iid: number; state: string };
  }

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'answers');
    api = `/api/v3/projects/${ci.project.id}`;
    developer = await createUser(ci.t, 'ansdev');
    reporter = await createUser(ci.t, 'ansreporter');
    guest = await createUser(ci.t, 'ansguest');
    await addProjectMember(ci.t, ci.project.id, developer.id, AccessLevel.Developer);
    await addProjectMember(ci.t, ci.project.id, reporter.id, AccessLevel.Reporter);
    await addProjectMember(ci.t, ci.project.id, guest.id, AccessLevel.Guest);
    await ci.push({ 'README.md': 'readme\n' }, 'Start');
    const protect = await call('PUT', `${api}/repository/branches/master/protect`, ci.owner.token);
    assert.equal(protect.status, 200, protect.text);
  });

  after(async () => {
    await ci?.close();
  });

  it('lets a developer merge into a protected branch only when it allows developers to merge', async () => {
    await pushBranch('dev-merge');
    const mr = await openMergeRequest('dev-merge', developer.token);
    const refused = await call('PUT', `${api}/merge_requests/${mr.id}/merge`, developer.token);
    assert.equal(refused.status, 401, refused.text);
    assert.deepEqual(refused.body, { message: '401 Unauthorized' });
    const allow = await call('PUT', `${api}/repository/branches/master/protect`, ci.owner.token, {
      developers_can_merge: true,
    });
    assert.equal(allow.status, 200, allow.text);
    assert.equal(allow.body.developers_can_merge, true);
    const merged = await call('PUT', `${api}/merge_requests/${mr.id}/merge`, developer.token);
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    // A developer still may not push to it: merging is all the flag allows.
    await ci.client.ok(['fetch', '-q', 'origin'], ci.work);
    const master = await call('GET', `${api}/repository/branches/master`, developer.token);
    assert.equal(master.body.developers_can_push, false);
    const disallow = await call('PUT', `${api}/repository/branches/master/protect`, ci.owner.token, {
      developers_can_merge: false,
    });
    assert.equal(disallow.status, 200, disallow.text);
  });

  it('refuses the merge with 405 while only successful builds may merge and the pipeline failed', async () => {
    const head = await pushBranch('red-build');
    const mr = await openMergeRequest('red-build', ci.owner.token);
    const flag = await call('PUT', api, ci.owner.token, {
      name: 'answers',
      only_allow_merge_if_build_succeeds: true,
    });
    assert.equal(flag.status, 200, flag.text);
    assert.equal(flag.body.only_allow_merge_if_build_succeeds, true);
    await seedPipeline(ci.t, ci.project, { sha: head, ref: 'red-build', status: 'failed', builds: [] });
    const refused = await call('PUT', `${api}/merge_requests/${mr.id}/merge`, ci.owner.token);
    assert.equal(refused.status, 405, refused.text);
    assert.deepEqual(refused.body, { message: '405 Method Not Allowed' });
    assert.equal((await call('GET', `${api}/merge_requests/${mr.id}`, ci.owner.token)).body.state, 'opened');
    // The build retried green: the newest pipeline of the head succeeded, so the merge goes through.
    await seedPipeline(ci.t, ci.project, { sha: head, ref: 'red-build', status: 'success', builds: [] });
    const merged = await call('PUT', `${api}/merge_requests/${mr.id}/merge`, ci.owner.token);
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    await call('PUT', api, ci.owner.token, { name: 'answers', only_allow_merge_if_build_succeeds: false });
  });

  it('marks an open MR merged when a push puts its head on the target branch', async () => {
    const head = await pushBranch('by-hand');
    const mr = await openMergeRequest('by-hand', ci.owner.token);
    const other = await openMergeRequest((await pushBranch('untouched'), 'untouched'), ci.owner.token);
    await ci.client.ok(['fetch', '-q', 'origin'], ci.work);
    await ci.client.ok(['checkout', '-q', '-B', 'master', 'origin/master'], ci.work);
    await ci.client.ok(['merge', '-q', '--no-edit', 'origin/by-hand'], ci.work);
    await ci.client.ok(['push', '-q', 'origin', 'master'], ci.work);
    const shown = await call('GET', `${api}/merge_requests/${mr.id}`, ci.owner.token);
    assert.equal(shown.body.state, 'merged');
    const events = await call('GET', `${api}/events`, ci.owner.token);
    assert.ok(
      (events.body as Array<{ action_name: string; target_id: number }>).some(
        (event) => event.action_name === 'accepted' && event.target_id === mr.id,
      ),
      'a merge event for the MR',
    );
    assert.equal(
      (await call('GET', `${api}/merge_requests/${other.id}`, ci.owner.token)).body.state,
      'opened',
    );
    const log = await ci.client.ok(['log', '--format=%H', 'origin/master'], ci.work);
    assert.ok(log.includes(head));
  });

  it('hides an MR’s notes from a guest of a private project and says so as 8.13.12', async () => {
    await pushBranch('noted');
    const mr = await openMergeRequest('noted', ci.owner.token);
    const note = await call('POST', `${api}/merge_requests/${mr.id}/notes`, ci.owner.token, {
      body: 'Looks good',
    });
    assert.equal(note.status, 201, note.text);
    const list = await call('GET', `${api}/merge_requests/${mr.id}/notes`, guest.token);
    assert.equal(list.status, 404, list.text);
    assert.deepEqual(list.body, { message: '404 Notes Not Found' });
    const one = await call('GET', `${api}/merge_requests/${mr.id}/notes/${note.body.id}`, guest.token);
    assert.deepEqual([one.status, one.body], [404, { message: '404 Note Not Found' }]);
    const unknownNote = await call('GET', `${api}/merge_requests/${mr.id}/notes/987654`, ci.owner.token);
    assert.deepEqual([unknownNote.status, unknownNote.body], [404, { message: '404 Not found' }]);
    const unknownMr = await call('GET', `${api}/merge_requests/987654/notes`, guest.token);
    assert.deepEqual([unknownMr.status, unknownMr.body], [404, { message: '404 Not found' }]);
    const readable = await call('GET', `${api}/merge_requests/${mr.id}/notes`, reporter.token);
    assert.equal(readable.status, 200, readable.text);
    assert.ok((readable.body as Array<{ body: string }>).some((n) => n.body === 'Looks good'));
  });

  it('takes the right to update an MR to subscribe to it', async () => {
    await pushBranch('subscribed');
    const mr = await openMergeRequest('subscribed', ci.owner.token);
    const byReporter = await call('POST', `${api}/merge_requests/${mr.id}/subscription`, reporter.token);
    assert.deepEqual([byReporter.status, byReporter.body], [403, { message: '403 Forbidden' }]);
    const byDeveloper = await call('POST', `${api}/merge_requests/${mr.id}/subscription`, developer.token);
    assert.equal(byDeveloper.status, 201, byDeveloper.text);
    assert.equal(byDeveloper.body.subscribed, true);
  });

  it('hides a confidential issue’s notes and award emoji from a guest', async () => {
    const issue = await call('POST', `${api}/issues`, ci.owner.token, {
      title: 'Secret',
      confidential: true,
    });
    assert.equal(issue.status, 201, issue.text);
    const award = await call('POST', `${api}/issues/${issue.body.id}/award_emoji`, developer.token, {
      name: 'tada',
    });
    assert.equal(award.status, 201, award.text);
    const notes = await call('GET', `${api}/issues/${issue.body.id}/notes`, guest.token);
    assert.deepEqual([notes.status, notes.body], [404, { message: '404 Notes Not Found' }]);
    const awards = await call('GET', `${api}/issues/${issue.body.id}/award_emoji`, guest.token);
    assert.deepEqual([awards.status, awards.body], [404, { message: '404 Award Emoji Not Found' }]);
    const give = await call('POST', `${api}/issues/${issue.body.id}/award_emoji`, guest.token, {
      name: 'tada',
    });
    assert.deepEqual([give.status, give.body], [404, { message: '404 Award Emoji Not Found' }]);
    const missing = await call('GET', `${api}/issues/987654/award_emoji`, guest.token);
    assert.deepEqual([missing.status, missing.body], [404, { message: '404 Not found' }]);
    const seen = await call('GET', `${api}/issues/${issue.body.id}/award_emoji`, reporter.token);
    assert.equal(seen.status, 200, seen.text);
    assert.deepEqual(
      (seen.body as Array<{ name: string }>).map((a) => a.name),
      ['tada'],
    );
  });

  it('answers 403 to an issue edit while the project’s issues are switched off', async () => {
    const issue = await call('POST', `${api}/issues`, developer.token, { title: 'Before the switch' });
    assert.equal(issue.status, 201, issue.text);
    assert.equal(
      (await call('PUT', api, ci.owner.token, { name: 'answers', issues_enabled: false })).status,
      200,
    );
    try {
      const edit = await call('PUT', `${api}/issues/${issue.body.id}`, developer.token, { title: 'After' });
      assert.deepEqual([edit.status, edit.body], [403, { message: '403 Forbidden' }]);
      const unknown = await call('PUT', `${api}/issues/987654`, developer.token, { title: 'After' });
      assert.deepEqual([unknown.status, unknown.body], [404, { message: '404 Not found' }]);
      const read = await call('GET', `${api}/issues/${issue.body.id}`, developer.token);
      assert.equal(read.status, 404);
    } finally {
      await call('PUT', api, ci.owner.token, { name: 'answers', issues_enabled: true });
    }
    const title = (await call('GET', `${api}/issues/${issue.body.id}`, developer.token)).body.title;
    assert.equal(title, 'Before the switch', 'the refused edit changed nothing');
  });

  it('reads an artifacts upload’s expire_in from a multipart field before or after the file', async () => {
    const runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    await ci.client.ok(['checkout', '-q', '-B', 'master', 'origin/master'], ci.work);
    await ci.push({ '.gitlab-ci.yml': 'first: {script: build}\nsecond: {script: build}\n' }, 'CI');
    assert.ok((await pipelinesOf(ci.t, ci.project.id)).length > 0);
    const zip = await makeZip({ 'out/a.txt': 'a' });
    const week = Date.now() + 6 * 86_400_000;
    for (const fieldFirst of [true, false]) {
      const job = await runner.requestJob();
      assert.ok(job, 'a job to run');
      assert.equal((await runner.update(job, 'running', 'running\n')).status, 200);
      const form = new FormData();
      const file = new Blob([new Uint8Array(zip)], { type: 'application/octet-stream' });
      if (fieldFirst) form.append('expire_in', '1 week');
      form.append('file', file, 'out.zip');
      if (!fieldFirst) form.append('expire_in', '1 week');
      const upload = await runner.call('POST', `builds/${job.id}/artifacts`, {
        headers: { 'BUILD-TOKEN': job.token },
        body: form,
      });
      assert.equal(upload.status, 201, upload.text);
      assert.ok(
        Date.parse(upload.body.artifacts_expire_at) > week,
        `expiry set (field first: ${fieldFirst})`,
      );
    }
  });
});
