// v4's topics: the public list (search, pages) and one topic, administrators' create (201), edit, delete
// (204) and merge; projects' `topics` (and `tag_list`) through v4's create and edit, shown in the
// Project entity, found by GET /projects?topic=; the refusals.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createUser, type TestUser } from '../../helpers/factory.ts';

const FIELDS = [
  'id',
  'name',
  'title',
  'description',
  'total_projects_count',
  'organization_id',
  'avatar_url',
];

describe('API v4 topics', () => {
  let t: TestApp;
  let user: TestUser;

  before(async () => {
    t = await startTestApp();
    user = await createUser(t, 'topical');
  });
  after(() => t.close());

  const topicNamed = async (name: string) => {
    const listed = await t.request('GET', `/api/v4/topics?search=${encodeURIComponent(name)}`);
    return listed.body.find((topic: { name: string }) => topic.name === name);
  };

  it('creates topics as an administrator (201); others 403, a taken name or a missing title 400', async () => {
    const made = await t.request('POST', '/api/v4/topics', {
      token: t.rootToken,
      body: { name: 'gitlab', title: 'GitLab', description: 'All of it' },
    });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(Object.keys(made.body), FIELDS);
    assert.deepEqual(
      { ...made.body, id: 0 },
      {
        id: 0,
        name: 'gitlab',
        title: 'GitLab',
        description: 'All of it',
        total_projects_count: 0,
        organization_id: 1,
        avatar_url: null,
      },
    );
    const taken = await t.request('POST', '/api/v4/topics', {
      token: t.rootToken,
      body: { name: 'GitLab', title: 'again' },
    });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body, { message: { name: ['has already been taken'] } });
    const untitled = await t.request('POST', '/api/v4/topics', { token: t.rootToken, body: { name: 'x' } });
    assert.deepEqual(untitled.body, { error: 'title is missing' });
    const refused = await t.request('POST', '/api/v4/topics', {
      token: user.token,
      body: { name: 'y', title: 'y' },
    });
    assert.equal(refused.status, 403);
    const shown = await t.request('GET', `/api/v4/topics/${made.body.id}`);
    assert.equal(shown.body.title, 'GitLab');
    assert.equal((await t.request('GET', '/api/v4/topics/999999')).status, 404);
  });

  it('sets a project topics on v4 create and edit (making new ones); the entity shows them', async () => {
    const created = await t.request('POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'tagged', topics: ['GitLab', 'ruby'], visibility: 'public' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.topics, ['gitlab', 'ruby']);
    assert.deepEqual(created.body.tag_list, ['gitlab', 'ruby']);
    const ruby = await topicNamed('ruby');
    assert.equal(ruby.title, 'ruby');
    assert.equal(ruby.total_projects_count, 1);

    const edited = await t.request('PUT', `/api/v4/projects/${created.body.id}?tag_list=go,%20ruby,go`, {
      token: user.token,
    });
    assert.equal(edited.status, 200, edited.text);
    assert.deepEqual(edited.body.topics, ['go', 'ruby']);
    const shown = await t.request('GET', `/api/v4/projects/${created.body.id}`);
    assert.deepEqual(shown.body.topics, ['go', 'ruby']);
    assert.equal((await topicNamed('gitlab')).total_projects_count, 0);

    const other = await t.request('POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'also-go', topics: 'go', visibility: 'public' },
    });
    assert.deepEqual(other.body.topics, ['go']);
    const hidden = await t.request('POST', '/api/v4/projects', {
      token: user.token,
      body: { name: 'secret-go', topics: ['go', 'ruby'] },
    });
    assert.equal(hidden.body.visibility, 'private');

    const byTopic = await t.request('GET', '/api/v4/projects?topic=go&order_by=id&sort=asc');
    assert.deepEqual(
      byTopic.body.map((p: { path: string }) => p.path),
      ['tagged', 'also-go'],
    );
    assert.equal(byTopic.headers['x-total'], '2');
    const both = await t.request('GET', '/api/v4/projects?topic=GO,ruby&order_by=id&sort=asc', {
      token: user.token,
    });
    assert.deepEqual(
      both.body.map((p: { path: string }) => p.path),
      ['tagged', 'secret-go'],
    );
    const none = await t.request('GET', '/api/v4/projects?topic=nothing-has-this');
    assert.deepEqual(none.body, []);
    const tooMany = await t.request('GET', '/api/v4/projects?topic=a,b,c,d,e,f');
    assert.equal(tooMany.status, 400);

    const cleared = await t.request('PUT', `/api/v4/projects/${other.body.id}`, {
      token: user.token,
      body: { topics: [] },
    });
    assert.deepEqual(cleared.body.topics, []);
  });

  it('lists topics publicly with search and pages', async () => {
    const all = await t.request('GET', '/api/v4/topics?per_page=2');
    assert.equal(all.status, 200);
    assert.equal(all.headers['x-total'], '3');
    assert.equal(all.body.length, 2);
    const searched = await t.request('GET', '/api/v4/topics?search=RUB');
    assert.deepEqual(
      searched.body.map((topic: { name: string }) => topic.name),
      ['ruby'],
    );
    const byTitle = await t.request('GET', '/api/v4/topics?search=gitl');
    assert.deepEqual(
      byTitle.body.map((topic: { name: string }) => topic.name),
      ['gitlab'],
    );
  });

  it('edits, merges and deletes topics; the projects follow', async () => {
    const ruby = await topicNamed('ruby');
    const go = await topicNamed('go');
    const renamed = await t.request('PUT', `/api/v4/topics/${ruby.id}`, {
      token: t.rootToken,
      body: { name: 'Ruby', description: 'gems' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Ruby');
    const tagged = await t.request('GET', '/api/v4/projects?search=tagged');
    assert.deepEqual(tagged.body[0].topics, ['go', 'Ruby']);

    const merged = await t.request('POST', '/api/v4/topics/merge', {
      token: t.rootToken,
      body: { source_topic_id: go.id, target_topic_id: ruby.id },
    });
    assert.equal(merged.status, 201, merged.text);
    assert.equal(merged.body.id, ruby.id);
    assert.equal(merged.body.total_projects_count, 2);
    assert.equal((await t.request('GET', `/api/v4/topics/${go.id}`)).status, 404);
    const after = await t.request('GET', '/api/v4/projects?search=tagged');
    assert.deepEqual(after.body[0].topics, ['Ruby']);
    const same = await t.request('POST', '/api/v4/topics/merge', {
      token: t.rootToken,
      body: { source_topic_id: ruby.id, target_topic_id: ruby.id },
    });
    assert.equal(same.status, 400);

    assert.equal((await t.request('DELETE', `/api/v4/topics/${ruby.id}`, { token: user.token })).status, 403);
    const deleted = await t.request('DELETE', `/api/v4/topics/${ruby.id}`, { token: t.rootToken });
    assert.equal(deleted.status, 204);
    const gone = await t.request('GET', '/api/v4/projects?search=tagged');
    assert.deepEqual(gone.body[0].topics, []);
    assert.equal(
      (await t.request('DELETE', `/api/v4/topics/${ruby.id}`, { token: t.rootToken })).status,
      404,
    );
  });
});
