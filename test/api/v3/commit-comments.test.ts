// Comments on a commit over v3 (GitLab 8.13's lib/api/commits.rb), as go-gitlab and python-gitlab call
// them: the CommitNote shape field by field, a line comment when path/line/line_type name a line of the
// commit's diff (its line_code as 8.13 computed it: sha1(path)_old_new) and a plain comment otherwise,
// the branch-or-sha lookup of the list with its pagination headers, 8.13's 400s, 404 for an unknown
// commit or a hidden project, 403 for a guest of a private project, the note hook with `commit`; and
// the commit page, which shows the comments below the diff and posts new ones through the notes route.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../../helpers/factory.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';
import { until } from '../../helpers/wait.ts';
import { WebClient } from '../../helpers/web.ts';
import { AccessLevel } from '../../../src/domain/types.ts';
import { USER_BASIC_KEYS } from '../../helpers/entity-keys.ts';

const COMMIT_NOTE_KEYS = ['note', 'path', 'line', 'line_type', 'author', 'created_at'];
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

describe('commit comments', () => {
  let t: TestApp;
  let owner: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let receiver: Receiver;
  /** The commit that changes lib/a.txt from one/two/three to one/2/three/four. */
  let sha: string;
  let comments: string;

  const call = (method: string, url: string, token: string, body: Record<string, unknown> = {}) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'ccowner');
    guest = await createUser(t, 'ccguest');
    stranger = await createUser(t, 'ccstranger');
    project = await createProject(t, { owner, path: 'cc', commit: true });
    await addProjectMember(t, project.id, guest.id, AccessLevel.Guest);
    const files = `/api/v3/projects/${project.id}/repository/files`;
    const file = { file_path: 'lib/a.txt', branch_name: 'master' };
    const created = await call('POST', files, owner.token, {
      ...file,
      content: 'one\ntwo\nthree\n',
      commit_message: 'Add a',
    });
    assert.equal(created.status, 201, created.text);
    const changed = await call('PUT', files, owner.token, {
      ...file,
      content: 'one\n2\nthree\nfour\n',
      commit_message: 'Change a',
    });
    assert.equal(changed.status, 200, changed.text);
    const master = await call(
      'GET',
      `/api/v3/projects/${project.id}/repository/branches/master`,
      owner.token,
    );
    assert.equal(master.status, 200, master.text);
    sha = master.body.commit.id;
    comments = `/api/v3/projects/${project.id}/repository/commits/${sha}/comments`;
    receiver = await startReceiver();
    const hook = await call('POST', `/api/v3/projects/${project.id}/hooks`, owner.token, {
      url: receiver.url,
      note_events: true,
      push_events: false,
    });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  it('comments on an added line, a removed line, and the commit as a whole', async () => {
    const added = await call('POST', comments, owner.token, {
      note: 'Why 2?',
      path: 'lib/a.txt',
      line: 2,
      line_type: 'new',
    });
    assert.equal(added.status, 201, added.text);
    assert.deepEqual(Object.keys(added.body), COMMIT_NOTE_KEYS);
    assert.equal(added.body.note, 'Why 2?');
    assert.equal(added.body.path, 'lib/a.txt');
    assert.equal(added.body.line, 2);
    assert.equal(added.body.line_type, 'new');
    assert.deepEqual(Object.keys(added.body.author), USER_BASIC_KEYS);
    assert.equal(added.body.author.username, owner.username);
    assert.match(added.body.created_at, /^\d{4}-\d\d-\d\dT/);

    // `line_type` defaults to new; the removed "two" sits at new-side line 2 as 8.13 numbered it.
    const removed = await call('POST', comments, owner.token, {
      note: 'Farewell two',
      path: 'lib/a.txt',
      line: 2,
      line_type: 'old',
    });
    assert.equal(removed.status, 201, removed.text);
    assert.deepEqual([removed.body.path, removed.body.line, removed.body.line_type], ['lib/a.txt', 2, 'old']);

    // A context line, a line past the diff or another path: a plain comment, position null.
    for (const [line, path] of [
      [1, 'lib/a.txt'],
      [9, 'lib/a.txt'],
      [2, 'README.md'],
    ] as const) {
      const plain = await call('POST', comments, owner.token, { note: `plain ${line} ${path}`, path, line });
      assert.equal(plain.status, 201, plain.text);
      assert.deepEqual([plain.body.path, plain.body.line, plain.body.line_type], [null, null, null]);
    }
    const whole = await call('POST', comments, owner.token, { note: 'Nice commit' });
    assert.equal(whole.status, 201, whole.text);
    assert.deepEqual([whole.body.path, whole.body.line, whole.body.line_type], [null, null, null]);

    // Listed oldest first with the same shapes, by sha or by branch, paginated.
    const list = await call('GET', comments, owner.token);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.headers['x-total'], '6');
    assert.deepEqual(list.body[0], added.body);
    assert.deepEqual(list.body[1], removed.body);
    assert.deepEqual(list.body[5], whole.body);
    const byBranch = await call(
      'GET',
      `/api/v3/projects/${project.id}/repository/commits/master/comments?per_page=2&page=3`,
      owner.token,
    );
    assert.equal(byBranch.status, 200, byBranch.text);
    assert.deepEqual(
      byBranch.body.map((c: { note: string }) => c.note),
      ['plain 2 README.md', 'Nice commit'],
    );
    assert.equal(byBranch.headers['x-total-pages'], '3');
    assert.equal(byBranch.headers['x-page'], '3');
    assert.equal(byBranch.headers['x-next-page'], '');
    // The parent commit has none of them.
    const parent = await call(
      'GET',
      `/api/v3/projects/${project.id}/repository/commits/${sha}~1/comments`,
      owner.token,
    );
    assert.equal(parent.status, 200, parent.text);
    assert.deepEqual(parent.body, []);
  });

  it('fires the note hook with the commit, the line code of a line comment, and the commented event', async () => {
    const posted = await call('POST', comments, owner.token, {
      note: 'Hook me',
      path: 'lib/a.txt',
      line: 4,
    });
    assert.equal(posted.status, 201, posted.text);
    assert.equal(posted.body.line, 4);
    await t.server.hookWorker.drain();
    const hook = await until('the note hook of the commit comment', () =>
      receiver.received.find((h) => h.body.object_attributes?.note === 'Hook me'),
    );
    assert.equal(hook.headers['x-gitlab-event'], 'Note Hook');
    assert.deepEqual(Object.keys(hook.body), [
      'object_kind',
      'user',
      'project_id',
      'project',
      'object_attributes',
      'repository',
      'commit',
    ]);
    const attributes = hook.body.object_attributes;
    assert.equal(attributes.noteable_type, 'Commit');
    assert.equal(attributes.noteable_id, null);
    assert.equal(attributes.commit_id, sha);
    assert.equal(attributes.line_code, `${sha1('lib/a.txt')}_4_4`);
    assert.equal(attributes.type, 'LegacyDiffNote');
    const commitUrl = `${t.config.externalUrl}/${project.fullPath}/commit/${sha}`;
    assert.equal(attributes.url, `${commitUrl}#note_${attributes.id}`);
    assert.deepEqual(Object.keys(hook.body.commit), ['id', 'message', 'timestamp', 'url', 'author']);
    assert.equal(hook.body.commit.id, sha);
    assert.equal(hook.body.commit.message, 'Change a');
    assert.equal(hook.body.commit.url, commitUrl);

    const events = await call('GET', `/api/v3/projects/${project.id}/events`, owner.token);
    const commented = events.body.find(
      (e: { target_type: string; target_id: number }) =>
        e.target_type === 'Note' && e.target_id === attributes.id,
    );
    assert.equal(commented?.action_name, 'commented on');
    assert.equal(commented?.note?.noteable_type, 'Commit');

    // The added line "2" is at old 3, new 2; a plain comment has no code and no type.
    const plain = await call('POST', comments, owner.token, { note: 'Hook me plainly' });
    assert.equal(plain.status, 201, plain.text);
    await t.server.hookWorker.drain();
    const plainHook = await until('the note hook of the plain comment', () =>
      receiver.received.find((h) => h.body.object_attributes?.note === 'Hook me plainly'),
    );
    assert.equal(plainHook.body.object_attributes.line_code, null);
    assert.equal(plainHook.body.object_attributes.type, null);
  });

  it("answers 8.13's 400s", async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [comments, {}, 'note is missing'],
      [comments.replace(sha, 'nothex'), { note: 'x' }, 'sha is invalid'],
      [comments.replace(sha, 'abc'), {}, 'sha is invalid, note is missing'],
      [comments, { note: 'x', path: 'lib/a.txt' }, 'line is missing'],
      [comments, { note: 'x', path: 'lib/a.txt', line: 'two' }, 'line is invalid'],
      [
        comments,
        { note: 'x', path: 'lib/a.txt', line: 2, line_type: 'mid' },
        'line_type does not have a valid value',
      ],
    ];
    for (const [url, body, error] of cases) {
      const response = await call('POST', url, owner.token, body);
      assert.equal(response.status, 400, `${error}: ${response.text}`);
      assert.deepEqual(response.body, { error });
    }
    const blank = await call('POST', comments, owner.token, { note: ' ' });
    assert.equal(blank.status, 400, blank.text);
    assert.deepEqual(blank.body, { message: `Failed to save note {:note=>["can't be blank"]}` });
    // A branch name is no sha for a new comment.
    const byBranch = await call(
      'POST',
      `/api/v3/projects/${project.id}/repository/commits/master/comments`,
      owner.token,
      { note: 'x' },
    );
    assert.equal(byBranch.status, 400, byBranch.text);
    assert.deepEqual(byBranch.body, { error: 'sha is invalid' });
  });

  it('answers 404 for an unknown commit or a hidden project, 403 for a guest of a private project', async () => {
    const unknown = comments.replace(sha, 'abcdef0123');
    const missingList = await call('GET', unknown, owner.token);
    assert.equal(missingList.status, 404, missingList.text);
    assert.deepEqual(missingList.body, { message: '404 Commit Not Found' });
    const missingPost = await call('POST', unknown, owner.token, { note: 'x' });
    assert.equal(missingPost.status, 404, missingPost.text);
    assert.deepEqual(missingPost.body, { message: '404 Commit Not Found' });
    const unknownRef = await call(
      'GET',
      `/api/v3/projects/${project.id}/repository/commits/no-such-branch/comments`,
      owner.token,
    );
    assert.equal(unknownRef.status, 404, unknownRef.text);

    for (const [method, body] of [
      ['GET', {}],
      ['POST', { note: 'x' }],
    ] as const) {
      const hidden = await call(method, comments, stranger.token, body);
      assert.equal(hidden.status, 404, hidden.text);
      assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
      const guestOnly = await call(method, comments, guest.token, body);
      assert.equal(guestOnly.status, 403, guestOnly.text);
    }
  });

  it('shows the comments on the commit page, and its form comments on the commit', async () => {
    const line = await call('POST', comments, owner.token, {
      note: 'On the _page_',
      path: 'lib/a.txt',
      line: 2,
      line_type: 'new',
    });
    assert.equal(line.status, 201, line.text);
    const web = new WebClient(t);
    assert.equal((await web.signIn(owner.username, owner.password)).status, 302);
    const pageUrl = `/${project.fullPath}/commit/${sha}`;
    const page = await web.get(pageUrl);
    assert.equal(page.status, 200, page.text);
    const discussion = page.text.indexOf('id="discussion"');
    assert.ok(discussion > page.text.indexOf('lib/a.txt'), 'the discussion follows the diff');
    assert.match(page.text, /On the <em>page<\/em>/);
    assert.match(page.text, /on <code>lib\/a.txt<\/code> line 2/);
    assert.match(page.text, /name="note\[noteable_type\]" value="Commit"/);
    assert.match(page.text, new RegExp(`name="note\\[commit_id\\]" value="${sha}"`));

    const posted = await web.post(`/${project.fullPath}/notes`, {
      'note[noteable_type]': 'Commit',
      'note[commit_id]': sha,
      'note[note]': 'From the form',
    });
    assert.equal(posted.status, 302, posted.text);
    const list = await call('GET', `${comments}?per_page=100`, owner.token);
    const last = list.body.at(-1);
    assert.equal(last.note, 'From the form');
    assert.deepEqual([last.path, last.line, last.line_type], [null, null, null]);
    assert.match(String(posted.headers.location), new RegExp(`^${pageUrl}#note_\\d+$`));
    const after = await web.get(pageUrl);
    assert.match(after.text, /From the form/);

    // A blank comment is shown again with its error; an unknown commit or a guest without code: 404.
    const blank = await web.post(`/${project.fullPath}/notes`, {
      'note[noteable_type]': 'Commit',
      'note[commit_id]': sha,
      'note[note]': ' ',
    });
    assert.equal(blank.status, 422, blank.text);
    assert.match(blank.text, /id="discussion"/);
    const unknown = await web.post(`/${project.fullPath}/notes`, {
      'note[noteable_type]': 'Commit',
      'note[commit_id]': 'abcdef0123',
      'note[note]': 'lost',
    });
    assert.equal(unknown.status, 404, unknown.text);
    const guestWeb = new WebClient(t);
    assert.equal((await guestWeb.signIn(guest.username, guest.password)).status, 302);
    // The guest's form token comes from a page they may see (the project's).
    assert.equal((await guestWeb.get(`/${project.fullPath}`)).status, 200);
    const refused = await guestWeb.post(`/${project.fullPath}/notes`, {
      'note[noteable_type]': 'Commit',
      'note[commit_id]': sha,
      'note[note]': 'guest',
    });
    assert.equal(refused.status, 404, refused.text);
    const total = (await call('GET', comments, owner.token)).headers['x-total'];
    assert.equal(total, String(list.body.length));
  });
});
