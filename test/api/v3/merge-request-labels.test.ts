// Labels and milestones of merge requests over HTTP, as GitLab 8.13 had them: `labels` (a comma list,
// missing labels created in the target project) and `milestone_id` (one of the target's, else none) on
// create and edit, with the entity's `labels` (A→Z) and `milestone`, the hook's `milestone_id`, the
// label and milestone system notes, the Label entity's `open_merge_requests_count`, and a reporter's
// fork MR whose labels and milestone are dropped (filter_params on the target project).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { branchWithFile as createBranchWithFile } from '../../helpers/merge-requests.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { AccessLevel, Visibility } from '../../../src/domain/types.ts';

describe('merge request labels and milestones', () => {
  let t: TestApp;
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  let mrs: string;
  let milestone: { id: number; iid: number; title: string };
  let second: { id: number; iid: number; title: string };
  let foreignMilestone: { id: number };

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = developer.token) =>
    t.request(method, url, { token, body });

  const branchWithFile = (projectId: number, branch: string, token = developer.token) =>
    createBranchWithFile(t, token, projectId, branch, `${branch}.txt`, `${branch}\n`);

  async function createMilestone(projectId: number, title: string) {
    const created = await call('POST', `/api/v3/projects/${projectId}/milestones`, { title }, owner.token);
    assert.equal(created.status, 201, created.text);
    return created.body as { id: number; iid: number; title: string };
  }

  async function labelsOfProject() {
    const response = await call('GET', `/api/v3/projects/${project.id}/labels`);
    assert.equal(response.status, 200, response.text);
    return response.body as Array<{ name: string; color: string; open_merge_requests_count: number }>;
  }

  async function systemNotes(id: number) {
    const response = await call('GET', `${mrs}/${id}/notes?per_page=100`);
    assert.equal(response.status, 200, response.text);
    return (response.body as Array<{ body: string; system: boolean }>)
      .filter((note) => note.system)
      .map((note) => note.body);
  }

  /** The hooks delivered so far for MR `id`, oldest first. */
  async function mergeRequestHooks(id: number) {
    await t.server.hookWorker.drain();
    return receiver.received
      .filter((hook) => hook.body.object_kind === 'merge_request')
      .map((hook) => hook.body.object_attributes)
      .filter((attributes) => attributes.id === id);
  }

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'mrlabowner');
    developer = await createUser(t, 'mrlabdev');
    reporter = await createUser(t, 'mrlabreporter');
    project = await createProject(t, {
      owner,
      path: 'mrlab',
      commit: true,
      visibility: Visibility.Public,
    });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    const edit = await call(
      'PUT',
      `/api/v3/projects/${project.id}`,
      { name: 'mrlab', default_branch: 'master' },
      owner.token,
    );
    assert.equal(edit.status, 200, edit.text);
    await addProjectMember(t, project.id, reporter.id, AccessLevel.Reporter);
    const other = await createProject(t, { owner, path: 'mrlabother', commit: true });
    foreignMilestone = await createMilestone(other.id, 'Elsewhere');
    milestone = await createMilestone(project.id, 'v1');
    second = await createMilestone(project.id, 'v2');
    receiver = await startReceiver();
    const hook = await call(
      'POST',
      `/api/v3/projects/${project.id}/hooks`,
      { url: receiver.url, merge_requests_events: true, push_events: false },
      owner.token,
    );
    assert.equal(hook.status, 201, hook.text);
    for (const branch of ['labelled', 'plain', 'stray']) await branchWithFile(project.id, branch);
    mrs = `/api/v3/projects/${project.id}/merge_requests`;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('creates with labels (made when missing) and a milestone, shown on the entity and the hook', async () => {
    const created = await call('POST', mrs, {
      source_branch: 'labelled',
      target_branch: 'master',
      title: 'Labelled',
      labels: 'zeta, bug,bug',
      milestone_id: milestone.id,
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.labels, ['bug', 'zeta']);
    assert.equal(created.body.milestone.id, milestone.id);
    assert.equal(created.body.milestone.title, 'v1');
    assert.equal(created.body.milestone.project_id, project.id);

    const read = await call('GET', `${mrs}/${created.body.id}`);
    assert.deepEqual(read.body.labels, ['bug', 'zeta']);
    assert.equal(read.body.milestone.iid, milestone.iid);

    const labels = await labelsOfProject();
    assert.deepEqual(
      labels.map((label) => [label.name, label.color, label.open_merge_requests_count]),
      [
        ['bug', '#428BCA', 1],
        ['zeta', '#428BCA', 1],
      ],
    );
    const hooks = await mergeRequestHooks(created.body.id);
    assert.deepEqual(
      hooks.map((hook) => [hook.action, hook.milestone_id]),
      [['open', milestone.id]],
    );
  });

  it('edits labels and milestone with 8.13 system notes; empty labels and milestone 0 clear them', async () => {
    const created = await call('POST', mrs, {
      source_branch: 'plain',
      target_branch: 'master',
      title: 'Plain',
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.labels, []);
    assert.equal(created.body.milestone, null);
    const url = `${mrs}/${created.body.id}`;

    const labelled = await call('PUT', url, { labels: 'bug,feature', milestone_id: second.id });
    assert.equal(labelled.status, 200, labelled.text);
    assert.deepEqual(labelled.body.labels, ['bug', 'feature']);
    assert.equal(labelled.body.milestone.title, 'v2');
    // The deprecated singular path takes the same parameters.
    const relabelled = await call('PUT', `/api/v3/projects/${project.id}/merge_request/${created.body.id}`, {
      labels: 'feature',
    });
    assert.deepEqual(relabelled.body.labels, ['feature']);
    const cleared = await call('PUT', url, { labels: '', milestone_id: 0 });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body.labels, []);
    assert.equal(cleared.body.milestone, null);

    const byTitle = new Map((await labelsOfProject()).map((label) => [label.name, label]));
    assert.equal(byTitle.get('feature')?.open_merge_requests_count, 0);
    const ids = await labelIds();
    assert.deepEqual(await systemNotes(created.body.id), [
      `Added ~${ids.get('bug')} ~${ids.get('feature')} labels`,
      `Milestone changed to %${second.iid}`,
      `Removed ~${ids.get('bug')} label`,
      `Removed ~${ids.get('feature')} label`,
      'Milestone removed',
    ]);
    const hooks = await mergeRequestHooks(created.body.id);
    // Deliveries run concurrently and arrive in any order: compared sorted.
    const key = (pair: unknown[]) => JSON.stringify(pair);
    assert.deepEqual(
      hooks.map((hook) => [hook.action, hook.milestone_id]).sort((a, b) => key(a).localeCompare(key(b))),
      [
        ['open', null],
        ['update', second.id],
        ['update', second.id],
        ['update', null],
      ].sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  async function labelIds(): Promise<Map<string, number>> {
    const rows = await t.server.deps.db.kysely
      .selectFrom('labels')
      .select(['id', 'title'])
      .where('project_id', '=', project.id)
      .execute();
    return new Map(rows.map((row) => [row.title, row.id]));
  }

  it("takes an unknown or another project's milestone as none, as 8.13 did", async () => {
    const created = await call('POST', mrs, {
      source_branch: 'stray',
      target_branch: 'master',
      title: 'Stray',
      milestone_id: foreignMilestone.id,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.milestone, null);
    const url = `${mrs}/${created.body.id}`;
    assert.equal((await call('PUT', url, { milestone_id: milestone.id })).body.milestone.id, milestone.id);
    // filter_milestone made a foreign id blank, so an edit with one removes the milestone.
    const foreign = await call('PUT', url, { milestone_id: foreignMilestone.id });
    assert.equal(foreign.status, 200, foreign.text);
    assert.equal(foreign.body.milestone, null);
    assert.equal((await call('PUT', url, { milestone_id: milestone.id })).body.milestone.id, milestone.id);
    const unknown = await call('PUT', url, { milestone_id: 99999999 });
    assert.equal(unknown.body.milestone, null);
  });

  it('counts open merge requests per label; closing one and deleting a label update what MRs show', async () => {
    const list = await call('GET', `${mrs}?state=opened&per_page=100`);
    assert.equal(list.status, 200, list.text);
    const labelled = list.body.find((mr: { title: string }) => mr.title === 'Labelled');
    assert.deepEqual(labelled.labels, ['bug', 'zeta']);
    assert.equal(labelled.milestone.id, milestone.id);
    const plain = list.body.find((mr: { title: string }) => mr.title === 'Plain');
    assert.deepEqual([plain.labels, plain.milestone], [[], null]);

    const closed = await call('PUT', `${mrs}/${labelled.id}`, { state_event: 'close' });
    assert.equal(closed.body.state, 'closed');
    const counts = new Map(
      (await labelsOfProject()).map((label) => [label.name, label.open_merge_requests_count]),
    );
    assert.equal(counts.get('bug'), 0);
    assert.equal(counts.get('zeta'), 0);

    const deleted = await call('DELETE', `/api/v3/projects/${project.id}/labels?name=zeta`, {}, owner.token);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual((await call('GET', `${mrs}/${labelled.id}`)).body.labels, ['bug']);
  });

  it("drops labels and milestone from a reporter's fork MR (admin_merge_request on the target)", async () => {
    const forked = await call('POST', `/api/v3/projects/fork/${project.id}`, {}, reporter.token);
    assert.equal(forked.status, 201, forked.text);
    await branchWithFile(forked.body.id, 'from-fork', reporter.token);
    const created = await call(
      'POST',
      `/api/v3/projects/${forked.body.id}/merge_requests`,
      {
        source_branch: 'from-fork',
        target_branch: 'master',
        title: 'From a fork',
        target_project_id: project.id,
        labels: 'sneaky',
        milestone_id: milestone.id,
      },
      reporter.token,
    );
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.labels, created.body.milestone], [[], null]);
    // The author may edit the MR, but still not its labels or milestone.
    const edited = await call(
      'PUT',
      `${mrs}/${created.body.id}`,
      { title: 'From a fork, edited', labels: 'sneaky', milestone_id: milestone.id },
      reporter.token,
    );
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.title, 'From a fork, edited');
    assert.deepEqual([edited.body.labels, edited.body.milestone], [[], null]);
    assert.ok(!(await labelsOfProject()).some((label) => label.name === 'sneaky'));
  });
});
