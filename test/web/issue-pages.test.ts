// The issue pages as a browser without script uses them, checked against what the API then answers:
// who sees what (a stranger meets 404 on a private project, a signed-out visitor is sent to sign in),
// the list's tabs, search and filters, the new and edit forms, comments, close and reopen through the
// same services and policies as the API, and form posts without the form token changing nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addGroupMember,
  addProjectMember,
  createGroup,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';
import { startReceiver } from '../helpers/receiver.ts';

describe('pages: issues', () => {
  let t: TestApp;
  let owner: TestUser;
  let reporter: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let base = '';

  const signedIn = (user: TestUser) => signedInClient(t, user);
  const apiIssues = async (query = '') => {
    const response = await t.request('GET', `/api/v3/projects/${project.id}/issues?per_page=100${query}`, {
      token: owner.token,
    });
    assert.equal(response.status, 200);
    return response.body as Array<Record<string, any>>;
  };

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'olga');
    reporter = await createUser(t, 'rita');
    guest = await createUser(t, 'gus');
    stranger = await createUser(t, 'stan');
    project = await createProject(t, { owner, path: 'tracker', visibility: 0 });
    await addProjectMember(t, project.id, reporter.id, 20);
    await addProjectMember(t, project.id, guest.id, 10);
    base = `/${project.fullPath}`;
  });
  after(() => t.close());

  it('creates an issue in the form, reads it back through the API, and shows it rendered', async () => {
    const label = await t.request('POST', `/api/v3/projects/${project.id}/labels`, {
      token: owner.token,
      body: { name: 'bug', color: '#ff0000' },
    });
    assert.equal(label.status, 201);
    const web = await signedIn(owner);
    const form = await web.get(`${base}/issues/new`);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="issue\[title\]"/);
    const labelId = /name="issue\[label_ids\]\[\]" value="(\d+)"/.exec(form.text)?.[1];
    assert.ok(labelId, 'the label is offered');
    const created = await web.request('POST', `${base}/issues`, {
      authenticity_token: web.csrf,
      'issue[title]': 'Crash on <start>',
      'issue[description]': 'It **fails** <script>alert(1)</script> [x](javascript:alert(2))',
      'issue[assignee_id]': String(reporter.id),
      'issue[label_ids][]': labelId,
    });
    assert.equal(created.status, 302);
    const [issue] = await apiIssues();
    assert.equal(issue.title, 'Crash on <start>');
    assert.equal(issue.assignee.username, 'rita');
    assert.deepEqual(issue.labels, ['bug']);
    assert.equal(created.headers.location, `${base}/issues/${issue.iid}`);
    const page = await web.get(`${base}/issues/${issue.iid}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Crash on &lt;start>/);
    assert.match(page.text, /<strong>fails<\/strong>/);
    assert.doesNotMatch(page.text, /<script>alert/);
    assert.doesNotMatch(page.text, /href="javascript:/);
    assert.match(page.text, />Rita|rita/);
  });

  it('a blank title shows the form again with the error and creates nothing', async () => {
    const web = await signedIn(owner);
    const before = (await apiIssues()).length;
    await web.get(`${base}/issues/new`);
    const again = await web.post(`${base}/issues`, {
      'issue[title]': '  ',
      'issue[description]': 'kept text',
    });
    assert.equal(again.status, 422);
    assert.match(again.text, /Title can(&#39;|')t be blank/);
    assert.match(again.text, /kept text/);
    assert.equal((await apiIssues()).length, before);
  });

  it('a reporter comments; the comment shows rendered, and the API lists it', async () => {
    const [issue] = await apiIssues();
    const web = await signedIn(reporter);
    const page = await web.get(`${base}/issues/${issue.iid}`);
    assert.equal(page.status, 200);
    const posted = await web.post(`${base}/notes`, {
      'note[noteable_type]': 'Issue',
      'note[noteable_id]': String(issue.id),
      'note[note]': 'Seen it _too_',
    });
    assert.equal(posted.status, 302);
    const notes = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issue.id}/notes`, {
      token: owner.token,
    });
    const note = (notes.body as Array<Record<string, any>>).find((n) => n.body === 'Seen it _too_');
    assert.ok(note, 'the API lists the comment');
    assert.equal(note.author.username, 'rita');
    assert.equal(posted.headers.location, `${base}/issues/${issue.iid}#note_${note.id}`);
    const after = await web.get(`${base}/issues/${issue.iid}`);
    assert.match(after.text, new RegExp(`id="note_${note.id}"`));
    assert.match(after.text, /Seen it <em>too<\/em>/);
    const blank = await web.post(`${base}/notes`, {
      'note[noteable_type]': 'Issue',
      'note[noteable_id]': String(issue.id),
      'note[note]': '   ',
    });
    assert.equal(blank.status, 422);
    assert.match(blank.text, /Comment can(&#39;|')t be blank/);
  });

  it('closes and reopens for who may; a guest sees no button and cannot close', async () => {
    const [issue] = await apiIssues();
    const guestWeb = await signedIn(guest);
    const guestPage = await guestWeb.get(`${base}/issues/${issue.iid}`);
    assert.equal(guestPage.status, 200);
    assert.doesNotMatch(guestPage.text, /Close issue/);
    const refused = await guestWeb.post(`${base}/issues/${issue.iid}`, { 'issue[state_event]': 'close' });
    assert.equal(refused.status, 403);
    assert.equal((await apiIssues(`&iid=${issue.iid}`))[0].state, 'opened');

    const web = await signedIn(reporter);
    const page = await web.get(`${base}/issues/${issue.iid}`);
    assert.match(page.text, /Close issue/);
    const closed = await web.post(`${base}/issues/${issue.iid}`, { 'issue[state_event]': 'close' });
    assert.equal(closed.status, 302);
    assert.equal((await apiIssues(`&iid=${issue.iid}`))[0].state, 'closed');
    const closedPage = await web.get(`${base}/issues/${issue.iid}`);
    assert.match(closedPage.text, /Reopen issue/);
    const reopened = await web.post(`${base}/issues/${issue.iid}`, { 'issue[state_event]': 'reopen' });
    assert.equal(reopened.status, 302);
    assert.equal((await apiIssues(`&iid=${issue.iid}`))[0].state, 'reopened');
  });

  it('edits through the edit form: title and labels, as the API then shows them', async () => {
    const [issue] = await apiIssues();
    const web = await signedIn(owner);
    const form = await web.get(`${base}/issues/${issue.iid}/edit`);
    assert.equal(form.status, 200);
    assert.match(form.text, /value="Crash on &lt;start>"/);
    const saved = await web.post(`${base}/issues/${issue.iid}`, {
      'issue[title]': 'Crash on start',
      'issue[description]': 'New text',
      'issue[assignee_id]': '',
      'issue[milestone_id]': '',
      // The form's hidden field, sent when no label is ticked.
      'issue[label_ids][]': '',
    });
    assert.equal(saved.status, 302);
    const [after] = await apiIssues(`&iid=${issue.iid}`);
    assert.equal(after.title, 'Crash on start');
    assert.equal(after.description, 'New text');
    assert.deepEqual(after.labels, []);
    assert.equal(after.assignee, null);
    // The notes read as 8.13's page did: the title change with the changed run marked (not its
    // `{-…-}` markers), the label as its coloured chip where the note stores its id (`Removed ~1 label`).
    const notes = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issue.id}/notes`, {
      token: owner.token,
    });
    assert.ok(notes.body.some((note: { body: string }) => /^Removed ~\d+ label$/.test(note.body)));
    const page = await web.get(`${base}/issues/${issue.iid}`);
    // The label as its coloured chip, linking to the issues it is on.
    assert.match(
      page.text,
      /<p>Removed <a href="\/[^"]+\/issues\?label_name\[\]=bug" class="gfm has-tooltip gfm-label"[^>]*><span class="label color-label"><svg[^>]*><rect[^>]*fill="#[0-9a-fA-F]{6}"\/><\/svg>bug<\/span><\/a> label<\/p>/,
    );
    assert.match(
      page.text,
      /Changed title: <strong>Crash on <span class="idiff deletion">&lt;start&gt;<\/span><\/strong> → <strong>Crash on <span class="idiff addition">start<\/span><\/strong>/,
    );
    assert.doesNotMatch(page.text, /\{[+-]/);
  });

  it('the list: state tabs with counts, search and filters, and links to each issue', async () => {
    const web = await signedIn(owner);
    for (const title of ['Second one', 'Third one']) {
      await web.get(`${base}/issues/new`);
      assert.equal((await web.post(`${base}/issues`, { 'issue[title]': title })).status, 302);
    }
    const third = (await apiIssues()).find((i) => i.title === 'Third one')!;
    await web.get(`${base}/issues/${third.iid}`);
    assert.equal(
      (await web.post(`${base}/issues/${third.iid}`, { 'issue[state_event]': 'close' })).status,
      302,
    );

    const open = await web.get(`${base}/issues`);
    assert.equal(open.status, 200);
    assert.match(open.text, /Open <span class="badge">2<\/span>/);
    assert.match(open.text, /Closed <span class="badge">1<\/span>/);
    assert.match(open.text, /All <span class="badge">3<\/span>/);
    assert.match(open.text, /Second one/);
    assert.doesNotMatch(open.text, /Third one/);
    const closed = await web.get(`${base}/issues?state=closed`);
    assert.match(closed.text, /Third one/);
    assert.doesNotMatch(closed.text, /Second one/);
    const searched = await web.get(`${base}/issues?state=all&search=SECOND`);
    assert.match(searched.text, /Second one/);
    assert.doesNotMatch(searched.text, /Third one|Crash on start/);
    const byAuthor = await web.get(`${base}/issues?state=all&author_id=${reporter.id}`);
    assert.match(byAuthor.text, /No issues to show/);
    const unassigned = await web.get(`${base}/issues?assignee_id=0`);
    assert.match(unassigned.text, /Second one/);
    // The filter links 8.13 wrote: `label_name[]`, each one required.
    const second = (await apiIssues()).find((i) => i.title === 'Second one')!;
    const labelled = await t.request('PUT', `/api/v3/projects/${project.id}/issues/${second.id}`, {
      token: owner.token,
      body: { labels: 'bug' },
    });
    assert.equal(labelled.status, 200, labelled.text);
    const byLabel = await web.get(`${base}/issues?state=all&label_name[]=bug`);
    assert.match(byLabel.text, /Second one/);
    assert.doesNotMatch(byLabel.text, /Third one|Crash on start/);
    const bothLabels = await web.get(`${base}/issues?state=all&label_name[]=bug&label_name[]=absent`);
    assert.match(bothLabels.text, /No issues to show/);
    const bad = await web.get(`${base}/issues?author_id=nope&page=x&sort=zzz`);
    assert.equal(bad.status, 200);
  });

  it('web_url of an issue from the API opens its page; strangers get 404, visitors sign in', async () => {
    const [issue] = await apiIssues();
    const path = new URL(issue.web_url).pathname;
    const web = await signedIn(owner);
    assert.equal((await web.get(path)).status, 200);
    const strangerWeb = await signedIn(stranger);
    for (const url of [`${base}/issues`, path, `${base}/issues/new`, `${path}/edit`]) {
      assert.equal((await strangerWeb.get(url)).status, 404, url);
    }
    const posted = await strangerWeb.post(`${base}/notes`, {
      'note[noteable_type]': 'Issue',
      'note[noteable_id]': String(issue.id),
      'note[note]': 'stranger was here',
    });
    assert.equal(posted.status, 404);
    const visitor = await new WebClient(t).get(path);
    assert.equal(visitor.status, 302);
    assert.match(String(visitor.headers.location), /^\/users\/sign_in\?redirect_to=/);
    assert.equal((await web.get(`${base}/issues/99999`)).status, 404);
  });

  it('a guest cannot open a confidential issue of someone else; its author can', async () => {
    const web = await signedIn(owner);
    await web.get(`${base}/issues/new`);
    const made = await web.post(`${base}/issues`, {
      'issue[title]': 'Secret plan',
      'issue[confidential]': '1',
    });
    assert.equal(made.status, 302);
    const secret = (await apiIssues()).find((i) => i.title === 'Secret plan')!;
    assert.equal(secret.confidential, true);
    const guestWeb = await signedIn(guest);
    assert.equal((await guestWeb.get(`${base}/issues/${secret.iid}`)).status, 404);
    assert.doesNotMatch((await guestWeb.get(`${base}/issues?state=all`)).text, /Secret plan/);
    assert.equal((await web.get(`${base}/issues/${secret.iid}`)).status, 200);
  });

  it('posts without the form token change nothing (422)', async () => {
    const [issue] = await apiIssues();
    const web = await signedIn(owner);
    const before = await apiIssues();
    const noToken = (url: string, form: Record<string, string>) => web.request('POST', url, form);
    assert.equal((await noToken(`${base}/issues`, { 'issue[title]': 'Forged' })).status, 422);
    assert.equal(
      (await noToken(`${base}/issues/${issue.iid}`, { 'issue[state_event]': 'close' })).status,
      422,
    );
    assert.equal(
      (
        await noToken(`${base}/notes`, {
          'note[noteable_type]': 'Issue',
          'note[noteable_id]': String(issue.id),
          'note[note]': 'forged comment',
        })
      ).status,
      422,
    );
    assert.deepEqual(await apiIssues(), before);
  });

  it('a public project shows its issues to a signed-out visitor, without the comment form', async () => {
    const open = await createProject(t, { owner, path: 'open-tracker', visibility: 20 });
    const made = await t.request('POST', `/api/v3/projects/${open.id}/issues`, {
      token: owner.token,
      body: { title: 'Public issue' },
    });
    assert.equal(made.status, 201);
    const visitor = new WebClient(t);
    const list = await visitor.get(`/${open.fullPath}/issues`);
    assert.equal(list.status, 200);
    assert.match(list.text, /Public issue/);
    const page = await visitor.get(new URL(made.body.web_url).pathname);
    assert.equal(page.status, 200);
    assert.match(page.text, /Sign in<\/a> to comment/);
    assert.doesNotMatch(page.text, /name="note\[note\]"/);
  });
  it('the url in the issue and note hooks of a page write opens the page and the comment', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await t.request('POST', `/api/v3/projects/${project.id}/hooks`, {
        token: owner.token,
        body: { url: receiver.url, issues_events: true, note_events: true, push_events: false },
      });
      assert.equal(hook.status, 201);
      const web = await signedIn(owner);
      await web.get(`${base}/issues/new`);
      const made = await web.post(`${base}/issues`, { 'issue[title]': 'Hooked from a page' });
      assert.equal(made.status, 302);
      await web.get(String(made.headers.location));
      const issue = (await apiIssues()).find((i) => i.title === 'Hooked from a page')!;
      const commented = await web.post(`${base}/notes`, {
        'note[noteable_type]': 'Issue',
        'note[noteable_id]': String(issue.id),
        'note[note]': 'Hooked comment',
      });
      assert.equal(commented.status, 302);
      await t.server.hookWorker.drain();
      const hooks = await receiver.waitFor(2);
      const byKind = new Map(hooks.map((h) => [h.body.object_kind as string, h.body]));
      const issueUrl = new URL(byKind.get('issue')!.object_attributes.url);
      assert.equal(issueUrl.pathname, `${base}/issues/${issue.iid}`);
      assert.equal((await web.get(issueUrl.pathname)).status, 200);
      const noteUrl = new URL(byKind.get('note')!.object_attributes.url);
      assert.equal(`${noteUrl.pathname}${noteUrl.hash}`, String(commented.headers.location));
      const page = await web.get(noteUrl.pathname);
      assert.equal(page.status, 200);
      assert.match(page.text, new RegExp(`id="${noteUrl.hash.slice(1)}"`));
    } finally {
      await t
        .request('GET', `/api/v3/projects/${project.id}/hooks`, { token: owner.token })
        .then(async (list) => {
          for (const h of list.body as Array<{ id: number }>) {
            await t.request('DELETE', `/api/v3/projects/${project.id}/hooks/${h.id}`, { token: owner.token });
          }
        });
      await receiver.close();
    }
  });

  it('thumbs up on an issue: a press awards, a second takes it back, as the API counts', async () => {
    const [issue] = await apiIssues();
    const page = `${base}/issues/${issue.iid}`;
    const toggle = `${page}/toggle_award_emoji`;
    const upvotes = async () => (await apiIssues()).find((i) => i.id === issue.id)!.upvotes;
    const web = await signedIn(reporter);
    assert.match(
      (await web.get(page)).text,
      /aria-pressed="false"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 0/,
    );
    const up = await web.post(toggle, { name: 'thumbsup' });
    assert.equal(up.status, 302);
    assert.equal(up.headers.location, page);
    assert.equal(await upvotes(), 1);
    assert.match(
      (await web.get(page)).text,
      /aria-pressed="true"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 1/,
    );
    assert.equal((await web.post(toggle, { name: 'thumbsup' })).status, 302);
    assert.equal(await upvotes(), 0);
    assert.equal((await web.request('POST', toggle, { name: 'thumbsup' })).status, 422);
    assert.equal(await upvotes(), 0);
  });

  it('subscribes to an issue with the button, as the API then says for that user', async () => {
    const [issue] = await apiIssues();
    const page = `${base}/issues/${issue.iid}`;
    const subscribed = async () => {
      const one = await t.request('GET', `/api/v3/projects/${project.id}/issues/${issue.id}`, {
        token: reporter.token,
      });
      assert.equal(one.status, 200);
      return one.body.subscribed as boolean;
    };
    const web = await signedIn(reporter);
    const before = await subscribed();
    const shown = await web.get(page);
    assert.match(shown.text, new RegExp(`>${before ? 'Unsubscribe' : 'Subscribe'}</button>`));
    const asked = await web.post(`${page}/toggle_subscription`, { subscribe: before ? '0' : '1' });
    assert.equal(asked.status, 302);
    assert.equal(await subscribed(), !before);
    assert.match((await web.get(page)).text, new RegExp(`>${before ? 'Subscribe' : 'Unsubscribe'}</button>`));
  });

  it("offers a group's members as assignees on the group's projects; labels stay one group in the list", async () => {
    const groupId = await createGroup(t, 'crew', 0);
    const lead = await createUser(t, 'lena');
    const hand = await createUser(t, 'hugo');
    await addGroupMember(t, groupId, lead.id, 50);
    await addGroupMember(t, groupId, hand.id, 30);
    const shared = await createProject(t, { owner: lead, namespace: 'crew', path: 'deck', visibility: 0 });
    await addProjectMember(t, shared.id, reporter.id, 20);
    for (const name of ['bug', 'ui'])
      await t.request('POST', `/api/v3/projects/${shared.id}/labels`, {
        token: lead.token,
        body: { name, color: '#00ff00' },
      });
    const web = await signedIn(lead);
    const form = await web.get('/crew/deck/issues/new');
    assert.equal(form.status, 200);
    const choices = /<select name="issue\[assignee_id\]">(.*?)<\/select>/s.exec(form.text)?.[1] ?? '';
    // The project's own member and both group members, each once.
    for (const user of [reporter, lead, hand]) {
      assert.equal(choices.split(`value="${user.id}"`).length - 1, 1, `${user.username} in ${choices}`);
    }
    const created = await web.post('/crew/deck/issues', {
      'issue[title]': 'Swab the deck',
      'issue[assignee_id]': String(hand.id),
    });
    assert.equal(created.status, 302, created.text);
    const issue = await t.request('GET', `/api/v3/projects/${shared.id}/issues`, { token: lead.token });
    assert.equal(issue.body[0].assignee.username, 'hugo');
    await t.request('PUT', `/api/v3/projects/${shared.id}/issues/${issue.body[0].id}`, {
      token: lead.token,
      body: { labels: 'bug,ui' },
    });
    const list = await web.get('/crew/deck/issues');
    // One box for the badges, so the row does not spread them along its width.
    assert.match(
      list.text,
      /<span class="badges"><a class="badge"[^>]*>bug<\/a><a class="badge"[^>]*>ui<\/a><\/span>/,
    );
  });
  it('counts comments in the discussion heading, not the system notes listed beside them', async () => {
    const api = `/api/v3/projects/${project.id}/issues`;
    const created = await t.request('POST', api, { token: owner.token, body: { title: 'Counted' } });
    const closed = await t.request('PUT', `${api}/${created.body.id}`, {
      token: owner.token,
      body: { state_event: 'close' },
    });
    assert.equal(closed.status, 200);
    const web = await signedIn(owner);
    const quiet = await web.get(`${base}/issues/${created.body.iid}`);
    assert.match(quiet.text, /Status changed to closed/);
    assert.match(quiet.text, /<h2 id="notes-title">0 comments<\/h2>/);
    await t.request('POST', `${api}/${created.body.id}/notes`, {
      token: owner.token,
      body: { body: 'Why?' },
    });
    const commented = await web.get(`${base}/issues/${created.body.iid}`);
    assert.match(commented.text, /<h2 id="notes-title">1 comment<\/h2>/);
  });
});
