// v4's project issue boards over HTTP: the Board entity (name, hide flags, project as
// BasicProjectDetails, label lists with LabelBasic), paginated lists, create (201, Backlog and Done made
// with it and never shown), edit, delete (204; never the project's last board), list CRUD with
// label_id and position (204 on delete), and the refusals: 400 for a missing name or position and an
// unknown label, 403 for guests' writes, 404 for other projects' boards and hidden projects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addProjectMember,
  createProjectTeam,
  createUser,
  type ProjectTeam,
  type TestUser,
} from '../../helpers/factory.ts';

describe('API v4 boards', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let guest: TestUser;
  let base: string;
  let labelId: number;

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'boarded', {
      owner: 'vera',
      developer: 'vince',
      reporter: 'viola',
      stranger: 'victor',
    });
    guest = await createUser(t, 'vivian');
    await addProjectMember(t, team.project.id, guest.id, 10);
    base = `/api/v4/projects/${team.project.id}/boards`;
    const label = await call('POST', `/api/v4/projects/${team.project.id}/labels`, team.owner.token, {
      name: 'Doing',
      color: '#5CB85C',
      description: 'In *progress*',
    });
    labelId = label.body.id;
  });
  after(async () => t.close());

  it('creates, reads, edits and deletes boards and their lists', async () => {
    assert.deepEqual((await call('GET', base, guest.token)).body, []);
    const created = await call('POST', base, team.reporter.token, { name: 'Development' });
    assert.equal(created.status, 201, created.text);
    const { project, ...board } = created.body;
    assert.deepEqual(board, {
      id: board.id,
      name: 'Development',
      hide_backlog_list: false,
      hide_closed_list: false,
      lists: [],
    });
    assert.equal(project.id, team.project.id);
    assert.equal(project.path_with_namespace, `${team.owner.username}/boarded`);
    assert.equal(typeof project.web_url, 'string');
    assert.equal('permissions' in project, false);

    const lists = `${base}/${board.id}/lists`;
    const list = await call('POST', lists, team.developer.token, { label_id: labelId });
    assert.equal(list.status, 201, list.text);
    assert.deepEqual(list.body, {
      id: list.body.id,
      label: {
        id: labelId,
        name: 'Doing',
        color: '#5CB85C',
        description: 'In *progress*',
        description_html: '<p>In <em>progress</em></p>',
        text_color: '#FFFFFF',
        remove_on_close: false,
      },
      position: 0,
    });
    const page = await call('GET', `${lists}?per_page=1`, guest.token);
    assert.equal(page.status, 200);
    assert.equal(page.headers['x-total'], '1');
    assert.deepEqual(page.body, [list.body]);
    assert.deepEqual((await call('GET', `${lists}/${list.body.id}`, guest.token)).body, list.body);

    const edited = await call('PUT', `${base}/${board.id}`, team.reporter.token, {
      name: 'Plan',
      hide_closed_list: true,
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.name, 'Plan');
    assert.equal(edited.body.hide_closed_list, true);
    assert.equal(edited.body.hide_backlog_list, false);
    assert.deepEqual(edited.body.lists, [list.body]);
    const one = await call('GET', `${base}/${board.id}`, team.reporter.token);
    assert.deepEqual(one.body, edited.body);
    const all = await call('GET', base, team.reporter.token);
    assert.deepEqual(all.body, [edited.body]);
    // A guest reads the board too, its project without what guests may not see.
    const seen = await call('GET', `${base}/${board.id}`, guest.token);
    assert.equal(seen.body.name, 'Plan');
    assert.equal('default_branch' in seen.body.project, false);
    assert.equal(all.headers['x-total'], '1');

    const onlyOne = await call('DELETE', `${base}/${board.id}`, team.owner.token);
    assert.equal(onlyOne.status, 400, onlyOne.text);
    assert.deepEqual(onlyOne.body, {
      message: "The board could not be deleted, because the parent doesn't have any other boards.",
    });
    const second = await call('POST', base, team.owner.token, { name: 'Second' });
    assert.equal(second.status, 201);
    const removed = await call('DELETE', `${lists}/${list.body.id}`, team.owner.token);
    assert.equal(removed.status, 204);
    assert.equal(removed.text, '');
    const deleted = await call('DELETE', `${base}/${second.body.id}`, team.owner.token);
    assert.equal(deleted.status, 204);
    assert.deepEqual(
      (await call('GET', base, guest.token)).body.map((b: { name: string }) => b.name),
      ['Plan'],
    );
  });

  it('refuses bad input, guests and strangers', async () => {
    const [board] = (await call('GET', base, team.owner.token)).body;
    const lists = `${base}/${board.id}/lists`;
    const noName = await call('POST', base, team.owner.token, {});
    assert.deepEqual([noName.status, noName.body], [400, { error: 'name is missing' }]);
    const unknown = await call('POST', lists, team.owner.token, { label_id: 424242 });
    assert.deepEqual([unknown.status, unknown.body], [400, { message: { error: 'Label not found!' } }]);
    const list = await call('POST', lists, team.owner.token, { label_id: labelId });
    assert.equal(list.status, 201);
    const noPosition = await call('PUT', `${lists}/${list.body.id}`, team.owner.token, {});
    assert.deepEqual([noPosition.status, noPosition.body], [400, { error: 'position is missing' }]);
    const samePlace = await call('PUT', `${lists}/${list.body.id}`, team.owner.token, { position: 0 });
    assert.deepEqual(
      [samePlace.status, samePlace.body],
      [400, { message: { error: 'List could not be moved!' } }],
    );
    const badId = await call('GET', `${base}/abc/lists`, team.owner.token);
    assert.deepEqual([badId.status, badId.body], [400, { error: 'board_id is invalid' }]);

    for (const [method, url, body] of [
      ['POST', base, { name: 'Mine' }],
      ['PUT', `${base}/${board.id}`, { name: 'Mine' }],
      ['DELETE', `${base}/${board.id}`, undefined],
      ['POST', lists, { label_id: labelId }],
      ['DELETE', `${lists}/${list.body.id}`, undefined],
    ] as const) {
      const refused = await call(method, url, guest.token, body);
      assert.equal(refused.status, 403, `${method} ${url}: ${refused.text}`);
    }
    assert.equal((await call('GET', `${lists}/${list.body.id}`, guest.token)).status, 200);

    const other = await createProjectTeam(t, 'elsewhere', {
      owner: 'wanda',
      developer: 'walt',
      reporter: 'wes',
      stranger: 'wil',
    });
    const theirs = await call('POST', `/api/v4/projects/${other.project.id}/boards`, other.owner.token, {
      name: 'Theirs',
    });
    const crossed = await call('GET', `${base}/${theirs.body.id}`, team.owner.token);
    assert.deepEqual([crossed.status, crossed.body], [404, { message: '404 Board Not Found' }]);
    const hidden = await call('GET', base, team.stranger.token);
    assert.deepEqual([hidden.status, hidden.body], [404, { message: '404 Project Not Found' }]);
    assert.equal((await call('POST', base, team.stranger.token, { name: 'x' })).status, 404);
  });
});
