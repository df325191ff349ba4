// @gitbeaker/rest 43 flows over a project's code and its issues, as its users write them: a comment on
// the commit a branch names (Commits.createComment takes a sha or a ref, as today's GitLab does), an
// author's vote on their own issue, and snippets made with `files` (the only shape gitbeaker 43 types).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Gitlab } from '@gitbeaker/rest';
import { refusal } from './gitbeaker-refusal.ts';
import { startClientApp, type ClientApp } from './client-app.ts';

describe('@gitbeaker/rest 43: code, issue and snippet flows', () => {
  let app: ClientApp;
  let api: InstanceType<typeof Gitlab>;
  let projectId: number;

  before(async () => {
    app = await startClientApp();
    api = new Gitlab({ host: app.url, token: app.t.rootToken });
    projectId = (await api.Projects.create({ name: 'beaker-flows' })).id;
    await api.RepositoryFiles.create(projectId, 'a.txt', 'main', 'a\n', 'First');
  });
  after(() => app.t.close());

  it('comments on the commit a branch names and lists it by sha', async () => {
    const head = await api.Commits.show(projectId, 'main');
    const comment = await api.Commits.createComment(projectId, 'main', 'Looks right');
    assert.equal(comment.note, 'Looks right');
    const listed = await api.Commits.allComments(projectId, head.id);
    assert.deepEqual(
      listed.map((item) => item.note),
      ['Looks right'],
    );
    assert.equal((await refusal(api.Commits.createComment(projectId, 'no-such-branch', 'x'))).status, 404);
  });

  it('lets an author vote on their own issue and refuses a second vote', async () => {
    const issue = await api.Issues.create(projectId, 'Vote on me');
    const award = await api.IssueAwardEmojis.award(projectId, issue.iid, 'thumbsup');
    assert.equal(award.name, 'thumbsup');
    assert.equal((await api.Issues.show(issue.iid, { projectId })).upvotes, 1);
    assert.equal((await refusal(api.IssueAwardEmojis.award(projectId, issue.iid, 'thumbsup'))).status, 404);
  });
  it('makes personal and project snippets from `files`, one file each', async () => {
    const personal = await api.Snippets.create('Personal', {
      files: [{ filePath: 'hello.rb', content: 'puts 1\n' }],
      visibility: 'private',
    });
    assert.equal(personal.file_name, 'hello.rb');
    assert.equal(await api.Snippets.showContent(personal.id), 'puts 1\n');
    const byFiles = await api.ProjectSnippets.create(projectId, 'By files', {
      files: [{ filePath: 'c.sh', content: 'echo c' }],
      visibility: 'private',
    });
    assert.deepEqual(
      (await api.ProjectSnippets.all(projectId)).map((snippet) => snippet.file_name),
      ['c.sh'],
    );
    assert.equal(byFiles.visibility, 'private');
    const two = await refusal(
      api.Snippets.create('Two', {
        files: [
          { filePath: 'a', content: 'a' },
          { filePath: 'b', content: 'b' },
        ],
        visibility: 'private',
      }),
    );
    assert.deepEqual(two, { status: 400, description: 'files holds 2 files: a snippet here holds one file' });
    const blank = await refusal(
      api.Snippets.create('Blank', { files: [{ filePath: '', content: 'x' }], visibility: 'private' }),
    );
    assert.deepEqual(blank, { status: 400, description: 'files[0][file_path] is empty' });
  });
});
