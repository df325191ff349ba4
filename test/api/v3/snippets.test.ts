// Project snippets over v3 (8.13's entity) and v4 (today's), personal snippets over v4, with notes and
// award emoji on a project snippet; visibility, the snippets feature, hidden projects and bad input.
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

describe('snippets', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let hidden: TestProject;

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'snipowner');
    reporter = await createUser(t, 'snipreporter');
    guest = await createUser(t, 'snipguest');
    outsider = await createUser(t, 'snipoutsider');
    project = await createProject(t, { owner, path: 'snips', visibility: 20 });
    hidden = await createProject(t, { owner, path: 'hiddensnips', visibility: 0 });
    await addProjectMember(t, project.id, reporter.id, 20);
    await addProjectMember(t, project.id, guest.id, 10);
  });
  after(() => t.close());

  const v3 = (path: string) => `/api/v3/projects/${project.id}/snippets${path}`;
  const v4 = (path: string) => `/api/v4/projects/${project.id}/snippets${path}`;

  it('v3: creates, shows in 8.13 shape, lists by visibility, edits, raw, deletes', async () => {
    const made = await t.request('POST', v3(''), {
      token: reporter.token,
      body: { title: 'Hello', file_name: 'hello.rb', code: 'puts 1', visibility_level: 0 },
    });
    assert.equal(made.status, 201, made.text);
    assert.deepEqual(Object.keys(made.body), [
      'id',
      'title',
      'file_name',
      'author',
      'updated_at',
      'created_at',
      'expires_at',
      'web_url',
    ]);
    assert.equal(made.body.author.username, 'snipreporter');
    assert.equal(made.body.expires_at, null);
    assert.match(made.body.web_url, new RegExp(`/snipowner/snips/snippets/${made.body.id}$`));
    const id = made.body.id;

    const pub = await t.request('POST', v3(''), {
      token: owner.token,
      body: { title: 'Pub', file_name: 'pub.py', code: 'print(1)', visibility_level: 20 },
    });
    assert.equal(pub.status, 201);

    const memberList = await t.request('GET', v3(''), { token: guest.token });
    assert.deepEqual(
      memberList.body.map((s: { id: number }) => s.id),
      [pub.body.id, id],
    );
    const outsiderList = await t.request('GET', v3(''), { token: outsider.token });
    assert.deepEqual(
      outsiderList.body.map((s: { id: number }) => s.id),
      [pub.body.id],
    );
    assert.equal((await t.request('GET', v3(`/${id}`), { token: outsider.token })).status, 404);
    assert.equal((await t.request('GET', v3(''))).status, 401);

    const raw = await t.request('GET', v3(`/${id}/raw`), { token: guest.token });
    assert.equal(raw.status, 200);
    assert.equal(raw.text, 'puts 1');
    assert.match(String(raw.headers['content-type']), /^text\/plain/);

    assert.equal(
      (await t.request('PUT', v3(`/${id}`), { token: guest.token, body: { title: 'X' } })).status,
      403,
    );
    const edited = await t.request('PUT', v3(`/${id}`), {
      token: reporter.token,
      body: { title: 'Renamed', code: 'puts 2' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.title, 'Renamed');
    assert.equal((await t.request('GET', v3(`/${id}/raw`), { token: guest.token })).text, 'puts 2');

    const refused = await t.request('DELETE', v3(`/${id}`), { token: guest.token });
    assert.equal(refused.status, 404);
    assert.deepEqual(refused.body, { message: '404 Snippet Not Found' });
    const gone = await t.request('DELETE', v3(`/${id}`), { token: reporter.token });
    assert.equal(gone.status, 200);
    assert.equal(gone.body.content, 'puts 2');
    assert.equal(gone.body.type, 'ProjectSnippet');
    assert.equal((await t.request('GET', v3(`/${id}`), { token: reporter.token })).status, 404);
  });

  it('v3: bad input is a 400 in 8.13 words; guests may not create; hidden projects are 404', async () => {
    const missing = await t.request('POST', v3(''), {
      token: reporter.token,
      body: { title: 'T', file_name: 'a.rb', visibility_level: 0 },
    });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "code" not given' });
    const badName = await t.request('POST', v3(''), {
      token: reporter.token,
      body: { title: 'T', file_name: 'a b/c', code: 'x', visibility_level: 7 },
    });
    assert.equal(badName.status, 400);
    assert.deepEqual(Object.keys(badName.body.message), ['file_name', 'visibility_level']);
    const byGuest = await t.request('POST', v3(''), {
      token: guest.token,
      body: { title: 'T', file_name: 'a.rb', code: 'x', visibility_level: 0 },
    });
    assert.equal(byGuest.status, 403);
    const hiddenList = await t.request('GET', `/api/v3/projects/${hidden.id}/snippets`, {
      token: outsider.token,
    });
    assert.equal(hiddenList.status, 404);
    assert.deepEqual(hiddenList.body, { message: '404 Project Not Found' });
  });

  it('the snippets feature off hides them (v3 404, v4 403)', async () => {
    const off = await createProject(t, { owner, path: 'nosnips', visibility: 20 });
    await t.request('PUT', `/api/v3/projects/${off.id}`, {
      token: owner.token,
      body: { name: 'nosnips', snippets_enabled: false },
    });
    assert.equal(
      (await t.request('GET', `/api/v3/projects/${off.id}/snippets`, { token: owner.token })).status,
      404,
    );
    assert.equal(
      (await t.request('GET', `/api/v4/projects/${off.id}/snippets`, { token: owner.token })).status,
      403,
    );
  });

  it('v4: project snippets in v4 shape, content or code, 204 delete, 400s', async () => {
    const made = await t.request('POST', v4(''), {
      token: reporter.token,
      body: {
        title: 'V4',
        file_name: 'v4.ts',
        content: 'const a = 1;',
        visibility: 'internal',
        description: 'd',
      },
    });
    assert.equal(made.status, 201, made.text);
    for (const key of [
      'id',
      'title',
      'file_name',
      'description',
      'visibility',
      'author',
      'updated_at',
      'created_at',
      'project_id',
      'web_url',
    ]) {
      assert.ok(key in made.body, key);
    }
    assert.equal(made.body.visibility, 'internal');
    assert.equal(made.body.project_id, project.id);
    const viaCode = await t.request('POST', v4(''), {
      token: reporter.token,
      body: { title: 'C', file_name: 'c.ts', code: 'x', visibility: 'private' },
    });
    assert.equal(viaCode.status, 201);
    const badVisibility = await t.request('POST', v4(''), {
      token: reporter.token,
      body: { title: 'C', file_name: 'c.ts', content: 'x', visibility: 'secret' },
    });
    assert.equal(badVisibility.status, 400);
    assert.deepEqual(badVisibility.body, { error: 'visibility does not have a valid value' });
    const missing = await t.request('POST', v4(''), { token: reporter.token, body: { title: 'C' } });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error, /visibility is missing/);
    const empty = await t.request('PUT', v4(`/${made.body.id}`), { token: reporter.token, body: {} });
    assert.equal(empty.status, 400);

    // Anonymous callers read an internal snippet of a public project not at all; signed-in ones do.
    assert.equal((await t.request('GET', v4(`/${made.body.id}`))).status, 404);
    assert.equal((await t.request('GET', v4(`/${made.body.id}`), { token: outsider.token })).status, 200);
    // Masters edit others' snippets in v4.
    const edited = await t.request('PUT', v4(`/${made.body.id}`), {
      token: owner.token,
      body: { visibility: 'public' },
    });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.visibility, 'public');
    const raw = await t.request('GET', v4(`/${made.body.id}/raw`));
    assert.equal(raw.text, 'const a = 1;');
    assert.equal((await t.request('DELETE', v4(`/${made.body.id}`), { token: outsider.token })).status, 403);
    const gone = await t.request('DELETE', v4(`/${made.body.id}`), { token: reporter.token });
    assert.equal(gone.status, 204);
  });

  it('notes and award emoji on a project snippet (v3 and v4)', async () => {
    const made = await t.request('POST', v3(''), {
      token: owner.token,
      body: { title: 'Talk', file_name: 't.md', code: '# t', visibility_level: 0 },
    });
    const id = made.body.id;
    const note = await t.request('POST', v3(`/${id}/notes`), { token: guest.token, body: { body: 'Nice' } });
    assert.equal(note.status, 201, note.text);
    assert.equal(note.body.body, 'Nice');
    const list = await t.request('GET', v3(`/${id}/notes`), { token: reporter.token });
    assert.deepEqual(
      list.body.map((n: { body: string }) => n.body),
      ['Nice'],
    );
    const v4notes = await t.request('GET', v4(`/${id}/notes`), { token: reporter.token });
    assert.equal(v4notes.status, 200);
    assert.equal(v4notes.body[0].noteable_type, 'Snippet');
    const hiddenNotes = await t.request('GET', v3(`/${id}/notes`), { token: outsider.token });
    assert.equal(hiddenNotes.status, 404);

    const award = await t.request('POST', v3(`/${id}/award_emoji`), {
      token: guest.token,
      body: { name: 'tada' },
    });
    assert.equal(award.status, 201, award.text);
    assert.equal(award.body.awardable_type, 'Snippet');
    const awards = await t.request('GET', v4(`/${id}/award_emoji`), { token: owner.token });
    assert.deepEqual(
      awards.body.map((a: { name: string }) => a.name),
      ['tada'],
    );
    assert.equal((await t.request('DELETE', v3(`/${id}`), { token: owner.token })).status, 200);
    assert.equal((await t.request('GET', v3(`/${id}/notes`), { token: owner.token })).status, 404);
  });

  it('v4 personal snippets: mine, public, one, raw, edit by the author only, delete', async () => {
    const mine = await t.request('POST', '/api/v4/snippets', {
      token: outsider.token,
      body: { title: 'Mine', file_name: 'm.sh', content: 'echo hi', visibility: 'private' },
    });
    assert.equal(mine.status, 201, mine.text);
    assert.equal(mine.body.project_id, null);
    assert.match(mine.body.web_url, new RegExp(`/snippets/${mine.body.id}$`));
    const pub = await t.request('POST', '/api/v4/snippets', {
      token: outsider.token,
      body: { title: 'Pub', file_name: 'p.sh', content: 'echo pub', visibility: 'public' },
    });
    const list = await t.request('GET', '/api/v4/snippets', { token: outsider.token });
    assert.deepEqual(
      list.body.map((s: { id: number }) => s.id),
      [pub.body.id, mine.body.id],
    );
    assert.deepEqual((await t.request('GET', '/api/v4/snippets', { token: owner.token })).body, []);
    const publicList = await t.request('GET', '/api/v4/snippets/public', { token: owner.token });
    assert.deepEqual(
      publicList.body.map((s: { id: number }) => s.id),
      [pub.body.id],
    );
    assert.equal(
      (await t.request('GET', `/api/v4/snippets/${mine.body.id}`, { token: owner.token })).status,
      404,
    );
    assert.equal((await t.request('GET', `/api/v4/snippets/${pub.body.id}/raw`)).text, 'echo pub');
    assert.equal(
      (
        await t.request('PUT', `/api/v4/snippets/${pub.body.id}`, {
          token: owner.token,
          body: { title: 'x' },
        })
      ).status,
      403,
    );
    const edited = await t.request('PUT', `/api/v4/snippets/${mine.body.id}`, {
      token: outsider.token,
      body: { content: 'echo changed' },
    });
    assert.equal(edited.status, 200);
    assert.equal(
      (await t.request('GET', `/api/v4/snippets/${mine.body.id}/raw`, { token: outsider.token })).text,
      'echo changed',
    );
    assert.equal(
      (await t.request('DELETE', `/api/v4/snippets/${mine.body.id}`, { token: outsider.token })).status,
      204,
    );
    assert.equal((await t.request('GET', '/api/v4/snippets/public')).status, 401);
  });

  it('v4 /snippets/all: every snippet, project and personal, newest first, for administrators only', async () => {
    const personal = await t.request('POST', '/api/v4/snippets', {
      token: owner.token,
      body: { title: 'all-personal', content: 'p', visibility: 'private' },
    });
    const inProject = await t.request('POST', `/api/v4/projects/${hidden.id}/snippets`, {
      token: owner.token,
      body: { title: 'all-project', file_name: 'x.txt', content: 'x', visibility: 'private' },
    });
    assert.equal(inProject.status, 201, inProject.text);
    const all = await t.request('GET', '/api/v4/snippets/all?per_page=2', { token: t.rootToken });
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.map((s: { id: number }) => s.id),
      [inProject.body.id, personal.body.id],
    );
    assert.equal(all.body[0].project_id, hidden.id);
    assert.match(all.body[0].web_url, new RegExp(`/${hidden.fullPath}/snippets/${inProject.body.id}$`));
    assert.match(all.body[1].web_url, new RegExp(`/snippets/${personal.body.id}$`));
    assert.ok(Number(all.headers['x-total']) >= 2);
    assert.equal((await t.request('GET', '/api/v4/snippets/all', { token: owner.token })).status, 403);
    assert.equal((await t.request('GET', '/api/v4/snippets/all')).status, 401);
  });
});
