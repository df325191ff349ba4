// The merge request pages as a browser without script uses them, checked against the API and git: a
// merge request made in the form, its commits and changes tabs, the Merge button making the two-parent
// commit on the target branch, refusals (protected branch, conflicts) shown with nothing written,
// close and reopen, who sees what, and posts without the form token changing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProtectedBranch,
  createProject,
  createProjectTeam,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient } from '../helpers/git.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';
import { branchWithFile as createBranchWithFile } from '../helpers/merge-requests.ts';
import { startReceiver } from '../helpers/receiver.ts';

describe('pages: merge requests', () => {
  let t: TestApp;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let reporter: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let base = '';

  const api = (method: string, url: string, body: Record<string, unknown> = {}, token = owner.token) =>
    t.request(method, url, { token, body });
  const sha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();
  const signedIn = (user: TestUser) => signedInClient(t, user);
  const apiMergeRequest = async (iid: number) => {
    const list = await api('GET', `/api/v3/projects/${project.id}/merge_requests?iid=${iid}`);
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    return list.body[0] as Record<string, any>;
  };

  const branchWithFile = (branch: string, file: string, content: string) =>
    createBranchWithFile(t, owner.token, project.id, branch, file, content);

  /** Opens a merge request into master through the new merge request form; answers its iid. */
  async function openInForm(web: WebClient, branch: string, title: string, description = '') {
    const form = await web.get(`${base}/merge_requests/new`);
    assert.equal(form.status, 200);
    const posted = await web.post(`${base}/merge_requests`, {
      'merge_request[source_branch]': branch,
      'merge_request[target_branch]': 'master',
      'merge_request[title]': title,
      'merge_request[description]': description,
    });
    assert.equal(posted.status, 302, posted.text);
    const iid = Number(/\/merge_requests\/(\d+)$/.exec(String(posted.headers.location))?.[1]);
    assert.ok(iid > 0);
    return iid;
  }

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    ({ owner, developer, reporter, stranger, project } = await createProjectTeam(t, 'reviewed', {
      owner: 'mona',
      developer: 'devi',
      reporter: 'remy',
      stranger: 'sven',
    }));
    base = `/${project.fullPath}`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('opens a merge request in the form, shows it, and merges it with the button', async () => {
    await branchWithFile('feature-a', 'a.txt', 'alpha <line>\n');
    const web = await signedIn(developer);
    const iid = await openInForm(web, 'feature-a', 'Add <a>', 'Adds **a**.');
    const mr = await apiMergeRequest(iid);
    assert.equal(mr.source_branch, 'feature-a');
    assert.equal(mr.target_branch, 'master');
    assert.equal(mr.author.username, 'devi');
    assert.equal(mr.state, 'opened');

    const page = await web.get(new URL(mr.web_url).pathname);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Add &lt;a><\/h1>/);
    assert.match(page.text, /<strong>a<\/strong>/);
    assert.match(page.text, /feature-a<\/a> into <a[^>]*>master<\/a>/);
    assert.match(page.text, /id="discussion"/);
    assert.match(page.text, />Merge<\/button>/);
    assert.match(page.text, /Merge status: <strong>Can be merged<\/strong>/);

    const commits = await web.get(`${base}/merge_requests/${iid}/commits`);
    assert.equal(commits.status, 200);
    assert.match(commits.text, /Write a\.txt on feature-a/);
    const diffs = await web.get(`${base}/merge_requests/${iid}/diffs`);
    assert.equal(diffs.status, 200);
    assert.match(diffs.text, /1 changed file with 1 addition and 0 deletions/);
    assert.match(diffs.text, /\+alpha &lt;line>/);

    const masterBefore = await sha('refs/heads/master');
    const head = await sha('refs/heads/feature-a');
    const merged = await web.post(`${base}/merge_requests/${iid}/merge`, { sha: mr.sha });
    assert.equal(merged.status, 302, merged.text);
    const after = await apiMergeRequest(iid);
    assert.equal(after.state, 'merged');
    const masterAfter = await sha('refs/heads/master');
    assert.equal(after.merge_commit_sha, masterAfter);
    const parents = (
      await client.run(['--git-dir', project.repoPath, 'rev-list', '--parents', '-n', '1', masterAfter])
    ).stdout
      .trim()
      .split(' ')
      .slice(1);
    assert.deepEqual(parents, [masterBefore, head]);
    const mergedPage = await web.get(`${base}/merge_requests/${iid}`);
    assert.match(mergedPage.text, /Merged into master/);
    assert.doesNotMatch(mergedPage.text, />Merge<\/button>/);
    // Merged, it still shows what it brought (the target now holds those commits).
    assert.match((await web.get(`${base}/merge_requests/${iid}/commits`)).text, /Write a\.txt on feature-a/);
    const mergedDiffs = (await web.get(`${base}/merge_requests/${iid}/diffs`)).text;
    assert.match(mergedDiffs, /1 changed file with 1 addition and 0 deletions/);
    assert.match(mergedDiffs, /\+alpha &lt;line>/);
  });

  it('a refused merge is shown on the page and writes nothing: protected branch, then conflicts', async () => {
    await branchWithFile('feature-b', 'b.txt', 'b\n');
    const web = await signedIn(developer);
    const iid = await openInForm(web, 'feature-b', 'Add b');
    await addProtectedBranch(t, project.id, 'master');
    const masterBefore = await sha('refs/heads/master');
    const page = await web.get(`${base}/merge_requests/${iid}`);
    assert.doesNotMatch(page.text, />Merge<\/button>/);
    assert.match(page.text, /You may not merge into master/);
    const refused = await web.post(`${base}/merge_requests/${iid}/merge`, {});
    assert.equal(refused.status, 403);
    assert.match(refused.text, /not allowed to merge into the target branch/);
    assert.equal((await apiMergeRequest(iid)).state, 'opened');
    assert.equal(await sha('refs/heads/master'), masterBefore);

    // Conflicting changes to one file: the owner (a master) may merge the first, not the second.
    await branchWithFile('clash-1', 'same.txt', 'one\n');
    await branchWithFile('clash-2', 'same.txt', 'two\n');
    const ownerWeb = await signedIn(owner);
    const first = await openInForm(ownerWeb, 'clash-1', 'Clash one');
    const second = await openInForm(ownerWeb, 'clash-2', 'Clash two');
    await ownerWeb.get(`${base}/merge_requests/${first}`);
    assert.equal((await ownerWeb.post(`${base}/merge_requests/${first}/merge`, {})).status, 302);
    const afterFirst = await sha('refs/heads/master');
    // The page works out the status as it loads (8.13's merge_check), and offers no button.
    const conflicted = await ownerWeb.get(`${base}/merge_requests/${second}`);
    assert.match(conflicted.text, /Cannot be merged: there are conflicts/);
    assert.doesNotMatch(conflicted.text, />Merge<\/button>/);
    assert.equal((await apiMergeRequest(second)).merge_status, 'cannot_be_merged');
    const conflict = await ownerWeb.post(`${base}/merge_requests/${second}/merge`, {});
    assert.equal(conflict.status, 405);
    assert.match(conflict.text, /cannot be merged: .*has conflicts/);
    assert.notEqual((await apiMergeRequest(second)).state, 'merged');
    assert.equal(await sha('refs/heads/master'), afterFirst);
  });

  it('closes and reopens with the buttons; a reporter may not', async () => {
    await branchWithFile('feature-c', 'c.txt', 'c\n');
    const web = await signedIn(developer);
    const iid = await openInForm(web, 'feature-c', 'Add c');
    const reporterWeb = await signedIn(reporter);
    const seen = await reporterWeb.get(`${base}/merge_requests/${iid}`);
    assert.equal(seen.status, 200);
    assert.doesNotMatch(seen.text, /Close merge request/);
    const refused = await reporterWeb.post(`${base}/merge_requests/${iid}`, {
      'merge_request[state_event]': 'close',
    });
    assert.equal(refused.status, 403);
    assert.equal((await apiMergeRequest(iid)).state, 'opened');
    await web.get(`${base}/merge_requests/${iid}`);
    const closed = await web.post(`${base}/merge_requests/${iid}`, { 'merge_request[state_event]': 'close' });
    assert.equal(closed.status, 302);
    assert.equal((await apiMergeRequest(iid)).state, 'closed');
    const closedList = await web.get(`${base}/merge_requests?state=closed`);
    assert.match(closedList.text, /Add c/);
    assert.doesNotMatch((await web.get(`${base}/merge_requests`)).text, /Add c/);
    const reopened = await web.post(`${base}/merge_requests/${iid}`, {
      'merge_request[state_event]': 'reopen',
    });
    assert.equal(reopened.status, 302);
    assert.equal((await apiMergeRequest(iid)).state, 'reopened');
  });

  it('the list: state tabs with counts and links', async () => {
    const web = await signedIn(reporter);
    const list = await web.get(`${base}/merge_requests?state=all`);
    assert.equal(list.status, 200);
    const all = await api('GET', `/api/v3/projects/${project.id}/merge_requests?per_page=100`);
    const count = (state: string) => all.body.filter((mr: any) => mr.state === state).length;
    assert.match(list.text, new RegExp(`Merged <span class="badge">${count('merged')}</span>`));
    assert.match(list.text, new RegExp(`All <span class="badge">${all.body.length}</span>`));
    for (const mr of all.body) assert.match(list.text, new RegExp(`href="${base}/merge_requests/${mr.iid}"`));
    const merged = await web.get(`${base}/merge_requests?state=merged`);
    assert.match(merged.text, /Add &lt;a>/);
    assert.doesNotMatch(merged.text, /Add c/);
  });

  it('a bad form shows its errors and creates nothing', async () => {
    const web = await signedIn(developer);
    const before = (await api('GET', `/api/v3/projects/${project.id}/merge_requests?per_page=100`)).body
      .length;
    await web.get(`${base}/merge_requests/new`);
    const same = await web.post(`${base}/merge_requests`, {
      'merge_request[source_branch]': 'master',
      'merge_request[target_branch]': 'master',
      'merge_request[title]': 'Same',
    });
    assert.equal(same.status, 422);
    assert.match(same.text, /role="alert"/);
    const missing = await web.post(`${base}/merge_requests`, {
      'merge_request[source_branch]': 'no-such-branch',
      'merge_request[target_branch]': 'master',
      'merge_request[title]': 'Ghost',
    });
    assert.equal(missing.status, 422);
    assert.match(missing.text, /There is no branch no-such-branch/);
    const blank = await web.post(`${base}/merge_requests`, {
      'merge_request[source_branch]': 'feature-c',
      'merge_request[target_branch]': 'master',
      'merge_request[title]': ' ',
    });
    assert.equal(blank.status, 422);
    const after = (await api('GET', `/api/v3/projects/${project.id}/merge_requests?per_page=100`)).body
      .length;
    assert.equal(after, before);
    // Reporters may not open merge requests: no button, and the form is not theirs.
    const reporterWeb = await signedIn(reporter);
    assert.doesNotMatch((await reporterWeb.get(`${base}/merge_requests`)).text, /New merge request/);
    assert.equal((await reporterWeb.get(`${base}/merge_requests/new`)).status, 404);
  });

  it('strangers get 404 on a private project, visitors are asked to sign in, no token changes nothing', async () => {
    const all = await api('GET', `/api/v3/projects/${project.id}/merge_requests?per_page=100`);
    const open = all.body.find((mr: any) => mr.state === 'reopened' || mr.state === 'opened');
    assert.ok(open);
    const path = new URL(open.web_url).pathname;
    const strangerWeb = await signedIn(stranger);
    for (const url of [
      `${base}/merge_requests`,
      path,
      `${path}/commits`,
      `${path}/diffs`,
      `${base}/merge_requests/new`,
    ]) {
      assert.equal((await strangerWeb.get(url)).status, 404, url);
    }
    const visitor = await new WebClient(t).get(path);
    assert.equal(visitor.status, 302);
    assert.match(String(visitor.headers.location), /^\/users\/sign_in/);
    const ownerWeb = await signedIn(owner);
    assert.equal((await ownerWeb.get(`${base}/merge_requests/9999`)).status, 404);
    const noToken = await ownerWeb.request('POST', `${path}/merge`, {});
    assert.equal(noToken.status, 422);
    const closeNoToken = await ownerWeb.request('POST', path, { 'merge_request[state_event]': 'close' });
    assert.equal(closeNoToken.status, 422);
    assert.equal((await apiMergeRequest(open.iid)).state, open.state);
  });
  it('the url in the merge request hook of a page write opens the merge request page', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await api('POST', `/api/v3/projects/${project.id}/hooks`, {
        url: receiver.url,
        merge_requests_events: true,
        push_events: false,
      });
      assert.equal(hook.status, 201);
      await branchWithFile('feature-h', 'h.txt', 'h\n');
      const web = await signedIn(developer);
      const iid = await openInForm(web, 'feature-h', 'Hooked MR');
      await t.server.hookWorker.drain();
      const [delivery] = await receiver.waitFor(1);
      assert.equal(delivery.body.object_kind, 'merge_request');
      const url = new URL(delivery.body.object_attributes.url);
      assert.equal(url.pathname, `${base}/merge_requests/${iid}`);
      const page = await web.get(url.pathname);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Hooked MR<\/h1>/);
      assert.equal((await api('DELETE', `/api/v3/projects/${project.id}/hooks/${hook.body.id}`)).status, 200);
    } finally {
      await receiver.close();
    }
  });

  it('a reporter comments in the discussion: the API lists the note, its hook opens the page', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await api('POST', `/api/v3/projects/${project.id}/hooks`, {
        url: receiver.url,
        note_events: true,
        push_events: false,
      });
      assert.equal(hook.status, 201);
      await branchWithFile('feature-n', 'n.txt', 'n\n');
      const iid = await openInForm(await signedIn(developer), 'feature-n', 'Discussed MR');
      const mr = await apiMergeRequest(iid);
      const notesUrl = `/api/v3/projects/${project.id}/merge_requests/${mr.id}/notes`;
      const web = await signedIn(reporter);
      const page = await web.get(`${base}/merge_requests/${iid}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<section aria-label="Discussion" id="discussion">/);
      assert.match(page.text, /0 comments/);
      assert.match(page.text, /name="note\[noteable_type\]" value="MergeRequest"/);
      assert.match(page.text, new RegExp(`name="note\\[noteable_id\\]" value="${mr.id}"`));

      const posted = await web.post(`${base}/notes`, {
        'note[noteable_type]': 'MergeRequest',
        'note[noteable_id]': String(mr.id),
        'note[note]': 'Looks _fine_ <script>alert(1)</script>',
      });
      assert.equal(posted.status, 302, posted.text);
      const notes = await api('GET', notesUrl);
      assert.equal(notes.status, 200);
      assert.equal(notes.body.length, 1);
      const [note] = notes.body;
      assert.equal(note.body, 'Looks _fine_ <script>alert(1)</script>');
      assert.equal(note.author.username, 'remy');
      assert.equal(note.noteable_type, 'MergeRequest');
      assert.equal(posted.headers.location, `${base}/merge_requests/${iid}#note_${note.id}`);
      const after = await web.get(`${base}/merge_requests/${iid}`);
      assert.match(after.text, new RegExp(`<li id="note_${note.id}" class="note">`));
      assert.match(after.text, /Looks <em>fine<\/em>/);
      assert.doesNotMatch(after.text, /<script>alert/);
      assert.match(after.text, /1 comment</);

      await t.server.hookWorker.drain();
      const [delivery] = await receiver.waitFor(1);
      assert.equal(delivery.body.object_kind, 'note');
      assert.equal(delivery.body.object_attributes.noteable_type, 'MergeRequest');
      assert.equal(delivery.body.merge_request.iid, iid);
      const noteUrl = new URL(delivery.body.object_attributes.url);
      assert.equal(`${noteUrl.pathname}${noteUrl.hash}`, posted.headers.location);
      const opened = await web.get(noteUrl.pathname);
      assert.equal(opened.status, 200);
      assert.match(opened.text, new RegExp(`id="${noteUrl.hash.slice(1)}"`));

      // A blank comment is shown again with its error; nothing is written.
      const blank = await web.post(`${base}/notes`, {
        'note[noteable_type]': 'MergeRequest',
        'note[noteable_id]': String(mr.id),
        'note[note]': '   ',
      });
      assert.equal(blank.status, 422);
      assert.match(blank.text, /Comment can(&#39;|')t be blank/);
      assert.match(blank.text, /id="discussion"/);
      assert.equal((await api('GET', notesUrl)).body.length, 1);
    } finally {
      await receiver.close();
    }
  });

  it('a comment from a stranger, without the form token, or on a missing merge request writes nothing', async () => {
    await branchWithFile('feature-q', 'q.txt', 'q\n');
    const iid = await openInForm(await signedIn(developer), 'feature-q', 'Quiet MR');
    const mr = await apiMergeRequest(iid);
    const notesUrl = `/api/v3/projects/${project.id}/merge_requests/${mr.id}/notes`;
    const comment = (id: number, text: string) => ({
      'note[noteable_type]': 'MergeRequest',
      'note[noteable_id]': String(id),
      'note[note]': text,
    });
    const strangerWeb = await signedIn(stranger);
    // The 404 page carries the stranger's own form token, so the post below is refused for access alone.
    assert.equal((await strangerWeb.get(`${base}/merge_requests/${iid}`)).status, 404);
    assert.equal((await strangerWeb.post(`${base}/notes`, comment(mr.id, 'stranger was here'))).status, 404);
    const ownerWeb = await signedIn(owner);
    await ownerWeb.get(`${base}/merge_requests/${iid}`);
    assert.equal((await ownerWeb.request('POST', `${base}/notes`, comment(mr.id, 'forged'))).status, 422);
    assert.equal((await ownerWeb.post(`${base}/notes`, comment(mr.id + 1000, 'nowhere'))).status, 404);
    // A merge request of another project is not found through this one.
    const other = await createProject(t, { owner, path: 'elsewhere', commit: true });
    assert.equal(
      (await ownerWeb.post(`/${other.fullPath}/notes`, comment(mr.id, 'wrong project'))).status,
      404,
    );
    assert.equal((await api('GET', notesUrl)).body.length, 0);
    // The form on the page does post: the one comment that was allowed is the only note.
    assert.equal((await ownerWeb.post(`${base}/notes`, comment(mr.id, 'allowed'))).status, 302);
    const notes = await api('GET', notesUrl);
    assert.deepEqual(
      notes.body.map((n: any) => n.body),
      ['allowed'],
    );
  });

  it('edits the title and description in the edit form, as the API then shows them; a reporter may not', async () => {
    await branchWithFile('feature-e', 'e.txt', 'e\n');
    const web = await signedIn(developer);
    const iid = await openInForm(web, 'feature-e', 'Before edit', 'Old text');
    const edit = `${base}/merge_requests/${iid}/edit`;
    const page = await web.get(`${base}/merge_requests/${iid}`);
    assert.match(page.text, new RegExp(`href="${edit}"`));
    const form = await web.get(edit);
    assert.equal(form.status, 200);
    assert.match(form.text, /<h1>Edit merge request !\d+<\/h1>/);
    assert.match(form.text, /name="merge_request\[title\]" value="Before edit"/);
    assert.match(form.text, />Old text<\/textarea>/);
    assert.doesNotMatch(form.text, /merge_request\[source_branch\]/);

    const saved = await web.post(`${base}/merge_requests/${iid}`, {
      'merge_request[title]': 'After <edit>',
      'merge_request[description]': 'New **text**',
    });
    assert.equal(saved.status, 302, saved.text);
    assert.equal(saved.headers.location, `${base}/merge_requests/${iid}`);
    const edited = await apiMergeRequest(iid);
    assert.equal(edited.title, 'After <edit>');
    assert.equal(edited.description, 'New **text**');
    assert.equal(edited.source_branch, 'feature-e');
    assert.equal(edited.state, 'opened');
    const shown = await web.get(`${base}/merge_requests/${iid}`);
    assert.match(shown.text, /<h1>After &lt;edit><\/h1>/);
    assert.match(shown.text, /New <strong>text<\/strong>/);

    const blank = await web.post(`${base}/merge_requests/${iid}`, {
      'merge_request[title]': '  ',
      'merge_request[description]': 'kept draft',
    });
    assert.equal(blank.status, 422);
    assert.match(blank.text, /Title can(&#39;|')t be blank/);
    assert.match(blank.text, />kept draft<\/textarea>/);
    const noToken = await web.request('POST', `${base}/merge_requests/${iid}`, {
      'merge_request[title]': 'Forged',
    });
    assert.equal(noToken.status, 422);

    const reporterWeb = await signedIn(reporter);
    assert.equal((await reporterWeb.get(edit)).status, 404);
    await reporterWeb.get(`${base}/merge_requests/${iid}`);
    const refused = await reporterWeb.post(`${base}/merge_requests/${iid}`, {
      'merge_request[title]': 'Reporter title',
    });
    assert.equal(refused.status, 403);
    const strangerWeb = await signedIn(stranger);
    assert.equal((await strangerWeb.get(edit)).status, 404);
    const after = await apiMergeRequest(iid);
    assert.equal(after.title, 'After <edit>');
    assert.equal(after.description, 'New **text**');
  });

  it('milestone and labels: set in the forms by developers, shown on the page and list; a reporter may not', async () => {
    for (const name of ['bug', 'ui']) {
      const label = await api('POST', `/api/v3/projects/${project.id}/labels`, { name, color: '#d9534f' });
      assert.equal(label.status, 201, label.text);
    }
    const milestone = await api('POST', `/api/v3/projects/${project.id}/milestones`, { title: 'Sprint 1' });
    assert.equal(milestone.status, 201, milestone.text);
    const labelIds = new Map(
      (
        await t.server.deps.db.kysely
          .selectFrom('labels')
          .select(['id', 'title'])
          .where('project_id', '=', project.id)
          .execute()
      ).map((label) => [label.title, String(label.id)]),
    );
    await branchWithFile('labelled', 'labelled.txt', 'labelled\n');
    const web = await signedIn(developer);
    const form = await web.get(`${base}/merge_requests/new`);
    assert.match(form.text, /name="merge_request\[milestone_id\]"/);
    assert.match(
      form.text,
      new RegExp(`name="merge_request\\[label_ids\\]\\[\\]" value="${labelIds.get('bug')}"`),
    );
    const posted = await web.post(`${base}/merge_requests`, {
      'merge_request[source_branch]': 'labelled',
      'merge_request[target_branch]': 'master',
      'merge_request[title]': 'Labelled in the form',
      'merge_request[milestone_id]': String(milestone.body.id),
      'merge_request[label_ids][]': labelIds.get('bug')!,
    });
    assert.equal(posted.status, 302, posted.text);
    const iid = Number(/\/merge_requests\/(\d+)$/.exec(String(posted.headers.location))?.[1]);
    const created = await apiMergeRequest(iid);
    assert.deepEqual(created.labels, ['bug']);
    assert.equal(created.milestone.title, 'Sprint 1');

    const page = await web.get(`${base}/merge_requests/${iid}`);
    assert.match(page.text, /<dt>Milestone<\/dt><dd>Sprint 1<\/dd>/);
    assert.match(page.text, /<dt>Labels<\/dt><dd><span class="badge">bug<\/span><\/dd>/);
    const list = await web.get(`${base}/merge_requests`);
    assert.match(
      list.text,
      /Labelled in the form<\/strong><\/a><span class="badges"><span class="badge">bug<\/span>/,
    );

    // The edit form shows what is set; ticking `ui` alone replaces `bug`.
    const edit = await web.get(`${base}/merge_requests/${iid}/edit`);
    assert.match(edit.text, new RegExp(`value="${milestone.body.id}" selected`));
    const edited = await web.post(`${base}/merge_requests/${iid}`, {
      'merge_request[title]': 'Labelled in the form',
      'merge_request[milestone_id]': String(milestone.body.id),
      'merge_request[label_ids][]': labelIds.get('ui')!,
    });
    assert.equal(edited.status, 302, edited.text);
    assert.deepEqual((await apiMergeRequest(iid)).labels, ['ui']);

    // A reporter assigned to the MR may edit it, but is offered no milestone or labels, and a post of
    // them changes neither (filter_params).
    const assigned = await api('PUT', `/api/v3/projects/${project.id}/merge_requests/${created.id}`, {
      assignee_id: reporter.id,
    });
    assert.equal(assigned.status, 200, assigned.text);
    const reporterWeb = await signedIn(reporter);
    const reporterForm = await reporterWeb.get(`${base}/merge_requests/${iid}/edit`);
    assert.equal(reporterForm.status, 200);
    assert.doesNotMatch(reporterForm.text, /merge_request\[label_ids\]|merge_request\[milestone_id\]/);
    const sneaky = await reporterWeb.post(`${base}/merge_requests/${iid}`, {
      'merge_request[title]': 'Retitled by the reporter',
      'merge_request[milestone_id]': '',
      'merge_request[label_ids][]': labelIds.get('bug')!,
    });
    assert.equal(sneaky.status, 302, sneaky.text);
    const after = await apiMergeRequest(iid);
    assert.equal(after.title, 'Retitled by the reporter');
    assert.deepEqual(after.labels, ['ui']);
    assert.equal(after.milestone.title, 'Sprint 1');
  });

  it('thumbs up and down: a press awards, a second takes it back, as the API counts; not the author', async () => {
    await branchWithFile('feature-v', 'v.txt', 'v\n');
    const authorWeb = await signedIn(developer);
    const iid = await openInForm(authorWeb, 'feature-v', 'Voted MR');
    const mr = await apiMergeRequest(iid);
    const page = `${base}/merge_requests/${iid}`;
    const toggle = `${page}/toggle_award_emoji`;
    const awardsUrl = `/api/v3/projects/${project.id}/merge_requests/${mr.id}/award_emoji`;
    const awards = async () =>
      ((await api('GET', awardsUrl)).body as any[]).map((award) => `${award.user.username}:${award.name}`);

    const own = await authorWeb.get(page);
    assert.doesNotMatch(own.text, /name="name" value="thumbsup"/);
    assert.match(own.text, /Thumbs up 0/);
    assert.equal((await authorWeb.post(toggle, { name: 'thumbsup' })).status, 404);

    const web = await signedIn(reporter);
    const before = await web.get(page);
    assert.match(
      before.text,
      /<button type="submit" aria-pressed="false"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 0/,
    );
    const up = await web.post(toggle, { name: 'thumbsup' });
    assert.equal(up.status, 302);
    assert.equal(up.headers.location, page);
    assert.deepEqual(await awards(), ['remy:thumbsup']);
    assert.equal((await apiMergeRequest(iid)).upvotes, 1);
    const pressed = await web.get(page);
    assert.match(pressed.text, /aria-pressed="true"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 1/);

    assert.equal((await web.post(toggle, { name: 'thumbsup' })).status, 302);
    assert.deepEqual(await awards(), []);
    assert.equal((await web.post(toggle, { name: 'thumbsdown' })).status, 302);
    assert.deepEqual(await awards(), ['remy:thumbsdown']);
    const counted = await apiMergeRequest(iid);
    assert.deepEqual([counted.upvotes, counted.downvotes], [0, 1]);

    assert.equal((await web.request('POST', toggle, { name: 'thumbsup' })).status, 422);
    const strangerWeb = await signedIn(stranger);
    assert.equal((await strangerWeb.get(page)).status, 404);
    assert.equal((await strangerWeb.post(toggle, { name: 'thumbsup' })).status, 404);
    assert.deepEqual(await awards(), ['remy:thumbsdown']);
  });

  it('subscribes and unsubscribes with the button, as the API then says for that user', async () => {
    await branchWithFile('feature-s', 's.txt', 's\n');
    const iid = await openInForm(await signedIn(developer), 'feature-s', 'Watched MR');
    const page = `${base}/merge_requests/${iid}`;
    const toggle = `${page}/toggle_subscription`;
    const subscribed = async () => {
      const list = await api(
        'GET',
        `/api/v3/projects/${project.id}/merge_requests?iid=${iid}`,
        {},
        reporter.token,
      );
      assert.equal(list.status, 200);
      return list.body[0].subscribed as boolean;
    };
    const web = await signedIn(reporter);
    assert.equal(await subscribed(), false);
    assert.match((await web.get(page)).text, /name="subscribe" value="1"\/><button type="submit">Subscribe</);
    const on = await web.post(toggle, { subscribe: '1' });
    assert.equal(on.status, 302);
    assert.equal(on.headers.location, page);
    assert.equal(await subscribed(), true);
    assert.match(
      (await web.get(page)).text,
      /name="subscribe" value="0"\/><button type="submit">Unsubscribe</,
    );
    assert.equal((await web.post(toggle, { subscribe: '0' })).status, 302);
    assert.equal(await subscribed(), false);
    // A second press from a stale page asks for the state it already is in: nothing changes.
    assert.equal((await web.post(toggle, { subscribe: '0' })).status, 302);
    assert.equal(await subscribed(), false);
    assert.equal((await web.request('POST', toggle, { subscribe: '1' })).status, 422);
    assert.equal(await subscribed(), false);
  });
});
