// The system notes GitLab 8.13's SystemNoteService wrote on API edits of issues and merge requests, in
// its words and its order: a title change with the changed run marked (`{-…-}`/`{+…+}`, HTML-escaped,
// by characters), task list items ticked or unticked, an MR's WIP prefix, state changes (merged too),
// target branch, milestone and assignee; and those a push writes on an MR from the pushed branch.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../../helpers/git.ts';
import { AccessLevel } from '../../../src/domain/types.ts';

describe('system notes', () => {
  let t: TestApp;
  let http: string;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let issues: string;
  let mrs: string;

  const call = (method: string, url: string, body: Record<string, unknown> = {}, token = owner.token) =>
    t.request(method, url, { token, body });

  async function systemNotes(url: string): Promise<string[]> {
    const response = await call('GET', `${url}/notes?per_page=100`);
    assert.equal(response.status, 200, response.text);
    return (response.body as Array<{ body: string; system: boolean }>)
      .filter((note) => note.system)
      .map((note) => note.body);
  }

  async function edit(url: string, body: Record<string, unknown>) {
    const response = await call('PUT', url, body);
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function writeFile(branch: string, file: string, content: string, message = `Write ${file}`) {
    const written = await call('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: file,
      branch_name: branch,
      content,
      commit_message: message,
    });
    assert.equal(written.status, 201, written.text);
  }

  async function openMergeRequest(branch: string, title: string) {
    const created = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: branch,
      ref: 'master',
    });
    assert.equal(created.status, 201, created.text);
    await writeFile(branch, `${branch}.txt`, `${branch}\n`);
    const response = await call('POST', mrs, { source_branch: branch, target_branch: 'master', title });
    assert.equal(response.status, 201, response.text);
    return response.body as { id: number; iid: number };
  }

  before(async () => {
    t = await startTestApp();
    http = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'snowner');
    developer = await createUser(t, 'sndev');
    project = await createProject(t, { owner, path: 'noted', commit: true });
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    const settings = await call('PUT', `/api/v3/projects/${project.id}`, {
      name: 'noted',
      default_branch: 'master',
    });
    assert.equal(settings.status, 200, settings.text);
    issues = `/api/v3/projects/${project.id}/issues`;
    mrs = `/api/v3/projects/${project.id}/merge_requests`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('notes an issue title change with the changed run marked, escaped, by characters', async () => {
    const created = await call('POST', issues, { title: 'Fix the login page' });
    const url = `${issues}/${created.body.id}`;
    await edit(url, { title: 'Fix the signup page' });
    await edit(url, { title: 'Fix the signup <page> & "more"' });
    await edit(url, { title: 'Fix the signup 😀 & "more"' });
    await edit(url, { title: 'Fix the signup 😀 & "more"' }); // unchanged: no note
    assert.deepEqual(await systemNotes(url), [
      'Changed title: **Fix the {-login-} page** → **Fix the {+signup+} page**',
      'Changed title: **Fix the signup {-page-}** → **Fix the signup {+&lt;page&gt; &amp; &quot;more&quot;+}**',
      'Changed title: **Fix the signup {-&lt;page&gt;-} &amp; &quot;more&quot;** → ' +
        '**Fix the signup {+😀+} &amp; &quot;more&quot;**',
    ]);
  });

  it('notes task list items a description edit ticks or unticks, and keeps 8.13’s order', async () => {
    const created = await call('POST', issues, {
      title: 'Tasks',
      description: '- [ ] write it\n- [x] test it\n* [ ] ship it',
    });
    const url = `${issues}/${created.body.id}`;
    await edit(url, {
      title: 'Tasks done',
      description: '- [x] write it\n- [ ] test it\n* [ ] ship it, later',
      labels: 'chores',
      assignee_id: developer.id,
      state_event: 'close',
    });
    const notes = await systemNotes(url);
    assert.equal(notes.length, 6, JSON.stringify(notes));
    assert.deepEqual(notes.slice(0, 4), [
      'Status changed to closed',
      'Changed title: **Tasks** → **Tasks{+ done+}**',
      'Marked the task **write it** as completed',
      'Marked the task **test it** as incomplete',
    ]);
    assert.match(notes[4]!, /^Added ~\d+ label$/);
    assert.equal(notes[5], `Reassigned to @${developer.username}`);
  });

  it('notes a merge request’s state, title, WIP prefix, target branch and assignee', async () => {
    const mr = await openMergeRequest('notes-a', 'Add notes');
    const url = `${mrs}/${mr.id}`;
    const other = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'stable',
      ref: 'master',
    });
    assert.equal(other.status, 201, other.text);
    await edit(url, { title: 'WIP: Add notes' });
    await edit(url, { title: 'Add system notes' });
    await edit(url, { title: '[WIP] Add more notes' });
    await edit(url, { target_branch: 'stable', assignee_id: developer.id });
    await edit(url, { state_event: 'close', assignee_id: 0 });
    await edit(url, { state_event: 'reopen' });
    assert.deepEqual(await systemNotes(url), [
      'Marked this merge request as a **Work In Progress**',
      'Unmarked this merge request as a Work In Progress',
      'Changed title: **{-WIP: Add-} notes** → **{+Add system+} notes**',
      'Marked this merge request as a **Work In Progress**',
      'Changed title: **{-Add system-} notes** → **{+[WIP] Add more+} notes**',
      'Target branch changed from `master` to `stable`',
      `Reassigned to @${developer.username}`,
      'Status changed to closed',
      'Assignee removed',
      'Status changed to reopened',
    ]);
  });

  it('notes a merge as `Status changed to merged`', async () => {
    const mr = await openMergeRequest('notes-merged', 'Merge me');
    const merged = await call('PUT', `${mrs}/${mr.id}/merge`);
    assert.equal(merged.status, 200, merged.text);
    assert.equal(merged.body.state, 'merged');
    const notes = await call('GET', `${mrs}/${mr.id}/notes`);
    // The merge commit's `See merge request !N` may add 8.13's `Mentioned in commit <sha>` after it, once
    // the merge's push is processed.
    const last = notes.body
      .filter((note: { body: string }) => !note.body.startsWith('Mentioned in commit '))
      .at(-1);
    assert.equal(last.body, 'Status changed to merged');
    assert.equal(last.system, true);
    assert.equal(last.author.id, owner.id);
  });

  it('notes a push to the source branch: commits added, the branch deleted and restored', async () => {
    const mr = await openMergeRequest('notes-push', 'Push me');
    const url = `${mrs}/${mr.id}`;
    const branchHead = async (branch: string) => {
      const response = await call('GET', `/api/v3/projects/${project.id}/repository/branches/${branch}`);
      assert.equal(response.status, 200, response.text);
      return response.body.commit.id as string;
    };
    const newestVersion = async () => (await call('GET', `${url}/versions`)).body[0].id as number;
    const webUrl = (await call('GET', url)).body.web_url as string;

    const before = await branchHead('notes-push');
    await writeFile('notes-push', 'more.txt', 'more\n', "More <stuff>/'here'\n\nBody text");
    const pushed = await branchHead('notes-push');
    const firstVersion = await newestVersion();

    await writeFile('master', 'master.txt', 'master\n', 'On master');
    const onMaster = await branchHead('master');
    // A merge of master into the branch: master's commit is already in the target, so it is summed up.
    const dir = path.join(client.home, 'notes-push');
    await client.ok(['clone', '-q', repoUrl(http, project.fullPath, owner.username, owner.password), dir]);
    await client.ok(['checkout', '-q', 'notes-push'], dir);
    await client.ok(['merge', '-q', '--no-ff', '-m', 'Merge master in', 'origin/master'], dir);
    await client.ok(['push', '-q', 'origin', 'notes-push'], dir);
    const merged = await branchHead('notes-push');
    const secondVersion = await newestVersion();

    const deleted = await call('DELETE', `/api/v3/projects/${project.id}/repository/branches/notes-push`);
    assert.equal(deleted.status, 200, deleted.text);
    const restored = await call('POST', `/api/v3/projects/${project.id}/repository/branches`, {
      branch_name: 'notes-push',
      ref: 'master',
    });
    assert.equal(restored.status, 201, restored.text);

    const compare = (version: number, start: string) =>
      `[Compare with previous version](${webUrl}/diffs?diff_id=${version}&start_sha=${start})`;
    assert.deepEqual(await systemNotes(url), [
      `Added 1 commit:\n\n* ${pushed.slice(0, 8)} - More &lt;stuff&gt;&#x2F;&#x27;here&#x27;\n\n` +
        compare(firstVersion, before),
      `Added 2 commits:\n\n* ${onMaster.slice(0, 8)} - 1 commit from branch \`master\`\n` +
        `* ${merged.slice(0, 8)} - Merge master in\n\n${compare(secondVersion, pushed)}`,
      'Deleted source branch `notes-push`',
      // 8.13 lists no commits for a restored branch once its deletion left the MR without a head.
      'Restored source branch `notes-push`',
    ]);
  });
});
