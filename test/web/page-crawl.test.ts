// People's paths through the pages: one instance seeded through the API with a bit of everything (a group
// and its project with commits, branches, tags, a README with relative links, issues with labels,
// milestones and comments, a merge request, a pipeline whose builds have traces or not, wiki pages,
// snippets, a board, an environment, a deploy key, a hook), then every same-origin link reachable from `/`
// followed for the administrator, a developer of the project and a signed-out visitor. A link a page
// shows must answer its viewer (no 4xx or 5xx, no sign-in redirect) and every page must have a title.
// Links that change state are POST forms and are left alone; GET forms are followed by their action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { seedPipeline } from '../helpers/ci.ts';
import { openTopicMergeRequest } from '../helpers/merge-requests.ts';
import { WebClient } from '../helpers/web.ts';
import { AccessLevel } from '../../src/domain/types.ts';

const ORIGIN = 'http://labrador.test';
/** Pages fetched per viewer at most: well above what the seed leads to, so the bound is a guard only. */
const PAGE_CAP = 1500;
/** Distinct URLs of one shape (refs, shas, numbers and query values normalised) fetched per viewer. */
const SHAPE_CAP = 4;
// One tiny PNG (1×1, transparent).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

interface Link {
  url: string;
  from: string;
}

interface CrawlResult {
  pages: number;
  /** Every URL the crawl asked for. */
  reached: Set<string>;
  failures: string[];
}

const entity = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return match ? entity(match[1] ?? match[2] ?? '') : undefined;
};

/** Same-origin path (with query) of an href on `page`, or undefined for other origins and schemes. */
const resolve = (href: string, page: string): string | undefined => {
  if (href === '' || href.startsWith('#') || /^(mailto|javascript|data):/i.test(href)) return undefined;
  const url = new URL(href, ORIGIN + page);
  if (url.origin !== ORIGIN) return undefined;
  return url.pathname + url.search;
};

/** Links and GET forms a page shows; POST forms (every change of state) are not links. */
const linksOf = (html: string, page: string): string[] => {
  const found: string[] = [];
  for (const [tag] of html.matchAll(/<a\s[^>]*>/gi)) {
    const href = attribute(tag, 'href');
    if (href === undefined || attribute(tag, 'data-method') !== undefined) continue;
    const url = resolve(href, page);
    if (url) found.push(url);
  }
  for (const [form, tag] of html.matchAll(/(<form\s[^>]*>)[\s\S]*?<\/form>/gi)) {
    if ((attribute(tag!, 'method') ?? 'get').toLowerCase() !== 'get') continue;
    const url = resolve(attribute(tag!, 'action') ?? page, page);
    if (url) found.push(submitted(url, form));
  }
  return found;
};

