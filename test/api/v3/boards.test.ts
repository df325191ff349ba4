// v3's issue boards (8.13's lib/api/boards.rb) over HTTP: no board until the board page is first
// visited, then one with Backlog and Done (never shown); label lists added at the next position, read,
// moved and deleted with the positions closed up; guests read but may not change lists; bad labels,
// bad positions and other boards' lists answer 8.13's errors; a hidden project is 404. And the board
// page's move (the card's form) changes labels and state with 8.13's system notes.
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
import { signedInClient } from '../../helpers/web.ts';

describe('API v3 boards', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let guest: TestUser;
  let base: string;
  let boardId: number;
  const labels: Record<string, number> = {};

  const call = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'planned', {
      owner: 'bella',
      developer: 'bruno',
      reporter: 'bianca',
      stranger: 'boris',
    });
    guest = await createUser(t, 'gustav');
    await addProjectMember(t, team.project.id, guest.id, 10);
    base = `/api/v3/projects/${team.project.id}`;
    for (const [name, color] of [
      ['To Do', '#F0AD4E'],
      ['Doing', '#5CB85C'],
      ['Review', '#428BCA'],
    ]) {
      const label = await call('POST', `${base}/labels`, team.owner.token, { name, color });
      assert.equal(label.status, 201, label.text);
    }
    const list = await call('GET', `/api/v4/projects/${team.project.id}/labels`, team.owner.token);
    for (const label of list.body) labels[label.name] = label.id;
  });
  after(async () => t.close());

  it('has no board until the board page is visited, then one without Backlog and Done', async () => {
    const before = await call('GET', `${base}/boards`, team.developer.token);
    assert.equal(before.status, 200, before.text);
    assert.deepEqual(before.body, []);

    const web = await signedInClient(t, team.owner);
    const page = await web.get(`/${team.owner.username}/planned/boards`);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<h2 id="list-\d+">Backlog/);
    assert.match(page.text, /<h2 id="list-\d+">Done/);

    const boards = await call('GET', `${base}/boards`, guest.token);
    assert.equal(boards.status, 200, boards.text);
    assert.equal(boards.body.length, 1);
    assert.deepEqual(boards.body[0], { id: boards.body[0].id, lists: [] });
    boardId = boards.body[0].id;
    // A second visit keeps the one board.
    await web.get(`/${team.owner.username}/planned/boards`);
    assert.equal((await call('GET', `${base}/boards`, guest.token)).body.length, 1);
  });

  it('adds, reads, moves and deletes label lists', async () => {
    const lists = `${base}/boards/${boardId}/lists`;
    const todo = await call('POST', lists, team.reporter.token, { label_id: labels['To Do'] });
    assert.equal(todo.status, 201, todo.text);
    assert.deepEqual(todo.body, {
      id: todo.body.id,
      label: { name: 'To Do', color: '#F0AD4E', description: null },
      position: 0,
    });
    const doing = await call('POST', lists, team.developer.token, { label_id: labels.Doing });
    const review = await call('POST', lists, team.owner.token, { label_id: String(labels.Review) });
    assert.equal(doing.body.position, 1);
    assert.equal(review.body.position, 2);

    const all = await call('GET', lists, guest.token);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.map((list: { label: { name: string }; position: number }) => [list.label.name, list.position]),
      [
        ['To Do', 0],
        ['Doing', 1],
        ['Review', 2],
      ],
    );
    const one = await call('GET', `${lists}/${doing.body.id}`, guest.token);
    assert.deepEqual(one.body, doing.body);
    const boards = await call('GET', `${base}/boards`, guest.token);
    assert.deepEqual(boards.body[0].lists, all.body);

    const moved = await call('PUT', `${lists}/${review.body.id}`, team.reporter.token, { position: 0 });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.position, 0);
    const order = await call('GET', lists, guest.token);
    assert.deepEqual(
      order.body.map((list: { label: { name: string }; position: number }) => [
        list.label.name,
        list.position,
      ]),
      [
        ['Review', 0],
        ['To Do', 1],
        ['Doing', 2],
      ],
    );
    for (const position of [0, 3, -1]) {
      const refused = await call('PUT', `${lists}/${review.body.id}`, team.reporter.token, { position });
      assert.equal(refused.status, 400, `${position}: ${refused.text}`);
      assert.deepEqual(refused.body, { message: { error: 'List could not be moved!' } });
    }
    const missingPosition = await call('PUT', `${lists}/${review.body.id}`, team.reporter.token, {});
    assert.equal(missingPosition.status, 400);
    assert.deepEqual(missingPosition.body, { error: 'position is missing' });

    const deleted = await call('DELETE', `${lists}/${review.body.id}`, team.owner.token);
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(deleted.body, {
      id: review.body.id,
      label: { name: 'Review', color: '#428BCA', description: null },
      position: 0,
    });
    const after = await call('GET', lists, guest.token);
    assert.deepEqual(
      after.body.map((list: { label: { name: string }; position: number }) => [
        list.label.name,
        list.position,
      ]),
      [
        ['To Do', 0],
        ['Doing', 1],
      ],
    );
    const gone = await call('GET', `${lists}/${review.body.id}`, guest.token);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, { message: '404 Not found' });
  });

  it('answers 8.13 errors for bad labels, other boards, guests and hidden projects', async () => {
    const lists = `${base}/boards/${boardId}/lists`;
    const unknown = await call('POST', lists, team.owner.token, { label_id: 999_999 });
    assert.equal(unknown.status, 400, unknown.text);
    assert.deepEqual(unknown.body, { message: { error: 'Label not found!' } });
    const twice = await call('POST', lists, team.owner.token, { label_id: labels['To Do'] });
    assert.equal(twice.status, 400, twice.text);
    assert.deepEqual(twice.body, { message: { label_id: ['has already been taken'] } });
    const missing = await call('POST', lists, team.owner.token, {});
    assert.deepEqual([missing.status, missing.body], [400, { error: 'label_id is missing' }]);
    const invalid = await call('POST', lists, team.owner.token, { label_id: 'doing' });
    assert.deepEqual([invalid.status, invalid.body], [400, { error: 'label_id is invalid' }]);

    const guestAdd = await call('POST', lists, guest.token, { label_id: labels.Review });
    assert.equal(guestAdd.status, 403, guestAdd.text);
    const current = await call('GET', lists, guest.token);
    const guestMove = await call('PUT', `${lists}/${current.body[0].id}`, guest.token, { position: 1 });
    assert.equal(guestMove.status, 403);
    const guestDelete = await call('DELETE', `${lists}/${current.body[0].id}`, guest.token);
    assert.equal(guestDelete.status, 403);

    const otherBoard = await call('GET', `${base}/boards/${boardId + 1000}/lists`, team.owner.token);
    assert.equal(otherBoard.status, 404);
    assert.deepEqual(otherBoard.body, { message: '404 Board Not Found' });
    const hidden = await call('GET', `${base}/boards`, team.stranger.token);
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
    const hiddenLists = await call('GET', lists, team.stranger.token);
    assert.equal(hiddenLists.status, 404);
    const anonymous = await t.request('GET', `${base}/boards`);
    assert.equal(anonymous.status, 401);
  });

  it('moves an issue between lists by the card form: labels, close, reopen and system notes', async () => {
    const lists = (await call('GET', `${base}/boards/${boardId}/lists`, guest.token)).body as Array<{
      id: number;
      label: { name: string };
    }>;
    const todo = lists.find((list) => list.label.name === 'To Do')!.id;
    const doing = lists.find((list) => list.label.name === 'Doing')!.id;
    const issue = await call('POST', `${base}/issues`, team.developer.token, {
      title: 'Write the board',
      labels: 'To Do,backend',
    });
    assert.equal(issue.status, 201, issue.text);
    const web = await signedInClient(t, team.reporter);
    const page = await web.get(`/${team.owner.username}/planned/boards/${boardId}`);
    assert.equal(page.status, 200);
    const column = (text: string, id: number) =>
      text.split(`data-list-id="${id}"`)[1]!.split('</section>')[0]!;
    assert.match(column(page.text, todo), /Write the board/);
    const ids = [...page.text.matchAll(/data-list-id="(\d+)"/g)].map((match) => Number(match[1]));
    const [backlog, done] = [ids[0]!, ids[ids.length - 1]!];

    const move = (from: number, to: number) =>
      web.post(`/${team.owner.username}/planned/boards/${boardId}/issues/${issue.body.iid}`, {
        from_list_id: String(from),
        to_list_id: String(to),
      });
    const moved = await move(todo, doing);
    assert.equal(moved.status, 302, moved.text);
    assert.equal(moved.headers.location, `/${team.owner.username}/planned/boards/${boardId}`);
    const read = () => call('GET', `${base}/issues/${issue.body.id}`, team.owner.token);
    assert.deepEqual((await read()).body.labels, ['Doing', 'backend']);

    assert.equal((await move(doing, done)).status, 302);
    let now = (await read()).body;
    assert.equal(now.state, 'closed');
    assert.deepEqual(now.labels, ['backend']);
    const board = await web.get(`/${team.owner.username}/planned/boards/${boardId}`);
    assert.match(column(board.text, done), /Write the board/);
    assert.doesNotMatch(column(board.text, doing), /Write the board/);

    assert.equal((await move(done, todo)).status, 302);
    now = (await read()).body;
    assert.equal(now.state, 'reopened');
    assert.deepEqual(now.labels, ['To Do', 'backend']);

    assert.equal((await move(todo, backlog)).status, 302);
    assert.deepEqual((await read()).body.labels, ['backend']);

    const notes = await call('GET', `${base}/issues/${issue.body.id}/notes`, team.owner.token);
    const system = (notes.body as Array<{ body: string; system: boolean; author: { username: string } }>)
      .filter((note) => note.system)
      .map((note) => [note.author.username, note.body]);
    const id = (name: string) => `~${labels[name]}`;
    assert.deepEqual(system, [
      ['bianca', `Added ${id('Doing')} and removed ${id('To Do')} labels`],
      ['bianca', 'Status changed to closed'],
      ['bianca', `Removed ${id('Doing')} label`],
      ['bianca', 'Status changed to reopened'],
      ['bianca', `Added ${id('To Do')} label`],
      ['bianca', `Removed ${id('To Do')} label`],
    ]);

    // The same list twice, a list of no board, a guest: nothing moves.
    assert.equal((await move(backlog, backlog)).status, 422);
    assert.equal((await move(backlog, 999_999)).status, 422);
    const guestWeb = await signedInClient(t, guest);
    await guestWeb.get(`/${team.owner.username}/planned/boards/${boardId}`);
    const refused = await guestWeb.post(
      `/${team.owner.username}/planned/boards/${boardId}/issues/${issue.body.iid}`,
      { from_list_id: String(backlog), to_list_id: String(doing) },
    );
    assert.equal(refused.status, 422);
    assert.deepEqual((await read()).body.labels, ['backend']);
    const strangerWeb = await signedInClient(t, team.stranger);
    const hidden = await strangerWeb.get(`/${team.owner.username}/planned/boards`);
    assert.equal(hidden.status, 404);
  });
});
