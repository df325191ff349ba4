// v4's project wikis: the WikiPageBasic and WikiPage shapes, create (201), one page (raw, `render_html`,
// an old `version`), edit and rename, delete (204), who may (guests read a public project's wiki,
// reporters cannot write, developers cannot delete, strangers get 404 on a private project, a wiki that
// is off is 403), the files gollum would have written, and the wiki page hook compared field by field.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createProjectTeam, createUser, type ProjectTeam, type TestUser } from '../../helpers/factory.ts';
import { startReceiver, type Receiver } from '../../helpers/receiver.ts';

describe('API v4 wikis', () => {
  let t: TestApp;
  let team: ProjectTeam;
  let base: string;
  let receiver: Receiver;
  let outsider: TestUser;
  let wikiRepo: string;

  const call = (method: string, url: string, token?: string, body?: Record<string, unknown>) =>
    t.request(method, url, { token, body });
  const gitIn = (...args: string[]) => execFileSync('git', args, { cwd: wikiRepo, encoding: 'utf8' });

  before(async () => {
    t = await startTestApp();
    team = await createProjectTeam(t, 'wikied', {
      owner: 'wanda',
      developer: 'wade',
      reporter: 'wren',
      stranger: 'wolf',
    });
    outsider = await createUser(t, 'wilma');
    base = `/api/v4/projects/${team.project.id}/wikis`;
    wikiRepo = path.join(path.dirname(team.project.repoPath), 'wikied.wiki.git');
    receiver = await startReceiver();
    const hook = await call('POST', `/api/v4/projects/${team.project.id}/hooks`, team.owner.token, {
      url: receiver.url,
      push_events: false,
      wiki_page_events: true,
    });
    assert.equal(hook.status, 201, hook.text);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('creates a page as gollum stored it and announces it to wiki page hooks', async () => {
    const empty = await call('GET', base, team.developer.token);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body, []);
    assert.equal(empty.headers['x-total'], '0');

    const created = await call('POST', base, team.developer.token, {
      title: 'Getting Started',
      content: 'Read [[Install Guide]] first, then [the FAQ](faq).',
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body, {
      format: 'markdown',
      slug: 'Getting-Started',
      title: 'Getting Started',
      content: 'Read [[Install Guide]] first, then [the FAQ](faq).',
      encoding: 'UTF-8',
    });
    // One file on master, named as gollum named it, in a commit by the caller with GitLab's message.
    assert.equal(gitIn('ls-tree', '--name-only', 'master'), 'Getting-Started.md\n');
    assert.equal(
      gitIn('log', '-1', '--format=%an <%ae>|%s', 'master').trim(),
      `${team.developer.name} <${team.developer.email}>|wade created page: Getting Started`,
    );

    await t.server.hookWorker.drain();
    const [delivery] = await receiver.waitFor(1);
    assert.equal(delivery.headers['x-gitlab-event'], 'Wiki Page Hook');
    const external = t.config.externalUrl;
    const sshBase = t.config.ssh.cloneUrlBase;
    const full = team.project.fullPath;
    assert.deepEqual(delivery.body, {
      object_kind: 'wiki_page',
      user: {
        name: team.developer.name,
        username: 'wade',
        avatar_url: delivery.body.user.avatar_url,
      },
      project: {
        name: 'wikied',
        description: 'About wikied',
        web_url: `${external}/${full}`,
        avatar_url: null,
        git_ssh_url: `${sshBase}${full}.git`,
        git_http_url: `${external}/${full}.git`,
        namespace: team.project.namespacePath,
        visibility_level: 0,
        path_with_namespace: full,
        default_branch: 'master',
        homepage: `${external}/${full}`,
        url: `${sshBase}${full}.git`,
        ssh_url: `${sshBase}${full}.git`,
        http_url: `${external}/${full}.git`,
      },
      wiki: {
        web_url: `${external}/${full}/wikis/home`,
        git_ssh_url: `${sshBase}${full}.wiki.git`,
        git_http_url: `${external}/${full}.wiki.git`,
        path_with_namespace: `${full}.wiki`,
        default_branch: 'master',
      },
      object_attributes: {
        title: 'Getting Started',
        content: 'Read [[Install Guide]] first, then [the FAQ](faq).',
        format: 'markdown',
        message: 'wade created page: Getting Started',
        slug: 'Getting-Started',
        url: `${external}/${full}/wikis/Getting-Started`,
        action: 'create',
      },
    });
    assert.match(delivery.body.user.avatar_url, /gravatar|avatar/);
  });

  it('reads a page raw, rendered with wiki links, and at an older version', async () => {
    const raw = await call('GET', `${base}/Getting-Started`, team.reporter.token);
    assert.equal(raw.status, 200, raw.text);
    assert.equal(raw.body.content, 'Read [[Install Guide]] first, then [the FAQ](faq).');
    // The slug matches case-insensitively, as gollum's lookup did.
    assert.equal(
      (await call('GET', `${base}/getting-started`, team.reporter.token)).body.slug,
      'Getting-Started',
    );
    const html = await call('GET', `${base}/Getting-Started?render_html=true`, team.reporter.token);
    assert.equal(
      html.body.content,
      `<p>Read <a href="/${team.project.fullPath}/wikis/Install-Guide">Install Guide</a> first, then ` +
        `<a href="/${team.project.fullPath}/wikis/faq">the FAQ</a>.</p>\n`,
    );
    const first = gitIn('rev-parse', 'master').trim();
    const edited = await call('PUT', `${base}/Getting-Started`, team.developer.token, {
      content: 'Second text',
    });
    assert.equal(edited.status, 200, edited.text);
    assert.equal(edited.body.content, 'Second text');
    assert.equal(
      (await call('GET', `${base}/Getting-Started`, team.reporter.token)).body.content,
      'Second text',
    );
    const old = await call('GET', `${base}/Getting-Started?version=${first}`, team.reporter.token);
    assert.equal(old.status, 200, old.text);
    assert.equal(old.body.content, 'Read [[Install Guide]] first, then [the FAQ](faq).');
    const unknown = await call(
      'GET',
      `${base}/Getting-Started?version=${'0'.repeat(40)}`,
      team.reporter.token,
    );
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Wiki Page Not Found' });
  });

  it('renames a page when its title changes, keeping one file; refuses a title taken', async () => {
    await call('POST', base, team.developer.token, { title: 'Other', content: 'other page' });
    const renamed = await call('PUT', `${base}/Getting-Started`, team.developer.token, {
      title: 'Start Here',
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(
      [renamed.body.slug, renamed.body.title, renamed.body.content],
      ['Start-Here', 'Start Here', 'Second text'],
    );
    assert.equal(gitIn('ls-tree', '--name-only', 'master'), 'Other.md\nStart-Here.md\n');
    assert.equal((await call('GET', `${base}/Getting-Started`, team.reporter.token)).status, 404);
    const taken = await call('PUT', `${base}/Start-Here`, team.developer.token, { title: 'other' });
    assert.equal(taken.status, 400, taken.text);
    assert.deepEqual(taken.body, {
      message: { base: ['Duplicate page: A page with that title already exists'] },
    });
    const duplicate = await call('POST', base, team.developer.token, { title: 'OTHER', content: 'x' });
    assert.equal(duplicate.status, 400);

    const list = await call('GET', `${base}?with_content=true`, team.reporter.token);
    assert.deepEqual(list.body, [
      { format: 'markdown', slug: 'Other', title: 'Other', content: 'other page', encoding: 'UTF-8' },
      {
        format: 'markdown',
        slug: 'Start-Here',
        title: 'Start Here',
        content: 'Second text',
        encoding: 'UTF-8',
      },
    ]);
    const paged = await call('GET', `${base}?per_page=1&page=2`, team.reporter.token);
    assert.deepEqual(paged.body, [{ format: 'markdown', slug: 'Start-Here', title: 'Start Here' }]);
    assert.equal(paged.headers['x-total'], '2');
  });

  it('pages in a directory, other formats, and bad input (400)', async () => {
    const nested = await call('POST', base, team.developer.token, {
      title: 'guides/Deploy Now',
      content: 'See [setup](./setup.md) and [[Other]].',
      format: 'rdoc',
    });
    assert.equal(nested.status, 201, nested.text);
    assert.deepEqual(
      [nested.body.slug, nested.body.title, nested.body.format],
      ['guides/Deploy-Now', 'Deploy Now', 'rdoc'],
    );
    assert.match(gitIn('ls-tree', '-r', '--name-only', 'master'), /^guides\/Deploy-Now\.rdoc$/m);
    const one = await call('GET', `${base}/${encodeURIComponent('guides/Deploy-Now')}`, team.reporter.token);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.format, 'rdoc');

    const missing = await call('POST', base, team.developer.token, { title: 'No content' });
    assert.deepEqual([missing.status, missing.body], [400, { error: 'content is missing' }]);
    const badFormat = await call('POST', base, team.developer.token, {
      title: 'x',
      content: 'y',
      format: 'wiki',
    });
    assert.deepEqual(
      [badFormat.status, badFormat.body],
      [400, { error: 'format does not have a valid value' }],
    );
    const traversal = await call('POST', base, team.developer.token, { title: '../escape', content: 'y' });
    assert.deepEqual([traversal.status, traversal.body], [400, { message: { title: ['is invalid'] } }]);
    const nothing = await call('PUT', `${base}/Other`, team.developer.token, {});
    assert.deepEqual(nothing.body, {
      error: 'content, title, format are missing, at least one parameter must be provided',
    });
  });

  it('checks who may read, write and delete', async () => {
    assert.equal((await call('GET', base, outsider.token)).status, 404);
    assert.equal((await call('GET', `${base}/Other`)).status, 401);
    const reporterWrite = await call('POST', base, team.reporter.token, { title: 'R', content: 'r' });
    assert.equal(reporterWrite.status, 403);
    const developerDelete = await call('DELETE', `${base}/Other`, team.developer.token);
    assert.equal(developerDelete.status, 403);
    const anonymousWrite = await call('POST', base, undefined, { title: 'A', content: 'a' });
    assert.equal(anonymousWrite.status, 401);

    const deleted = await call('DELETE', `${base}/Other`, team.owner.token);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal((await call('GET', `${base}/Other`, team.owner.token)).status, 404);
    assert.equal((await call('DELETE', `${base}/Other`, team.owner.token)).status, 404);
    assert.equal(gitIn('log', '-1', '--format=%s', 'master').trim(), 'wanda deleted page: Other');

    // A public project's wiki is read by anyone; a wiki that is off by nobody.
    const opened = await call('PUT', `/api/v4/projects/${team.project.id}`, team.owner.token, {
      visibility: 'public',
    });
    assert.equal(opened.status, 200, opened.text);
    assert.equal((await call('GET', `${base}/Start-Here`, outsider.token)).status, 200);
    assert.equal((await call('GET', base, outsider.token)).status, 200);
    await call('PUT', `/api/v4/projects/${team.project.id}`, team.owner.token, { wiki_enabled: false });
    assert.equal((await call('GET', base, outsider.token)).status, 403);
    assert.equal((await call('GET', base, team.owner.token)).status, 403);
    await call('PUT', `/api/v4/projects/${team.project.id}`, team.owner.token, { wiki_enabled: true });

    // Every write so far was announced: create, update, rename (update), create, create, delete.
    await t.server.hookWorker.drain();
    const received = await receiver.waitFor(6);
    assert.deepEqual(
      // Deliveries run concurrently and arrive in any order: compared sorted.
      received
        .map((hook) => `${hook.body.object_attributes.action} ${hook.body.object_attributes.slug}`)
        .sort(),
      [
        'create Getting-Started',
        'create Other',
        'create guides/Deploy-Now',
        'delete Other',
        'update Getting-Started',
        'update Start-Here',
      ],
    );
  });
});
