// GitLab Flavored Markdown references on the issue, merge request and milestone pages (issue 37): each
// kind rendered as a link to what it names with its title (a label as its coloured chip), left as text
// where the reader may not see the target or inside code; cross-reference notes on what a description,
// a comment or a pushed commit mentions, once per pair; mention todos through the v3 and v4 todos API;
// task boxes ticked through the page (with the stale-version guard); and the page's statement count not
// growing with its notes or references.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  commitFile,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('pages: Markdown references, mentions and tasks', () => {
  let t: TestApp;
  let owner: TestUser;
  let alice: TestUser;
  let outsider: TestUser;
  let project: TestProject;
  let secret: TestProject;
  let groupId = 0;
  let sha = '';
  let sha2 = '';
  const client = new GitClient();

  const api = async (method: string, url: string, user: TestUser, body?: Record<string, unknown>) => {
    const response = await t.request(method, url, { token: user.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Record<string, any>;
  };
  const newIssue = (target: TestProject, user: TestUser, fields: Record<string, unknown>) =>
    api('POST', `/api/v3/projects/${target.id}/issues`, user, fields);
  const notesOf = async (target: TestProject, kind: 'issues' | 'merge_requests', id: number) =>
    (await api(
      'GET',
      `/api/v3/projects/${target.id}/${kind}/${id}/notes?per_page=100`,
      owner,
    )) as unknown as Array<{
      body: string;
      system: boolean;
    }>;

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    owner = await createUser(t, 'owen');
    alice = await createUser(t, 'alice');
    outsider = await createUser(t, 'outsider');
    groupId = await createGroup(t, 'crew');
    await addGroupMember(t, groupId, alice.id, 30);
    project = await createProject(t, { owner, path: 'app', visibility: 20, commit: true });
    await addProjectMember(t, project.id, alice.id, 30);
    secret = await createProject(t, { owner, path: 'secret', visibility: 0 });
    sha = (await client.ok(['rev-parse', 'HEAD'], project.repoPath)).trim();
    sha2 = await commitFile(project.repoPath, 'b.txt', 'b\n');
  });
  after(async () => {
    t.server.deps.db.onQuery = undefined;
    await t?.close();
    client.close();
  });

  it('links each kind of reference to what it names, with its title; code and hidden targets stay text', async () => {
    const target = await newIssue(project, owner, { title: 'Crash <on> start' });
    const hidden = await newIssue(project, owner, { title: 'Embargoed', confidential: true });
    const elsewhere = await newIssue(secret, owner, { title: 'Private work' });
    // v4's label entity carries the id (v3's had none).
    const label = await api('POST', `/api/v4/projects/${project.id}/labels`, owner, {
      name: 'two words',
      color: '#aa3300',
    });
    await api('POST', `/api/v3/projects/${project.id}/labels`, owner, { name: 'bug', color: '#ff0000' });
    const milestone = await api('POST', `/api/v3/projects/${project.id}/milestones`, owner, {
      title: 'v1.0',
    });
    await api('POST', `/api/v3/projects/${project.id}/milestones`, owner, { title: 'next big' });
    await api('POST', `/api/v3/projects/${project.id}/repository/branches`, owner, {
      branch_name: 'feature',
      ref: sha2,
    });
    const mr = await api('POST', `/api/v3/projects/${project.id}/merge_requests`, owner, {
      title: 'Add b',
      source_branch: 'feature',
      target_branch: 'master',
    });
    const text = [
      `Issue #${target.iid}, hidden #${hidden.iid}, MR !${mr.iid}, @alice, @crew, @nobody.`,
      `Labels ~bug, ~"two words", ~${label.id}; milestones %v1.0, %"next big", %${milestone.iid}.`,
      `Commit ${sha.slice(0, 10)}, range ${sha.slice(0, 8)}...${sha2.slice(0, 8)}.`,
      `Cross ${secret.fullPath}#${elsewhere.iid}, ${project.fullPath}!${mr.iid}, ${project.fullPath}@${sha2.slice(0, 12)}.`,
      `In code: \`#${target.iid}\` and [a link #${target.iid}](https://example.com/x).`,
    ].join('\n\n');
    const issue = await newIssue(project, owner, { title: 'Refs', description: text });
    const p = `/${project.fullPath}`;

    const forOwner = (await signedInClient(t, owner).then((web) => web.get(`${p}/issues/${issue.iid}`))).text;
    const link = (href: string, kind: string, inner: string, title?: string) =>
      new RegExp(
        `<a href="${href.replace(/[[\]?.]/g, '\\$&')}"${title === undefined ? '(?: title="[^"]*")?' : ` title="${title}"`} class="gfm has-tooltip gfm-${kind}" data-reference-type="[a-z_]+">${inner}</a>`,
      );
    assert.match(
      forOwner,
      link(`${p}/issues/${target.iid}`, 'issue', `#${target.iid}`, 'Crash &lt;on&gt; start'),
    );
    assert.match(forOwner, link(`${p}/issues/${hidden.iid}`, 'issue', `#${hidden.iid}`, 'Embargoed'));
    assert.match(forOwner, link(`${p}/merge_requests/${mr.iid}`, 'merge_request', `!${mr.iid}`, 'Add b'));
    assert.match(forOwner, link('/alice', 'project_member', '@alice', 'alice Name'));
    assert.match(forOwner, link('/groups/crew', 'project_member', '@crew', 'Group crew'));
    assert.match(forOwner, /@nobody\./);
    for (const [name, color] of [
      ['bug', '#ff0000'],
      ['two words', '#aa3300'],
    ]) {
      assert.match(
        forOwner,
        new RegExp(
          `<a href="${p}/issues\\?label_name\\[\\]=${encodeURIComponent(name)}"[^>]*class="gfm has-tooltip gfm-label"[^>]*><span class="label color-label"><svg[^>]*><rect[^>]*fill="${color}"/></svg>${name}</span></a>`,
        ),
      );
    }
    // `~<id>` names the label by id: the chip of "two words" twice.
    assert.equal(forOwner.match(/fill="#aa3300"/g)?.length, 2);
    assert.match(forOwner, link(`${p}/milestones/${milestone.iid}`, 'milestone', 'v1.0', 'v1.0'));
    assert.equal(forOwner.match(/class="gfm has-tooltip gfm-milestone"/g)?.length, 3);
    assert.match(forOwner, link(`${p}/commit/${sha}`, 'commit', sha.slice(0, 8), 'Initial'));
    assert.match(
      forOwner,
      link(`${p}/compare/${sha}...${sha2}`, 'commit_range', `${sha.slice(0, 8)}...${sha2.slice(0, 8)}`),
    );
    assert.match(
      forOwner,
      link(
        `/${secret.fullPath}/issues/${elsewhere.iid}`,
        'issue',
        `${secret.fullPath}#${elsewhere.iid}`,
        'Private work',
      ),
    );
    assert.match(
      forOwner,
      link(`${p}/merge_requests/${mr.iid}`, 'merge_request', `${project.fullPath}!${mr.iid}`),
    );
    assert.match(forOwner, link(`${p}/commit/${sha2}`, 'commit', sha2.slice(0, 8)));
    assert.match(forOwner, new RegExp(`<code>#${target.iid}</code>`));
    assert.match(
      forOwner,
      new RegExp(
        `<a href="https://example.com/x" rel="nofollow noreferrer noopener">a link #${target.iid}</a>`,
      ),
    );

    // A reader outside the project: the confidential issue and the private project's issue stay text.
    const forOutsider = (await signedInClient(t, outsider).then((web) => web.get(`${p}/issues/${issue.iid}`)))
      .text;
    assert.match(
      forOutsider,
      link(`${p}/issues/${target.iid}`, 'issue', `#${target.iid}`, 'Crash &lt;on&gt; start'),
    );
    assert.match(forOutsider, new RegExp(`hidden #${hidden.iid},`));
    assert.doesNotMatch(forOutsider, /Embargoed|Private work/);
    assert.match(forOutsider, new RegExp(`Cross ${secret.fullPath}#${elsewhere.iid},`));
    const signedOut = (await new WebClient(t).get(`${p}/issues/${issue.iid}`)).text;
    assert.doesNotMatch(signedOut, /Embargoed|Private work/);
    assert.match(signedOut, link('/alice', 'project_member', '@alice', 'alice Name'));

    // The milestone's page renders its description's references too.
    await api('PUT', `/api/v3/projects/${project.id}/milestones/${milestone.id}`, owner, {
      description: `Tracks #${target.iid}`,
    });
    const milestonePage = await new WebClient(t).get(`${p}/milestones/${milestone.iid}`);
    assert.match(milestonePage.text, link(`${p}/issues/${target.iid}`, 'issue', `#${target.iid}`));
  });

  it('writes a cross-reference note from a description (create and edit), a comment and a pushed commit, once per pair', async () => {
    const mentioned = await newIssue(project, owner, { title: 'Mentioned one' });
    const other = await newIssue(secret, owner, { title: 'Over there' });
    const mentioning = await newIssue(project, owner, {
      title: 'Mentioner',
      description: `See #${mentioned.iid} and ${secret.fullPath}#${other.iid}`,
    });
    const crossNotes = async (target: TestProject, id: number) =>
      (await notesOf(target, 'issues', id)).filter(
        (note) => note.system && note.body.startsWith('Mentioned in'),
      );
    assert.deepEqual(
      (await crossNotes(project, mentioned.id)).map((note) => note.body),
      [`Mentioned in issue #${mentioning.iid}`],
    );
    assert.deepEqual(
      (await crossNotes(secret, other.id)).map((note) => note.body),
      [`Mentioned in issue ${project.fullPath}#${mentioning.iid}`],
    );
    // An edit mentioning it again adds nothing; the issue never notes itself.
    await api('PUT', `/api/v3/projects/${project.id}/issues/${mentioning.id}`, owner, {
      description: `Still #${mentioned.iid}, and myself #${mentioning.iid}`,
    });
    assert.equal((await crossNotes(project, mentioned.id)).length, 1);
    assert.equal((await crossNotes(project, mentioning.id)).length, 0);
    // A comment on another issue mentions it: one note naming that issue; a second comment, none more.
    const commenter = await newIssue(project, owner, { title: 'Commenter' });
    for (let i = 0; i < 2; i++)
      await api('POST', `/api/v3/projects/${project.id}/issues/${commenter.id}/notes`, owner, {
        body: `Related to #${mentioned.iid}`,
      });
    assert.deepEqual(
      (await crossNotes(project, mentioned.id)).map((note) => note.body),
      [`Mentioned in issue #${mentioning.iid}`, `Mentioned in issue #${commenter.iid}`],
    );

    // A pushed commit whose message mentions it.
    const base = await listen(t);
    const dir = path.join(await client.workTree('push-home'), 'app');
    await client.ok(['clone', '-q', repoUrl(base, project.fullPath, owner.username, owner.password), dir]);
    fs.writeFileSync(path.join(dir, 'c.txt'), 'c\n');
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', `Work on #${mentioned.iid}`], dir);
    const pushed = (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
    await client.ok(['push', '-q', 'origin', 'HEAD:master'], dir);
    await t.server.deps.pushQueue.drain();
    const afterPush = (await crossNotes(project, mentioned.id)).map((note) => note.body);
    assert.equal(afterPush.at(-1), `Mentioned in commit ${pushed}`);
    assert.equal(afterPush.length, 3);
    // On the page the note reads as a link to the commit, styled as a system note.
    const page = await new WebClient(t).get(`/${project.fullPath}/issues/${mentioned.iid}`);
    assert.match(
      page.text,
      new RegExp(`class="note system-note"><p class="muted"><svg class="system-note-icon"`),
    );
    assert.match(
      page.text,
      new RegExp(`Mentioned in commit <a href="/${project.fullPath}/commit/${pushed}"`),
    );
    assert.match(
      page.text,
      new RegExp(`Mentioned in issue <a href="/${project.fullPath}/issues/${commenter.iid}"`),
    );
    // A reader who may not see the mentioner does not see its note: the confidential mentioner's is gone.
    const confidential = await newIssue(project, owner, {
      title: 'Quiet',
      confidential: true,
      description: `About #${mentioned.iid}`,
    });
    assert.equal((await crossNotes(project, mentioned.id)).length, 4);
    const outsiderPage = await (
      await signedInClient(t, outsider)
    ).get(`/${project.fullPath}/issues/${mentioned.iid}`);
    assert.doesNotMatch(outsiderPage.text, new RegExp(`Mentioned in issue #${confidential.iid}`));
    const ownerPage = await (
      await signedInClient(t, owner)
    ).get(`/${project.fullPath}/issues/${mentioned.iid}`);
    assert.match(
      ownerPage.text,
      new RegExp(`Mentioned in issue <a href="/${project.fullPath}/issues/${confidential.iid}"`),
    );
  });

  it('gives a mentioned reader a pending `mentioned` todo (v3 and v4), none to who may not read it', async () => {
    const issue = await newIssue(project, owner, {
      title: 'Needs eyes',
      description: '@alice and @outsider',
    });
    const todosOf = async (user: TestUser, version: 'v3' | 'v4') =>
      (
        (await api('GET', `/api/${version}/todos?per_page=100`, user)) as unknown as Array<
          Record<string, any>
        >
      ).filter((todo) => todo.target?.id === issue.id);
    for (const version of ['v3', 'v4'] as const) {
      const todos = await todosOf(alice, version);
      assert.equal(todos.length, 1, version);
      assert.equal(todos[0].action_name, 'mentioned');
      assert.equal(todos[0].state, 'pending');
      assert.equal(todos[0].author.username, owner.username);
      assert.equal(todos[0].target_type, 'Issue');
    }
    // The project is public: the outsider may read it and is mentioned too.
    assert.equal((await todosOf(outsider, 'v3')).length, 1);
    // A confidential issue mentions the outsider: no todo (read_issue refused); alice, a developer, gets one.
    const quiet = await newIssue(project, owner, {
      title: 'Quiet one',
      confidential: true,
      description: '@outsider @alice',
    });
    const forQuiet = async (user: TestUser) =>
      (
        (await api('GET', `/api/v3/todos?per_page=100`, user)) as unknown as Array<Record<string, any>>
      ).filter((todo) => todo.target?.id === quiet.id);
    assert.equal((await forQuiet(outsider)).length, 0);
    assert.equal((await forQuiet(alice)).length, 1);
    // A comment that mentions: a todo for that note; @crew reaches the group's members.
    await api('POST', `/api/v3/projects/${project.id}/issues/${issue.id}/notes`, owner, { body: 'cc @crew' });
    assert.equal((await todosOf(alice, 'v4')).length, 2);
    // An edit that mentions again while the todo is pending adds none.
    await api('PUT', `/api/v3/projects/${project.id}/issues/${issue.id}`, owner, {
      description: '@alice and @outsider, again',
    });
    assert.equal((await todosOf(alice, 'v3')).length, 2);
  });

  it('ticks a task box from the page, with 8.13 system note; a stale version answers 409 and changes nothing', async () => {
    const issue = await newIssue(project, owner, {
      title: 'Checklist',
      description: '- [ ] First thing\n- [ ] Second thing\n\n```\n- [ ] not a task\n```',
    });
    const p = `/${project.fullPath}/issues/${issue.iid}`;
    const web = await signedInClient(t, alice);
    const page = await web.get(p);
    assert.match(
      page.text,
      /<form class="task-form" method="post" action="[^"]+\/tasks" data-task-form="true">/,
    );
    assert.match(
      page.text,
      /<input type="checkbox" class="task-list-item-checkbox" name="task\[\]" value="1" aria-label="task 2">/,
    );
    const version = /name="lock_version" value="([^"]+)"/.exec(page.text)![1]!;
    // Script's post: one box, as JSON.
    const ticked = await t.server.app.inject({
      method: 'POST',
      url: `${p}/tasks`,
      headers: {
        cookie: [...web.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        authenticity_token: web.csrf,
        lock_version: version,
        task_index: '1',
        checked: '1',
      }).toString(),
    });
    assert.equal(ticked.statusCode, 200, ticked.body);
    const newVersion = JSON.parse(ticked.body).lock_version as string;
    assert.notEqual(newVersion, version);
    const after = await api('GET', `/api/v3/projects/${project.id}/issues/${issue.id}`, owner);
    assert.equal(after.description, '- [ ] First thing\n- [x] Second thing\n\n```\n- [ ] not a task\n```');
    const notes = await notesOf(project, 'issues', issue.id);
    assert.deepEqual(
      notes.filter((note) => note.system).map((note) => note.body),
      ['Marked the task **Second thing** as completed'],
    );
    // The form without script, from the page drawn before that tick: 409, nothing changed.
    const stale = await web.post(`${p}/tasks`, { lock_version: version, 'task[]': '0' });
    assert.equal(stale.status, 409);
    assert.match(stale.text, /The description changed since this version/);
    const unchanged = await api('GET', `/api/v3/projects/${project.id}/issues/${issue.id}`, owner);
    assert.equal(unchanged.description, after.description);
    // The form again from the current version: the first box ticked, the second cleared.
    const saved = await web.post(`${p}/tasks`, { lock_version: newVersion, 'task[]': '0' });
    assert.equal(saved.status, 302);
    const last = await api('GET', `/api/v3/projects/${project.id}/issues/${issue.id}`, owner);
    assert.equal(last.description, '- [x] First thing\n- [ ] Second thing\n\n```\n- [ ] not a task\n```');
    const bodies = (await notesOf(project, 'issues', issue.id))
      .filter((note) => note.system)
      .map((note) => note.body);
    assert.deepEqual(bodies.slice(1), [
      'Marked the task **First thing** as completed',
      'Marked the task **Second thing** as incomplete',
    ]);
    // A reader who may not edit gets disabled boxes and cannot post.
    const outsiderWeb = await signedInClient(t, outsider);
    const readOnly = await outsiderWeb.get(p);
    assert.doesNotMatch(readOnly.text, /data-task-form/);
    assert.match(readOnly.text, /class="task-list-item-checkbox" disabled checked/);
    const refused = await outsiderWeb.post(`${p}/tasks`, { lock_version: last.updated_at, 'task[]': '1' });
    assert.equal(refused.status, 404);
  });

  it('ticks a task of a merge request', async () => {
    await api('POST', `/api/v3/projects/${project.id}/repository/branches`, owner, {
      branch_name: 'tasks',
      ref: sha2,
    });
    const mr = await api('POST', `/api/v3/projects/${project.id}/merge_requests`, owner, {
      title: 'With tasks',
      source_branch: 'tasks',
      target_branch: 'master',
      description: '* [ ] Review',
    });
    const p = `/${project.fullPath}/merge_requests/${mr.iid}`;
    const web = await signedInClient(t, owner);
    const version = /name="lock_version" value="([^"]+)"/.exec((await web.get(p)).text)![1]!;
    assert.equal((await web.post(`${p}/tasks`, { lock_version: version, 'task[]': '0' })).status, 302);
    const after = await api('GET', `/api/v3/projects/${project.id}/merge_requests/${mr.id}`, owner);
    assert.equal(after.description, '* [x] Review');
    const notes = await notesOf(project, 'merge_requests', mr.id);
    assert.ok(notes.some((note) => note.system && note.body === 'Marked the task **Review** as completed'));
  });

  it('costs the same statements for 200 notes and 500 references as for 2 notes and 5', async () => {
    const labels = ['alpha', 'beta'];
    for (const name of labels)
      await api('POST', `/api/v3/projects/${project.id}/labels`, owner, { name, color: '#123456' });
    const targets: Array<Record<string, any>> = [];
    for (let i = 0; i < 5; i++) targets.push(await newIssue(project, owner, { title: `Target ${i}` }));
    const refs = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const kinds = [
          `#${targets[i % 5].iid}`,
          `~${labels[i % 2]}`,
          '@alice',
          `${sha.slice(0, 9)}`,
          `#${1000 + i}`,
        ];
        return kinds[i % kinds.length];
      }).join(' ');
    const small = await newIssue(project, owner, { title: 'Small', description: refs(3) });
    const large = await newIssue(project, owner, { title: 'Large', description: refs(100) });
    await api('POST', `/api/v3/projects/${project.id}/issues/${small.id}/notes`, owner, { body: refs(2) });
    await api('POST', `/api/v3/projects/${project.id}/issues/${small.id}/notes`, owner, { body: 'plain' });
    // 200 notes carrying 400 more references (written directly: the note services are tested above).
    const db = t.server.deps.db.kysely;
    const at = new Date().toISOString();
    for (let i = 0; i < 200; i++) {
      await db
        .insertInto('notes')
        .values({
          project_id: project.id,
          noteable_type: 'Issue',
          noteable_id: large.id,
          commit_id: null,
          author_id: i % 2 === 0 ? owner.id : alice.id,
          note: refs(2),
          system: 0,
          attachment: null,
          line_code: null,
          updated_by_id: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const web = await signedInClient(t, alice);
    const cost = async (url: string) => {
      let queries = 0;
      t.server.deps.db.onQuery = () => {
        queries += 1;
      };
      try {
        const page = await web.get(url);
        assert.equal(page.status, 200);
        return { queries, links: page.text.match(/class="gfm /g)?.length ?? 0 };
      } finally {
        t.server.deps.db.onQuery = undefined;
      }
    };
    const p = `/${project.fullPath}/issues`;
    await cost(`${p}/${small.iid}`);
    await cost(`${p}/${large.iid}`);
    const a = await cost(`${p}/${small.iid}`);
    const b = await cost(`${p}/${large.iid}`);
    assert.ok(b.links >= 400, `links on the large page: ${b.links}`);
    assert.ok(a.links >= 3, `links on the small page: ${a.links}`);
    assert.equal(b.queries, a.queries);
  });
});
