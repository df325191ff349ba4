// The pages that change a repository, as a browser without script uses them, checked through the API
// and git: new branch and delete branch (protected and default ones refused on the page), the web file
// editor (new file, edit, commit to a new branch then the merge request form, a file changed meanwhile
// not overwritten), whose commits are pushes (event, pipeline); compare with its merge request button;
// the activity page; and refusals: stranger 404, reporter 403, no form token 422, nothing changed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProtectedBranch,
  createProjectTeam,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient } from '../helpers/git.ts';
import { signedInClient } from '../helpers/web.ts';
import { until } from '../helpers/wait.ts';

describe('pages: branches, file editor, compare and activity', () => {
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
  /** The file's text on a ref through the repository files API. */
  const fileText = async (path: string, ref: string) => {
    const file = await api(
      'GET',
      `/api/v3/projects/${project.id}/repository/files?file_path=${encodeURIComponent(path)}&ref=${ref}`,
    );
    assert.equal(file.status, 200, file.text);
    return Buffer.from(file.body.content as string, 'base64').toString('utf8');
  };
  const branchNames = async () => {
    const list = await api('GET', `/api/v3/projects/${project.id}/repository/branches`);
    assert.equal(list.status, 200);
    return (list.body as Array<{ name: string }>).map((branch) => branch.name).sort();
  };

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    ({ owner, developer, reporter, stranger, project } = await createProjectTeam(t, 'edited', {
      owner: 'olga',
      developer: 'dave',
      reporter: 'rita',
      stranger: 'stan',
    }));
    const ci = await api('POST', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: '.gitlab-ci.yml',
      branch_name: 'master',
      content: 'test:\n  script: make test\n',
      commit_message: 'Add CI',
    });
    assert.equal(ci.status, 201, ci.text);
    base = `/${project.fullPath}`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('creates a branch in the form, and refuses a name that exists with the form again', async () => {
    const web = await signedIn(developer);
    const list = await web.get(`${base}/branches`);
    assert.match(list.text, /href="\/olga\/edited\/branches\/new"/);
    const form = await web.get(`${base}/branches/new`);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="branch_name"/);
    assert.match(form.text, /name="ref" value="master"/);

    const created = await web.post(`${base}/branches`, { branch_name: 'topic/one', ref: 'master' });
    assert.equal(created.status, 302, created.text);
    assert.equal(created.headers.location, '/olga/edited/tree/topic/one');
    assert.equal(await sha('refs/heads/topic/one'), await sha('refs/heads/master'));

    const again = await web.post(`${base}/branches`, { branch_name: 'topic/one', ref: 'master' });
    assert.equal(again.status, 422);
    assert.match(again.text, /Branch already exists/);
    const bad = await web.post(`${base}/branches`, { branch_name: 'x', ref: 'no-such-ref' });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /Invalid reference name/);
    assert.deepEqual(await branchNames(), ['master', 'topic/one']);

    const page = await web.get(`${base}/branches`);
    assert.match(page.text, /merge_requests\/new\?merge_request%5Bsource_branch%5D=topic%2Fone/);
    assert.match(page.text, /aria-label="Delete branch topic\/one"/);
    assert.doesNotMatch(page.text, /aria-label="Delete branch master"/);
  });

  it('deletes a branch with its button; a protected branch and the default one are refused', async () => {
    const web = await signedIn(developer);
    await web.get(`${base}/branches`);
    assert.equal((await web.post(`${base}/branches`, { branch_name: 'doomed', ref: 'master' })).status, 302);
    assert.equal((await web.post(`${base}/branches`, { branch_name: 'kept', ref: 'master' })).status, 302);
    await addProtectedBranch(t, project.id, 'kept');

    const deleted = await web.post(`${base}/branches/delete`, { id: 'doomed' });
    assert.equal(deleted.status, 302);
    assert.equal(deleted.headers.location, '/olga/edited/branches?done=deleted');
    assert.match((await web.get(String(deleted.headers.location))).text, /The branch was deleted\./);

    const guarded = await web.post(`${base}/branches/delete`, { id: 'kept' });
    assert.equal(guarded.status, 422);
    assert.match(guarded.text, /Protected branch cant be removed/);
    assert.doesNotMatch(guarded.text, /aria-label="Delete branch kept"/);
    const head = await web.post(`${base}/branches/delete`, { id: 'master' });
    assert.equal(head.status, 422);
    assert.match(head.text, /Cannot remove HEAD branch/);
    const gone = await web.post(`${base}/branches/delete`, { id: 'doomed' });
    assert.equal(gone.status, 422);
    assert.match(gone.text, /No such branch/);
    assert.deepEqual(await branchNames(), ['kept', 'master', 'topic/one']);
  });

  it('creates a file in the editor: one commit on the branch, a push event and a pipeline', async () => {
    const web = await signedIn(developer);
    const tree = await web.get(`${base}/tree/topic/one`);
    assert.match(tree.text, /href="\/olga\/edited\/new\/topic\/one"/);
    const form = await web.get(`${base}/new/topic/one/docs`);
    assert.equal(form.status, 200);
    assert.match(form.text, /action="\/olga\/edited\/create\/topic\/one\/docs"/);
    assert.match(form.text, /name="target_branch" value="topic\/one"/);
    const before = await sha('refs/heads/topic/one');

    const created = await web.post(`${base}/create/topic/one/docs`, {
      file_name: 'guide.md',
      content: '# Guide\r\n\r\nHello <b>.\r\n',
      commit_message: 'Add the guide',
      target_branch: 'topic/one',
    });
    assert.equal(created.status, 302, created.text);
    assert.equal(created.headers.location, '/olga/edited/blob/topic/one/docs/guide.md?done=created');
    assert.match(
      (await web.get(created.headers.location!)).text,
      /role="status">The file has been successfully created\.</,
    );
    assert.equal(await fileText('docs/guide.md', 'topic/one'), '# Guide\n\nHello <b>.\n');
    const head = await sha('refs/heads/topic/one');
    assert.equal(await sha(`${head}^`), before);

    const events = await api('GET', `/api/v3/projects/${project.id}/events`);
    const push = (events.body as Array<Record<string, any>>).find(
      (event) => event.action_name === 'pushed to' && event.data?.after === head,
    );
    assert.ok(push, 'a push event for the commit');
    assert.equal(push.author_username, 'dave');
    const pipeline = await until('a pipeline for the web commit', async () => {
      const list = await api('GET', `/api/v3/projects/${project.id}/pipelines`);
      return (list.body as Array<Record<string, any>>).find((p) => p.sha === head);
    });
    assert.equal(pipeline.ref, 'topic/one');

    const exists = await web.post(`${base}/create/topic/one/docs`, {
      file_name: 'guide.md',
      content: 'again',
      commit_message: 'Again',
      target_branch: 'topic/one',
    });
    assert.equal(exists.status, 422);
    assert.match(exists.text, /a file with the same name already exists/);
    assert.match(exists.text, />again<\/textarea>/);
    assert.equal(await sha('refs/heads/topic/one'), head);
  });

  it('edits a file onto a new branch and opens the merge request form for it', async () => {
    const web = await signedIn(developer);
    const blob = await web.get(`${base}/blob/master/README.md`);
    assert.match(blob.text, /href="\/olga\/edited\/edit\/master\/README\.md">Edit<\/a>/);
    const form = await web.get(`${base}/edit/master/README.md`);
    assert.equal(form.status, 200);
    assert.match(form.text, /# edited\n<\/textarea>/);
    assert.match(form.text, /name="commit_message"[^>]*>Update README\.md<\/textarea>/);
    const original = /name="original_blob_id" value="([0-9a-f]{40})"/.exec(form.text)?.[1];
    assert.ok(original);
    const masterBefore = await sha('refs/heads/master');

    const updated = await web.post(`${base}/update/master/README.md`, {
      original_blob_id: original,
      content: '# edited\n\nBetter words.\n',
      commit_message: 'Improve the README',
      target_branch: 'better-readme',
      create_merge_request: '1',
    });
    assert.equal(updated.status, 302, updated.text);
    const location = String(updated.headers.location);
    assert.equal(
      location,
      '/olga/edited/merge_requests/new?merge_request%5Bsource_branch%5D=better-readme&merge_request%5Btarget_branch%5D=master',
    );
    assert.equal(await sha('refs/heads/master'), masterBefore);
    assert.equal(await fileText('README.md', 'better-readme'), '# edited\n\nBetter words.\n');
    assert.equal(await sha('refs/heads/better-readme^'), masterBefore);

    const mrForm = await web.get(location);
    assert.equal(mrForm.status, 200);
    assert.match(mrForm.text, /<option value="better-readme" selected>better-readme<\/option>/);
    assert.match(mrForm.text, /name="merge_request\[title\]" value="Better readme"/);

    // The same form sent again: the new branch exists now, so nothing is written.
    const twice = await web.post(`${base}/update/master/README.md`, {
      original_blob_id: original,
      content: 'other',
      commit_message: 'Other',
      target_branch: 'better-readme',
    });
    assert.equal(twice.status, 422);
    assert.match(twice.text, /Branch with such name already exists/);
    assert.equal(await fileText('README.md', 'better-readme'), '# edited\n\nBetter words.\n');
  });

  it('does not overwrite a file changed since the editor opened', async () => {
    const web = await signedIn(developer);
    const form = await web.get(`${base}/edit/topic/one/docs/guide.md`);
    const original = /name="original_blob_id" value="([0-9a-f]{40})"/.exec(form.text)?.[1];
    assert.ok(original);
    const meanwhile = await api('PUT', `/api/v3/projects/${project.id}/repository/files`, {
      file_path: 'docs/guide.md',
      branch_name: 'topic/one',
      content: 'theirs\n',
      commit_message: 'Their change',
    });
    assert.equal(meanwhile.status, 200, meanwhile.text);
    const head = await sha('refs/heads/topic/one');
    const mine = await web.post(`${base}/update/topic/one/docs/guide.md`, {
      original_blob_id: original,
      content: 'mine\n',
      commit_message: 'My change',
      target_branch: 'topic/one',
    });
    assert.equal(mine.status, 422);
    assert.match(mine.text, /Someone edited the file the same time you did/);
    assert.match(mine.text, />mine\n<\/textarea>/);
    assert.equal(await sha('refs/heads/topic/one'), head);
    assert.equal(await fileText('docs/guide.md', 'topic/one'), 'theirs\n');

    // Sent again from the fresh form, it lands, and the file's page says so.
    const fresh = await web.get(`${base}/edit/topic/one/docs/guide.md`);
    const current = /name="original_blob_id" value="([0-9a-f]{40})"/.exec(fresh.text)?.[1];
    const again = await web.post(`${base}/update/topic/one/docs/guide.md`, {
      original_blob_id: current!,
      content: 'theirs and mine\n',
      commit_message: 'My change, again',
      target_branch: 'topic/one',
    });
    assert.equal(again.status, 302, again.text);
    assert.equal(again.headers.location, '/olga/edited/blob/topic/one/docs/guide.md?done=committed');
    assert.match(
      (await web.get(again.headers.location!)).text,
      /role="status">Your changes have been successfully committed\.</,
    );
    assert.equal(await fileText('docs/guide.md', 'topic/one'), 'theirs and mine\n');
  });

  it('deletes a file with the blob page button, as one commit; a reporter and a forged form cannot', async () => {
    const web = await signedIn(developer);
    const page = await web.get(`${base}/blob/topic/one/docs/guide.md`);
    assert.match(page.text, /<summary>Delete this file<\/summary>/);
    assert.match(
      page.text,
      /<form class="stack" method="post" action="\/olga\/edited\/blob\/topic\/one\/docs\/guide\.md">/,
    );
    const head = await sha('refs/heads/topic/one');
    const forged = await web.post(`${base}/blob/topic/one/docs/guide.md`, { authenticity_token: 'forged' });
    assert.equal(forged.status, 422);
    const reader = await signedIn(reporter);
    await reader.get(`${base}/blob/topic/one/docs/guide.md`);
    assert.equal((await reader.post(`${base}/blob/topic/one/docs/guide.md`)).status, 403);
    assert.equal(await sha('refs/heads/topic/one'), head);

    const deleted = await web.post(`${base}/blob/topic/one/docs/guide.md`, {
      commit_message: 'Drop the guide',
    });
    assert.equal(deleted.status, 302, deleted.text);
    assert.equal(deleted.headers.location, '/olga/edited/tree/topic/one?done=deleted');
    assert.match(
      (await web.get(deleted.headers.location!)).text,
      /role="status">The file has been successfully deleted\.</,
    );
    assert.equal(await sha('refs/heads/topic/one^'), head);
    const gone = await api(
      'GET',
      `/api/v3/projects/${project.id}/repository/files?file_path=docs%2Fguide.md&ref=topic%2Fone`,
    );
    assert.equal(gone.status, 404);
    const commit = await api('GET', `/api/v3/projects/${project.id}/repository/commits/topic%2Fone`);
    assert.equal(commit.body.title, 'Drop the guide');
  });

  it('refuses the editor and branch forms to a reporter (403) and a stranger (404)', async () => {
    const reader = await signedIn(reporter);
    const blob = await reader.get(`${base}/blob/master/README.md`);
    assert.equal(blob.status, 200);
    assert.doesNotMatch(blob.text, />Edit<\/a>/);
    assert.doesNotMatch((await reader.get(`${base}/branches`)).text, /Delete branch|branches\/new/);
    assert.equal((await reader.get(`${base}/edit/master/README.md`)).status, 403);
    assert.equal((await reader.get(`${base}/new/master`)).status, 403);
    assert.equal((await reader.get(`${base}/branches/new`)).status, 403);
    const posted = await reader.post(`${base}/update/master/README.md`, {
      content: 'reporter',
      commit_message: 'Nope',
      target_branch: 'master',
    });
    assert.equal(posted.status, 403);
    assert.equal((await reader.post(`${base}/branches/delete`, { id: 'topic/one' })).status, 403);

    const outsider = await signedIn(stranger);
    assert.equal((await outsider.get(`${base}/edit/master/README.md`)).status, 404);
    assert.equal((await outsider.get(`${base}/compare`)).status, 404);
    assert.equal((await outsider.get(`${base}/activity`)).status, 404);
    await outsider.get('/');
    assert.equal((await outsider.post(`${base}/branches`, { branch_name: 'x', ref: 'master' })).status, 404);
    assert.equal(await fileText('README.md', 'master'), '# edited\n');
    assert.ok((await branchNames()).includes('topic/one'));
    assert.ok(!(await branchNames()).includes('x'));
  });

  it('changes nothing when a form is posted without its token', async () => {
    const web = await signedIn(developer);
    await web.get(`${base}/edit/master/README.md`);
    const forged = { authenticity_token: 'forged' };
    const edit = await web.post(`${base}/update/master/README.md`, {
      ...forged,
      content: 'forged',
      commit_message: 'Forged',
      target_branch: 'master',
    });
    assert.equal(edit.status, 422);
    const created = await web.post(`${base}/create/master`, {
      ...forged,
      file_name: 'forged.txt',
      content: 'x',
      commit_message: 'Forged',
      target_branch: 'master',
    });
    assert.equal(created.status, 422);
    assert.equal((await web.post(`${base}/branches`, { ...forged, branch_name: 'forged' })).status, 422);
    assert.equal((await web.post(`${base}/branches/delete`, { ...forged, id: 'topic/one' })).status, 422);
    assert.equal(await fileText('README.md', 'master'), '# edited\n');
    assert.deepEqual(await branchNames(), ['better-readme', 'kept', 'master', 'topic/one']);
  });

  it('compares two branches: commits, diff and a merge request button', async () => {
    const web = await signedIn(developer);
    const index = await web.get(`${base}/compare`);
    assert.equal(index.status, 200);
    assert.match(index.text, /name="from" value="master"/);
    const chosen = await web.get(`${base}/compare?from=master&to=better-readme`);
    assert.equal(chosen.status, 302);
    assert.equal(chosen.headers.location, '/olga/edited/compare/master...better-readme');

    const page = await web.get(String(chosen.headers.location));
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2>1 commit<\/h2>/);
    assert.match(page.text, /Improve the README/);
    assert.match(page.text, /1 changed file with 2 additions and 0 deletions/);
    assert.match(page.text, /\+Better words\./);
    assert.match(
      page.text,
      /href="\/olga\/edited\/merge_requests\/new\?merge_request%5Bsource_branch%5D=better-readme&amp;merge_request%5Btarget_branch%5D=master"/,
    );

    const slashed = await web.get(`${base}/compare/master...topic%2Fone`);
    assert.equal(slashed.status, 200);
    assert.match(slashed.text, /Add the guide/);
    const same = await web.get(`${base}/compare/master...master`);
    assert.equal(same.status, 200);
    assert.match(same.text, /There isn't anything to compare/);
    const unknown = await web.get(`${base}/compare/master...nothing-here`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.text, /There is no commit named/);

    const reader = await signedIn(reporter);
    const read = await reader.get(String(chosen.headers.location));
    assert.equal(read.status, 200);
    assert.doesNotMatch(read.text, /Create merge request/);
  });

  it('shows the project activity, newest first, paged', async () => {
    const web = await signedIn(reporter);
    const page = await web.get(`${base}/activity`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Activity<\/h1>/);
    const items = (text: string) => [...text.matchAll(/<li><div class="row">/g)].length;
    const events = async () => {
      const list = await api('GET', `/api/v3/projects/${project.id}/events?per_page=100`);
      assert.equal(list.status, 200);
      return (list.body as unknown[]).length;
    };
    const before = await events();
    assert.ok(before >= 5 && before <= 20, `events so far: ${before}`);
    assert.equal(items(page.text), before);
    assert.ok(page.text.indexOf('Improve the README') < page.text.indexOf('Add the guide'));
    assert.match(
      page.text,
      /dave Name<\/a> pushed new branch <a href="\/olga\/edited\/commits\/better-readme">/,
    );
    assert.doesNotMatch(page.text, /Older/);

    // Enough branches for a second page.
    for (const n of Array.from({ length: 21 - before }, (_, i) => i)) {
      const made = await api('POST', `/api/v3/projects/${project.id}/repository/branches`, {
        branch_name: `many-${n}`,
        ref: 'master',
      });
      assert.equal(made.status, 201, made.text);
    }
    const total = await events();
    assert.equal(total, 21);
    const first = await web.get(`${base}/activity`);
    assert.equal(items(first.text), 20);
    assert.match(first.text, /href="\/olga\/edited\/activity\?page=2">Older/);
    const second = await web.get(`${base}/activity?page=2`);
    assert.equal(second.status, 200);
    assert.equal(items(second.text), 1);
    assert.match(second.text, /href="\/olga\/edited\/activity">‹ Newer/);
    assert.equal((await web.get(`${base}/activity?page=0`)).status, 400);
  });
});