/** A GET form's URL as a browser submits it untouched: its inputs' values, each select's chosen option. */
const submitted = (action: string, form: string): string => {
  const url = new URL(action, ORIGIN);
  const fields = new URLSearchParams();
  for (const [tag] of form.matchAll(/<input\s[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    const type = (attribute(tag, 'type') ?? 'text').toLowerCase();
    if (name === undefined || type === 'submit' || type === 'button') continue;
    if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(tag)) continue;
    fields.append(name, attribute(tag, 'value') ?? '');
  }
  for (const [, tag, options] of form.matchAll(/(<select\s[^>]*>)([\s\S]*?)<\/select>/gi)) {
    const name = attribute(tag!, 'name');
    const all = [...options!.matchAll(/<option\s[^>]*>/gi)].map(([option]) => option);
    const chosen = all.find((option) => /\sselected\b/i.test(option)) ?? all[0];
    if (name !== undefined && chosen) fields.append(name, attribute(chosen, 'value') ?? '');
  }
  const query = fields.toString();
  return query === '' ? url.pathname + url.search : `${url.pathname}?${query}`;
};

/** Downloads and raw files: asked for with HEAD and never read for links. */
const isDownload = (path: string) =>
  /\/(raw|artifacts\/download|artifacts\/file|repository\/archive)(\/|$|\.)|\.(zip|tar\.gz|tar|patch|diff)$/.test(
    path.split('?')[0]!,
  ) || path.startsWith('/uploads/');

const shapeOf = (url: string) => {
  const [path, query = ''] = url.split('?');
  const keys = [...new URLSearchParams(query).keys()].sort().join('&');
  const shape = path!
    .replace(/^(\/[^/]+\/[^/]+\/(?:blob|tree|raw|commits|edit|new))\/[^/]+(?=\/)/, '$1/:ref')
    .replace(/\/[0-9a-f]{40}(?=\/|$)/g, '/:sha')
    .replace(/\/\d+(?=\/|$)/g, '/:n');
  return `${shape}?${keys}`;
};

async function crawl(web: WebClient, viewer: string): Promise<CrawlResult> {
  const seen = new Set<string>(['/']);
  const reached = new Set<string>();
  const shapes = new Map<string, number>();
  const queue: Link[] = [{ url: '/', from: '(start)' }];
  const failures: string[] = [];
  let pages = 0;
  const offer = (url: string, from: string) => {
    if (seen.has(url)) return;
    seen.add(url);
    const shape = shapeOf(url);
    const count = shapes.get(shape) ?? 0;
    if (count >= SHAPE_CAP) return;
    shapes.set(shape, count + 1);
    queue.push({ url, from });
  };
  while (queue.length > 0 && pages < PAGE_CAP) {
    const { url, from } = queue.shift()!;
    pages++;
    reached.add(url);
    const download = isDownload(url);
    const answer = await web.request(download ? 'HEAD' : 'GET', url);
    const where = `${viewer}: ${url} (shown on ${from})`;
    if (answer.status >= 300 && answer.status < 400) {
      const location = String(answer.headers.location ?? '');
      const target = resolve(location, url);
      if (target?.startsWith('/users/sign_in')) failures.push(`${where} -> ${answer.status} to sign-in`);
      else if (target) offer(target, `${url} (redirect)`);
      continue;
    }
    if (answer.status >= 400) {
      failures.push(`${where} -> ${answer.status}`);
      continue;
    }
    const type = String(answer.headers['content-type'] ?? '');
    if (download || !type.startsWith('text/html')) continue;
    if (!/<title>[^<]*\S[^<]*<\/title>/.test(answer.text)) failures.push(`${where}: no <title>`);
    for (const link of linksOf(answer.text, url)) offer(link, url);
  }
  if (queue.length > 0) failures.push(`${viewer}: the crawl stopped at ${PAGE_CAP} pages`);
  return { pages, reached, failures };
}

describe('pages: every link shown answers its viewer', () => {
  let t: TestApp;
  let developer: TestUser;
  const results = new Map<string, CrawlResult>();

  const api = async (method: string, url: string, body: Record<string, unknown>, token = t.rootToken) => {
    const answer = await t.request(method, url, { token, body });
    assert.ok(answer.status < 300, `${method} ${url}: ${answer.status} ${answer.text}`);
    return answer.body;
  };

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    developer = await createUser(t, 'crawldev');
    const group = await api('POST', '/api/v3/groups', { name: 'Crawl', path: 'crawl', visibility_level: 20 });
    const project = await api('POST', '/api/v3/projects', {
      name: 'site',
      namespace_id: group.id,
      visibility_level: 20,
    });
    const id = project.id as number;
    await api('POST', `/api/v3/projects/${id}/members`, {
      user_id: developer.id,
      access_level: AccessLevel.Developer,
    });
    const write = (file: string, content: string, branch = 'master', encoding?: string) =>
      api('POST', `/api/v3/projects/${id}/repository/files`, {
        file_path: file,
        branch_name: branch,
        content,
        commit_message: `Add ${file}`,
        ...(encoding ? { encoding } : {}),
      });
    // Each file is written before the first one that links to it, so every commit's links resolve.
    await write('CHANGELOG.md', '# Changes\n\n- one\n');
    await write('docs/logo.png', PNG, 'master', 'base64');
    await write('docs/b.md', '# B\n\n![logo](logo.png)\n');
    await write('docs/a.md', '# A\n\nNext: [b](b.md), back to [the changes](../CHANGELOG.md).\n');
    await write('docs/README.md', '# Docs\n\nStart at [a](a.md).\n');
    await write(
      'README.md',
      '# Site\n\nSee [a](docs/a.md), [the docs](docs), [up](./CHANGELOG.md) and ![logo](docs/logo.png).\n',
    );
    await api('PUT', `/api/v3/projects/${id}`, { name: 'site', default_branch: 'master' });
    await api('POST', `/api/v3/projects/${id}/repository/branches`, {
      branch_name: 'feature',
      ref: 'master',
    });
    await write('docs/feature.md', '# Feature\n\nSee [a](a.md).\n', 'feature');
    await api('PUT', `/api/v3/projects/${id}/repository/files`, {
      file_path: 'README.md',
      branch_name: 'feature',
      content: '# Site (feature)\n\nNew: [only here](docs/feature.md).\n',
      commit_message: 'Point at the feature docs',
    });
    await api('POST', `/api/v3/projects/${id}/repository/tags`, { tag_name: 'v1.0', ref: 'master' });
    await api('POST', `/api/v3/projects/${id}/repository/tags`, {
      tag_name: 'v1.1',
      ref: 'feature',
      message: 'Annotated',
      release_description: 'Notes with [a link](docs/a.md)',
    });
    await openTopicMergeRequest(t, t.rootToken, id);

    await api('POST', `/api/v3/projects/${id}/labels`, { name: 'bug', color: '#d9534f' });
    await api('POST', `/api/v3/projects/${id}/labels`, { name: 'feature', color: '#5cb85c' });
    const milestone = await api('POST', `/api/v3/projects/${id}/milestones`, { title: 'v2' });
    for (const [index, title] of ['Broken link', 'Add search', 'Closed one'].entries()) {
      const issue = await api('POST', `/api/v3/projects/${id}/issues`, {
        title,
        description: `Issue ${index} about \`docs/a.md\`, see #1 and !1`,
        labels: index === 0 ? 'bug' : 'feature',
        milestone_id: index < 2 ? milestone.id : undefined,
        assignee_id: developer.id,
      });
      await api('POST', `/api/v3/projects/${id}/issues/${issue.id}/notes`, { body: `Comment on ${title}` });
      if (index === 2)
        await api('PUT', `/api/v3/projects/${id}/issues/${issue.id}`, { state_event: 'close' });
    }

    const master = await api('GET', `/api/v3/projects/${id}/repository/branches/master`, {});
    await seedPipeline(
      t,
      { id },
      {
        sha: master.commit.id,
        status: 'failed',
        userId: developer.id,
        builds: [
          {
            name: 'compile',
            stage: 'build',
            stageIdx: 0,
            status: 'success',
            trace: 'compiling\ndone\n',
            artifacts: { 'out/a.txt': 'artifact\n' },
          },
          { name: 'unit', stage: 'test', stageIdx: 1, status: 'failed', trace: 'boom\n' },
          { name: 'lint', stage: 'test', stageIdx: 1, status: 'canceled', startedAt: null },
          {
            name: 'deploy',
            stage: 'deploy',
            stageIdx: 2,
            status: 'skipped',
            when: 'manual',
            startedAt: null,
          },
        ],
      },
    );

    for (const [title, content] of [
      ['home', 'Welcome, see [setup](setup).'],
      ['setup', 'Install it.'],
    ])
      await api('POST', `/api/v4/projects/${id}/wikis`, { title, content });
    await api('POST', `/api/v3/projects/${id}/snippets`, {
      title: 'Project snippet',
      file_name: 'hello.rb',
      code: 'puts 1\n',
      visibility_level: 20,
    });
    await api('POST', '/api/v4/snippets', {
      title: 'Personal snippet',
      file_name: 'note.md',
      content: '# Note\n',
      visibility: 'public',
    });
    await api(
      'POST',
      `/api/v4/snippets`,
      {
        title: 'Developer snippet',
        file_name: 'dev.txt',
        content: 'dev\n',
        visibility: 'internal',
      },
      developer.token,
    );
    await api('GET', `/api/v3/projects/${id}/boards`, {});
    await api('POST', `/api/v3/projects/${id}/environments`, {
      name: 'production',
      external_url: 'https://example.com',
    });
    await api('POST', `/api/v3/projects/${id}/keys`, {
      title: 'deployer',
      key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAgAJjh3gNzm8tWf2sOQdRLJOUEeyubbGQaRnt00uhBv deploy@labrador.test',
    });
    await api('POST', `/api/v3/projects/${id}/hooks`, { url: 'https://hooks.example.com/site' });
    // A second project of the group without a wiki page or a pipeline, where the empty pages show.
    await api('POST', '/api/v3/projects', { name: 'empty', namespace_id: group.id, visibility_level: 20 });
    // A public project whose builds only its members read, with a pipeline nobody else may open.
    const closed = await api('POST', '/api/v3/projects', {
      name: 'closed-builds',
      namespace_id: group.id,
      visibility_level: 20,
      public_builds: false,
    });
    await api('POST', `/api/v3/projects/${closed.id}/repository/files`, {
      file_path: 'README.md',
      branch_name: 'master',
      content: '# Closed builds\n',
      commit_message: 'Add README.md',
    });
    const closedMaster = await api('GET', `/api/v3/projects/${closed.id}/repository/branches/master`, {});
    await seedPipeline(t, closed, {
      sha: closedMaster.commit.id,
      builds: [{ name: 'secret', status: 'success', trace: 'secret\n' }],
    });
    const closedTopic = await openTopicMergeRequest(t, t.rootToken, closed.id);
    await seedPipeline(t, closed, {
      sha: closedTopic.sha,
      ref: 'topic',
      builds: [{ name: 'topic secret', status: 'failed', trace: 'secret\n' }],
    });

    for (const [viewer, web] of [
      ['signed out', new WebClient(t)],
      ['developer', await signIn(developer.username, developer.password)],
      ['administrator', await signIn('root', t.rootPassword)],
    ] as const) {
      const started = process.hrtime.bigint();
      const result = await crawl(web, viewer);
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      console.log(`# crawl ${viewer}: ${result.pages} pages in ${ms} ms`);
      results.set(viewer, result);
    }
  });
  after(() => t.close());

  const signIn = async (login: string, password: string) => {
    const web = new WebClient(t);
    const answer = await web.signIn(login, password);
    assert.equal(answer.status, 302, answer.text);
    return web;
  };

  for (const viewer of ['signed out', 'developer', 'administrator']) {
    it(`${viewer}: every link shown answers and every page has a title`, () => {
      const result = results.get(viewer)!;
      assert.deepEqual(result.failures, []);
      // The paths of 8.13's navigation are among the links, so the crawl went where people go.
      const expected = [
        '/explore/projects',
        '/explore/groups',
        '/explore/snippets',
        '/crawl/site/tree/master/docs',
        '/crawl/site/blob/master/docs/a.md',
        '/crawl/site/wikis/setup',
        '/crawl/empty/wikis/home',
        '/crawl/site/pipelines',
        '/crawl/site/builds',
        '/crawl/site/snippets',
        '/crawl/site/boards',
        '/crawl/site/merge_requests/1/diffs',
        ...(viewer === 'signed out' ? [] : ['/dashboard/snippets', '/crawl/site/environments']),
        ...(viewer === 'administrator'
          ? ['/admin/users', '/crawl/site/hooks', '/crawl/site/deploy_keys']
          : []),
      ];
      assert.deepEqual(
        expected.filter((url) => !result.reached.has(url)),
        [],
      );
    });
  }

  it("a README's relative links lead into its own ref; blob and tree URLs swap for a directory and a file", async () => {
    const web = new WebClient(t);
    const links = async (url: string) => {
      const page = await web.get(url);
      assert.equal(page.status, 200, url);
      return linksOf(page.text, url);
    };
    const home = await links('/crawl/site');
    for (const url of ['/crawl/site/blob/master/docs/a.md', '/crawl/site/blob/master/CHANGELOG.md'])
      assert.ok(home.includes(url), url);
    assert.ok(
      (await links('/crawl/site/blob/feature/README.md')).includes(
        '/crawl/site/blob/feature/docs/feature.md',
      ),
    );
    const a = await links('/crawl/site/blob/v1.0/docs/a.md');
    for (const url of ['/crawl/site/blob/v1.0/docs/b.md', '/crawl/site/blob/v1.0/CHANGELOG.md'])
      assert.ok(a.includes(url), url);
    const dir = await web.get('/crawl/site/blob/feature/docs');
    assert.equal(dir.status, 302);
    assert.equal(dir.headers.location, '/crawl/site/tree/feature/docs');
    assert.equal((await web.get('/crawl/site/blob/feature/nothing')).status, 404);
    const file = await web.get('/crawl/site/tree/feature/docs/feature.md');
    assert.equal(file.status, 302);
    assert.equal(file.headers.location, '/crawl/site/blob/feature/docs/feature.md');
    assert.equal((await web.get('/crawl/site/tree/feature/nothing')).status, 404);
  });

  it('who may not read builds is shown no build links', () => {
    for (const viewer of ['signed out', 'developer']) {
      const builds = [...results.get(viewer)!.reached].filter((url) =>
        /^\/crawl\/closed-builds\/(builds|merge_requests\/\d+\/builds)/.test(url),
      );
      assert.deepEqual(builds, [], viewer);
    }
    const seen = [...results.get('administrator')!.reached];
    for (const url of ['/crawl/closed-builds/builds', '/crawl/closed-builds/merge_requests/1/builds'])
      assert.ok(seen.includes(url), `the administrator reads ${url}`);
  });
});
