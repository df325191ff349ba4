// The snippet pages without a browser: a project's list, one snippet highlighted with its raw text and
// its comments, the new, edit and delete forms (with the form token), and who may see what (a private
// snippet of a hidden project is a 404, a visitor is asked to sign in, the feature off hides the tab);
// personal snippets on the dashboard, Explore, their pages and raw text.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createRoles, createRolesProject, type Roles } from '../helpers/ci-roles.ts';
import type { TestProject } from '../helpers/factory.ts';
import { signedInClient, WebClient } from '../helpers/web.ts';

describe('snippet pages', () => {
  let t: TestApp;
  let roles: Roles;
  let hidden: TestProject;
  let open: TestProject;

  const makeSnippet = async (project: TestProject, token: string | undefined, fields: object) => {
    const made = await t.request('POST', `/api/v4/projects/${project.id}/snippets`, {
      token,
      body: { file_name: 'a.rb', content: 'puts 1\n', visibility: 'private', ...fields },
    });
    assert.equal(made.status, 201, made.text);
    return made.body.id as number;
  };

  before(async () => {
    t = await startTestApp();
    roles = await createRoles(t, 'snp');
    hidden = await createRolesProject(t, roles, 'hidden-snips', 0);
    open = await createRolesProject(t, roles, 'open-snips', 20);
  });
  after(() => t.close());

  it('lists a project snippet and shows it highlighted, with raw text and the Snippets tab', async () => {
    const id = await makeSnippet(open, roles.token.developer, {
      title: 'Greeter <b>',
      file_name: 'hello.rb',
      content: 'def hello\n  puts "hi"\nend\n',
      visibility: 'public',
    });
    const web = await signedInClient(t, roles.users.reporter);
    const list = await web.get(`/${open.fullPath}/snippets`);
    assert.equal(list.status, 200);
    assert.match(
      list.text,
      new RegExp(`<a href="/${open.fullPath}/snippets/${id}"><strong>Greeter &lt;b></strong>`),
    );
    assert.match(list.text, /aria-current="page">Snippets<\/a>/);
    assert.match(list.text, /New snippet/);
    const page = await web.get(`/${open.fullPath}/snippets/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<tr id="L1"><td class="ln"><a href="#L1">1<\/a><\/td>/);
    assert.match(page.text, /<span class="hljs-keyword">def<\/span>/);
    assert.match(page.text, new RegExp(`href="/${open.fullPath}/snippets/${id}/raw">Raw</a>`));
    // The reporter is not the author: no edit, no delete.
    assert.doesNotMatch(page.text, />Edit</);
    const raw = await web.get(`/${open.fullPath}/snippets/${id}/raw`);
    assert.equal(raw.status, 200);
    assert.match(String(raw.headers['content-type']), /^text\/plain/);
    assert.equal(raw.text, 'def hello\n  puts "hi"\nend\n');
    // A visitor reads a public snippet of a public project.
    const visitor = new WebClient(t);
    assert.equal((await visitor.get(`/${open.fullPath}/snippets/${id}`)).status, 200);
    assert.doesNotMatch((await visitor.get(`/${open.fullPath}/snippets`)).text, /New snippet/);
  });

  it('creates, edits and deletes a project snippet through the forms', async () => {
    const web = await signedInClient(t, roles.users.developer);
    const form = await web.get(`/${open.fullPath}/snippets/new`);
    assert.equal(form.status, 200);
    assert.match(form.text, /name="project_snippet\[title\]"/);
    assert.match(form.text, /value="0" checked\/>/);
    const blank = await web.post(`/${open.fullPath}/snippets`, {
      'project_snippet[title]': '',
      'project_snippet[content]': 'x',
      'project_snippet[visibility_level]': '0',
    });
    assert.equal(blank.status, 422);
    assert.match(blank.text, /Title can&#x27;t be blank|Title can't be blank/);
    const noToken = await web.request('POST', `/${open.fullPath}/snippets`, {
      'project_snippet[title]': 'x',
      'project_snippet[content]': 'x',
    });
    assert.equal(noToken.status, 422);
    const made = await web.post(`/${open.fullPath}/snippets`, {
      'project_snippet[title]': 'Notes',
      'project_snippet[file_name]': 'notes.txt',
      'project_snippet[content]': 'first line',
      'project_snippet[visibility_level]': '10',
    });
    assert.equal(made.status, 302);
    const url = String(made.headers.location);
    assert.match(url, new RegExp(`^/${open.fullPath}/snippets/\\d+$`));
    const shown = await web.get(url);
    assert.match(shown.text, /first line/);
    assert.match(shown.text, /Internal/);
    assert.match(shown.text, />Edit</);
    const edit = await web.get(`${url}/edit`);
    assert.equal(edit.status, 200);
    assert.match(edit.text, /value="10" checked\/>/);
    const bad = await web.post(url, {
      'project_snippet[title]': 'Notes',
      'project_snippet[file_name]': 'bad name!',
      'project_snippet[content]': 'x',
      'project_snippet[visibility_level]': '10',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.text, /File name can contain only letters/);
    const saved = await web.post(url, {
      'project_snippet[title]': 'Notes v2',
      'project_snippet[file_name]': 'notes.md',
      'project_snippet[content]': 'second line',
      'project_snippet[visibility_level]': '20',
    });
    assert.equal(saved.status, 302);
    const again = await web.get(url);
    assert.match(again.text, /Notes v2/);
    assert.match(again.text, /second line/);
    // A comment through the one notes route.
    const note = await web.post(`/${open.fullPath}/notes`, {
      'note[noteable_type]': 'Snippet',
      'note[noteable_id]': url.split('/').pop()!,
      'note[note]': 'Nice **snippet**',
    });
    assert.equal(note.status, 302);
    assert.match(String(note.headers.location), /#note_\d+$/);
    assert.match((await web.get(url)).text, /Nice <strong>snippet<\/strong>/);
    // Others may not edit or delete it.
    const reporter = await signedInClient(t, roles.users.reporter);
    assert.equal((await reporter.get(`${url}/edit`)).status, 404);
    await reporter.get(url);
    assert.equal((await reporter.post(`${url}/delete`)).status, 404);
    const gone = await web.post(`${url}/delete`);
    assert.equal(gone.status, 302);
    assert.equal(gone.headers.location, `/${open.fullPath}/snippets`);
    assert.equal((await web.get(url)).status, 404);
  });

  it('hides private snippets and hidden projects: 404, or sign in first', async () => {
    const id = await makeSnippet(hidden, roles.token.developer, { title: 'Secret' });
    const guest = await signedInClient(t, roles.users.guest);
    assert.equal((await guest.get(`/${hidden.fullPath}/snippets/${id}`)).status, 200);
    const stranger = await signedInClient(t, roles.users.stranger);
    assert.equal((await stranger.get(`/${hidden.fullPath}/snippets`)).status, 404);
    assert.equal((await stranger.get(`/${hidden.fullPath}/snippets/${id}`)).status, 404);
    assert.equal((await stranger.get(`/${hidden.fullPath}/snippets/${id}/raw`)).status, 404);
    const visitor = new WebClient(t);
    const answer = await visitor.get(`/${hidden.fullPath}/snippets/${id}`);
    assert.equal(answer.status, 302);
    assert.match(String(answer.headers.location), /\/users\/sign_in/);
    // A private snippet of a public project: listed for members only, 404 for others.
    const privateId = await makeSnippet(open, roles.token.developer, { title: 'Members only' });
    assert.equal((await stranger.get(`/${open.fullPath}/snippets/${privateId}`)).status, 404);
    assert.doesNotMatch((await stranger.get(`/${open.fullPath}/snippets`)).text, /Members only/);
    assert.match((await guest.get(`/${open.fullPath}/snippets`)).text, /Members only/);
    // A snippet id of another project is not found here.
    assert.equal((await guest.get(`/${open.fullPath}/snippets/${id}`)).status, 404);
    assert.equal((await guest.get(`/${open.fullPath}/snippets/nope`)).status, 404);
  });

  it('drops the tab and the pages when the feature is off', async () => {
    const web = await signedInClient(t, roles.users.master);
    const off = await t.request('PUT', `/api/v4/projects/${open.id}`, {
      token: roles.token.admin,
      body: { snippets_enabled: false },
    });
    assert.equal(off.status, 200, off.text);
    const project = await web.get(`/${open.fullPath}`);
    const tab = `href="/${open.fullPath}/snippets"`;
    assert.ok(!project.text.includes(tab));
    assert.equal((await web.get(`/${open.fullPath}/snippets`)).status, 404);
    await t.request('PUT', `/api/v4/projects/${open.id}`, {
      token: roles.token.admin,
      body: { snippets_enabled: true },
    });
    assert.ok((await web.get(`/${open.fullPath}`)).text.includes(tab));
  });

  it('thumbs on a project snippet: a press awards, a second takes it back, as the API counts', async () => {
    const id = await makeSnippet(open, roles.token.developer, { title: 'Vote on me', visibility: 'public' });
    const page = `/${open.fullPath}/snippets/${id}`;
    const toggle = `${page}/toggle_award_emoji`;
    const awardsUrl = `/api/v4/projects/${open.id}/snippets/${id}/award_emoji`;
    const awards = async () =>
      ((await t.request('GET', awardsUrl, { token: roles.token.developer })).body as any[]).map(
        (award) => `${award.user.username}:${award.name}`,
      );
    const author = await signedInClient(t, roles.users.developer);
    const own = await author.get(page);
    assert.doesNotMatch(own.text, /name="name" value="thumbsup"/);
    assert.match(own.text, /Thumbs up 0/);
    const refused = await author.post(toggle, { name: 'thumbsup' });
    assert.equal(refused.status, 404, refused.text.slice(0, 3000));

    const web = await signedInClient(t, roles.users.reporter);
    assert.match(
      (await web.get(page)).text,
      /aria-pressed="false"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 0/,
    );
    const up = await web.post(toggle, { name: 'thumbsup' });
    assert.equal(up.status, 302);
    assert.equal(up.headers.location, page);
    assert.deepEqual(await awards(), [`${roles.users.reporter.username}:thumbsup`]);
    assert.match(
      (await web.get(page)).text,
      /aria-pressed="true"><svg class="thumb-icon"[^>]*>.*?<\/svg> Thumbs up 1/,
    );
    await web.post(toggle, { name: 'thumbsdown' });
    assert.match((await author.get(page)).text, /Thumbs down 1/);
    await web.post(toggle, { name: 'thumbsup' });
    assert.deepEqual(await awards(), [`${roles.users.reporter.username}:thumbsdown`]);
    const visitor = new WebClient(t);
    const shown = await visitor.get(page);
    assert.match(shown.text, /Thumbs up 0/);
    assert.doesNotMatch(shown.text, /toggle_award_emoji/);
    // A private snippet: a non-member cannot vote on what they cannot read.
    const secret = await makeSnippet(hidden, roles.token.developer, { title: 'Secret votes' });
    const stranger = await signedInClient(t, roles.users.stranger);
    await stranger.get('/dashboard/snippets'); // for the form token
    assert.equal(
      (await stranger.post(`/${hidden.fullPath}/snippets/${secret}/toggle_award_emoji`, { name: 'thumbsup' }))
        .status,
      404,
    );
  });

  it('Explore snippets: public and internal ones to the signed-in, newest first across pages; public to visitors', async () => {
    const author = roles.users.master;
    const titles: string[] = [];
    for (let n = 0; n < 23; n += 1) {
      const title = `Merged walk ${String(n).padStart(2, '0')} ${n % 3 === 0 ? 'pub' : 'int'}`;
      const made = await t.request('POST', '/api/v4/snippets', {
        token: author.token,
        body: { title, file_name: 'x.txt', content: 'x\n', visibility: n % 3 === 0 ? 'public' : 'internal' },
      });
      assert.equal(made.status, 201, made.text);
      titles.push(title);
    }
    const shown = (text: string) => [...text.matchAll(/Merged walk \d\d (?:pub|int)/g)].map((m) => m[0]);
    const web = await signedInClient(t, roles.users.stranger);
    const first = await web.get('/explore/snippets');
    assert.equal(first.status, 200);
    const second = await web.get('/explore/snippets?page=2');
    assert.equal(second.status, 200);
    const newestFirst = [...titles].reverse();
    // Older snippets from other tests follow on page 2; ours come first and in order.
    assert.deepEqual(shown(first.text), newestFirst.slice(0, 20));
    assert.deepEqual(shown(second.text), newestFirst.slice(20));
    const visitor = new WebClient(t);
    const seen = shown((await visitor.get('/explore/snippets')).text);
    assert.deepEqual(
      seen,
      newestFirst.filter((title) => title.endsWith('pub')),
    );
  });

  it('personal snippets: yours on the dashboard, public ones on Explore, pages and raw', async () => {
    const author = roles.users.developer;
    const make = async (title: string, visibility: string) => {
      const made = await t.request('POST', '/api/v4/snippets', {
        token: author.token,
        body: { title, file_name: 'x.py', content: `print("${title}")\n`, visibility },
      });
      assert.equal(made.status, 201, made.text);
      return made.body.id as number;
    };
    const mine = await make('Mine alone', 'private');
    const shared = await make('For everyone', 'public');
    const inProject = await makeSnippet(open, author.token, {
      title: 'Written in a project',
      file_name: 'p.txt',
      code: 'p\n',
      visibility: 'public',
    });
    const web = await signedInClient(t, author);
    const redirect = await web.get('/snippets');
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.location, '/dashboard/snippets');
    const dashboard = await web.get('/dashboard/snippets');
    assert.equal(dashboard.status, 200);
    assert.match(dashboard.text, /Mine alone/);
    assert.match(dashboard.text, /For everyone/);
    // 8.13's by_user: the project snippets you wrote too, linked under their project.
    assert.match(dashboard.text, new RegExp(`href="/${open.fullPath}/snippets/${inProject}"`));
    assert.match(dashboard.text, new RegExp(`href="/snippets/${mine}"`));
    const visitor = new WebClient(t);
    assert.equal((await visitor.get('/snippets')).headers.location, '/explore/snippets');
    const explore = await visitor.get('/explore/snippets');
    assert.equal(explore.status, 200);
    assert.match(explore.text, /For everyone/);
    assert.doesNotMatch(explore.text, /Mine alone/);
    assert.equal((await visitor.get('/dashboard/snippets')).status, 302);
    const page = await visitor.get(`/snippets/${shared}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<span class="hljs-built_in">print<\/span>/);
    assert.equal((await visitor.get(`/snippets/${shared}/raw`)).text, 'print("For everyone")\n');
    assert.equal((await visitor.get(`/snippets/${mine}`)).status, 302);
    const stranger = await signedInClient(t, roles.users.stranger);
    assert.equal((await stranger.get(`/snippets/${mine}`)).status, 404);
    assert.equal((await stranger.get(`/snippets/${mine}/raw`)).status, 404);
    assert.equal((await stranger.get(`/snippets/${shared}/edit`)).status, 404);
    // The author's forms.
    const created = await web.post('/snippets', {
      'personal_snippet[title]': 'From the form',
      'personal_snippet[file_name]': 'f.sh',
      'personal_snippet[content]': 'echo hi',
      'personal_snippet[visibility_level]': '0',
    });
    assert.equal(created.status, 302);
    const url = String(created.headers.location);
    assert.match((await web.get(url)).text, /echo/);
    assert.equal((await web.get(`${url}/edit`)).status, 200);
    const edited = await web.post(url, {
      'personal_snippet[title]': 'From the form, edited',
      'personal_snippet[file_name]': 'f.sh',
      'personal_snippet[content]': 'echo bye',
      'personal_snippet[visibility_level]': '0',
    });
    assert.equal(edited.status, 302);
    assert.match((await web.get(url)).text, /From the form, edited/);
    const deleted = await web.post(`${url}/delete`);
    assert.equal(deleted.status, 302);
    assert.equal((await web.get(url)).status, 404);
  });
});
