// @gitbeaker/rest 43 (npm, a dev dependency) against a listening Labrador, called as its users call it:
// `new Gitlab({ host, token })`, then the resources' methods. gitbeaker sends JSON bodies (`{}` with every
// DELETE), multipart when a call carries a file, parses only `application/json`, and raises
// GitbeakerRequestError with the response for any refusal.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Gitlab } from '@gitbeaker/rest';
import { refusal } from './gitbeaker-refusal.ts';
import { startClientApp, type ClientApp } from './client-app.ts';

describe('@gitbeaker/rest 43', () => {
  let app: ClientApp;
  let api: InstanceType<typeof Gitlab>;

  before(async () => {
    app = await startClientApp();
    api = new Gitlab({ host: app.url, token: app.t.rootToken });
  });
  after(() => app.t.close());

  it('reads the metadata', async () => {
    const metadata = await api.Metadata.show();
    assert.match(metadata.version, /^\d+\.\d+\.\d+$/);
    assert.equal(metadata.revision, 'labrador');
  });

  it('shows the current user, creates, finds and shows a user', async () => {
    const me = await api.Users.showCurrentUser();
    assert.equal(me.username, 'root');
    assert.equal(me.is_admin, true);
    const made = await api.Users.create({
      email: 'beaker@example.com',
      username: 'beaker',
      name: 'Beaker',
      password: 'a-long-password-1',
      skipConfirmation: true,
    });
    assert.equal(made.username, 'beaker');
    const found = await api.Users.all({ username: 'beaker' });
    assert.deepEqual(
      found.map((user) => user.id),
      [made.id],
    );
    assert.equal((await api.Users.show(made.id)).name, 'Beaker');
  });

  it('creates, lists and removes a group, with a member', async () => {
    const group = await api.Groups.create('Beaker Group', 'beaker-group');
    assert.equal(group.full_path, 'beaker-group');
    assert.deepEqual(
      (await api.Groups.all()).map((item) => item.path),
      ['beaker-group'],
    );
    const user = await api.Users.create({
      email: 'beaker-member@example.com',
      username: 'beaker-member',
      name: 'Member',
      password: 'a-long-password-1',
    });
    const member = await api.GroupMembers.add(group.id, 30, { userId: user.id });
    assert.equal(member.access_level, 30);
    assert.equal((await refusal(api.GroupMembers.add(group.id, 30, { userId: user.id }))).status, 409);
    await api.Groups.remove(group.id);
    assert.equal((await refusal(api.Groups.show(group.id))).status, 404);
  });

  it('makes a personal access token, signs in with it, and its read_api scope cannot write', async () => {
    const made = await api.PersonalAccessTokens.create(1, 'beaker', ['read_api']);
    assert.equal(made.name, 'beaker');
    assert.deepEqual(made.scopes, ['read_api']);
    const reader = new Gitlab({ host: app.url, token: String(made.token) });
    assert.equal((await reader.Metadata.show()).revision, 'labrador');
    const listed = await api.PersonalAccessTokens.all();
    assert.deepEqual(
      listed.map((token) => token.name),
      ['beaker'],
    );
    const refused = await refusal(reader.PersonalAccessTokens.create(1, 'more', ['api']));
    assert.equal(refused.status, 403);
    await api.PersonalAccessTokens.remove({ tokenId: made.id });
    assert.equal((await refusal(reader.Metadata.show())).status, 401);
  });

  it('creates, shows (by id and by path), edits, lists and removes a project', async () => {
    const made = await api.Projects.create({ name: 'beaker-project', visibility: 'private' });
    assert.equal(made.path_with_namespace, 'root/beaker-project');
    assert.equal(made.visibility, 'private');
    const byPath = await api.Projects.show('root/beaker-project');
    assert.equal(byPath.id, made.id);
    const edited = await api.Projects.edit(made.id, { description: 'edited', visibility: 'internal' });
    assert.equal(edited.description, 'edited');
    assert.equal(edited.visibility, 'internal');
    // With an avatar gitbeaker sends the edit as multipart: its fields are read as parameters.
    const avatar = { content: new Blob(['GIF89a']), filename: 'a.gif' };
    const multipart = await api.Projects.edit(made.id, { description: 'by multipart', avatar });
    assert.equal(multipart.description, 'by multipart');
    const owned = await api.Projects.all({ owned: true, simple: true });
    assert.deepEqual(
      owned.map((project) => project.path_with_namespace),
      ['root/beaker-project'],
    );
    // Every page, by the Link headers (per_page 1 over three projects).
    await api.Projects.create({ name: 'beaker-two' });
    await api.Projects.create({ name: 'beaker-three' });
    const walked = await api.Projects.all({ perPage: 1, orderBy: 'id', sort: 'asc' });
    assert.deepEqual(
      walked.map((project) => project.path),
      ['beaker-project', 'beaker-two', 'beaker-three'],
    );
    const { data, paginationInfo } = await api.Projects.all({
      pagination: 'offset',
      perPage: 2,
      page: 1,
      showExpanded: true,
    });
    assert.equal(data.length, 2);
    assert.deepEqual(paginationInfo, {
      total: 3,
      next: 2,
      current: 1,
      previous: null,
      perPage: 2,
      totalPages: 2,
    });
    await api.Projects.remove(made.id);
    assert.equal((await refusal(api.Projects.show(made.id))).status, 404);
  });

  it('writes a first file on main, commits actions, makes branches, tags and protects a branch', async () => {
    const project = await api.Projects.create({ name: 'beaker-code' });
    const file = await api.RepositoryFiles.create(project.id, 'docs/README.md', 'main', 'hello\n', 'First');
    assert.deepEqual(file, { file_path: 'docs/README.md', branch: 'main' });
    assert.equal((await api.Projects.show(project.id)).default_branch, 'main');
    const commit = await api.Commits.create(project.id, 'main', 'Two actions', [
      { action: 'create', filePath: 'b.txt', content: 'Yg==', encoding: 'base64' },
      { action: 'update', filePath: 'docs/README.md', content: 'hello again\n' },
    ]);
    assert.equal(commit.title, 'Two actions');
    const shown = await api.RepositoryFiles.show(project.id, 'b.txt', 'main');
    assert.equal(Buffer.from(String(shown.content), 'base64').toString(), 'b');
    const branch = await api.Branches.create(project.id, 'feature', 'main');
    assert.equal(branch.commit.id, commit.id);
    assert.deepEqual(
      (await api.Branches.all(project.id)).map((item) => item.name),
      ['feature', 'main'],
    );
    const tag = await api.Tags.create(project.id, 'v1.0', 'main');
    assert.equal(tag.commit.id, commit.id);
    const protection = await api.ProtectedBranches.protect(project.id, 'feature', { pushAccessLevel: 40 });
    assert.deepEqual(
      (protection.push_access_levels as { access_level: number }[]).map((level) => level.access_level),
      [40],
    );
  });

  it('creates, edits, closes and lists issues; opens, lists, edits and merges a merge request', async () => {
    const project = await api.Projects.create({ name: 'beaker-issues' });
    await api.RepositoryFiles.create(project.id, 'README.md', 'main', 'hi\n', 'First');
    const issue = await api.Issues.create(project.id, 'Beaker bug', { labels: 'bug,ui' });
    assert.equal(issue.iid, 1);
    const closed = await api.Issues.edit(project.id, issue.iid, { stateEvent: 'close', description: 'seen' });
    assert.equal(closed.state, 'closed');
    assert.equal((closed.closed_by as { username: string }).username, 'root');
    const listed = await api.Issues.all({ projectId: project.id, labels: 'bug,ui', state: 'closed' });
    assert.deepEqual(
      listed.map((item) => item.title),
      ['Beaker bug'],
    );
    assert.equal((await api.Issues.show(issue.iid, { projectId: project.id })).description, 'seen');

    await api.Branches.create(project.id, 'fix', 'main');
    await api.RepositoryFiles.create(project.id, 'fix.txt', 'fix', 'fixed\n', 'Fix');
    const mr = await api.MergeRequests.create(project.id, 'fix', 'main', 'Beaker fix', { labels: 'bug' });
    assert.equal(mr.iid, 1);
    assert.equal(mr.detailed_merge_status, 'unchecked');
    const edited = await api.MergeRequests.edit(project.id, mr.iid, { description: 'Fixes it' });
    assert.equal(edited.description, 'Fixes it');
    const opened = await api.MergeRequests.all({ projectId: project.id, state: 'opened', labels: 'bug' });
    assert.deepEqual(
      opened.map((item) => item.title),
      ['Beaker fix'],
    );
    const merged = await api.MergeRequests.merge(project.id, mr.iid, {
      mergeCommitMessage: 'Beaker merge',
      shouldRemoveSourceBranch: true,
    });
    assert.equal(merged.state, 'merged');
    assert.equal((merged.merged_by as { username: string }).username, 'root');
    const again = await refusal(api.MergeRequests.merge(project.id, mr.iid));
    assert.equal(again.status, 405);
  });

  it('raises 401 for a bad token and 404 for what is not there', async () => {
    const stranger = new Gitlab({ host: app.url, token: 'not-a-token' });
    assert.deepEqual(await refusal(stranger.Metadata.show()), {
      status: 401,
      description: '401 Unauthorized',
    });
    assert.equal((await refusal(api.Projects.show(999999))).status, 404);
    const gone = await refusal(api.Projects.remove(999999));
    assert.equal(gone.status, 404);
    assert.match(gone.description, /^404 (Project )?Not Found$/);
  });
});
