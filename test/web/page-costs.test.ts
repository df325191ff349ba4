// What the four pages issue 24 names cost, pinned: the project page, a tree of 1,000 entries, a
// 2,000-line blob and a commit with 100 changed files (and a 2,000-line snippet) each take a fixed
// number of SQL statements and git processes, the same as their small counterparts (a tree of 2
// entries, a 3-line blob, a commit of 1 file, a 3-line snippet), however large they are.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { stopClockWorkers, startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { WebClient } from '../helpers/web.ts';
import { gitSpawns } from '../../src/git/exec.ts';

interface Cost {
  status: number;
  queries: number;
  git: string[];
}

describe('statements and git processes per repository page', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: TestProject;
  let web: WebClient;
  let bigCommit: string;
  let smallCommit: string;
  const snippetIds: number[] = [];
  const client = new GitClient();

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    const base = await listen(t);
    owner = await createUser(t, 'costly');
    project = await createProject(t, { owner, path: 'big', visibility: 20 });
    const dir = await client.workTree('big');
    const write = (name: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    };
    write('README.md', '# Big\n\nSee [the code](src/long.js).\n');
    write('src/short.js', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    write(
      'src/long.js',
      Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i}; // line ${i}`).join('\n'),
    );
    write('few/a.txt', 'a\n');
    write('few/b.txt', 'b\n');
    write('dir with space/x y.txt', 'spaced out\n');
    for (let i = 0; i < 1000; i++) write(`many/file-${String(i).padStart(4, '0')}.txt`, `${i}\n`);
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'Many files'], dir);
    for (let i = 0; i < 100; i++) write(`changed/file-${i}.txt`, `changed ${i}\n`);
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'A hundred files'], dir);
    bigCommit = (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
    write('src/short.js', 'const a = 1;\nconst b = 2;\nconst c = 4;\n');
    await client.ok(['commit', '-q', '-am', 'One file'], dir);
    smallCommit = (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
    await client.ok(
      ['push', '-q', repoUrl(base, project.fullPath, owner.username, owner.password), 'master'],
      dir,
    );
    await t.server.deps.pushQueue.drain();
    for (const lines of [3, 2000]) {
      const content = Array.from({ length: lines }, (_, i) => `const v${i} = ${i};`).join('\n');
      const made = await t.request('POST', `/api/v4/projects/${project.id}/snippets`, {
        token: owner.token,
        body: { title: `${lines} lines`, file_name: 'x.js', content, visibility: 'public' },
      });
      assert.equal(made.status, 201, made.text);
      snippetIds.push(made.body.id);
    }
    web = new WebClient(t);
    assert.equal((await web.signIn(owner.username, owner.password)).status, 302);
  });
  after(async () => {
    gitSpawns.observe = undefined;
    t.server.deps.db.onQuery = undefined;
    await t?.close();
    client.close();
  });

  /** One page read, counting statements and the git processes started in this project's repository. */
  async function cost(url: string): Promise<Cost> {
    const result: Cost = { status: 0, queries: 0, git: [] };
    t.server.deps.db.onQuery = () => {
      result.queries += 1;
    };
    gitSpawns.observe = (args, cwd) => {
      if (cwd === project.repoPath) result.git.push(args.filter((arg) => !arg.startsWith('-')).join(' '));
    };
    try {
      result.status = (await web.get(url)).status;
    } finally {
      t.server.deps.db.onQuery = undefined;
      gitSpawns.observe = undefined;
    }
    return result;
  }

  /** The second read of a page (the first fills the caches of what never changes). */
  async function warmCost(url: string): Promise<Cost> {
    assert.equal((await cost(url)).status, 200);
    return cost(url);
  }

  it('a first read of a directory also walks history once for its last commit', async () => {
    const first = await cost(`/${project.fullPath}/tree/master/src`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.git, ['cat-file', `rev-list ${smallCommit} src`]);
  });

  it('reads tags (loose and packed), short ids and spaced names; 404 for what names nothing', async () => {
    const tagged = await t.request('POST', `/api/v3/projects/${project.id}/repository/tags`, {
      token: owner.token,
      body: { tag_name: 'v1', ref: smallCommit, message: 'Annotated' },
    });
    assert.equal(tagged.status, 201);
    const p = `/${project.fullPath}`;
    const readAll = async () => [
      (await web.get(`${p}/tree/v1/few`)).text.includes('b.txt'),
      (await web.get(`${p}/blob/v1/dir%20with%20space/x%20y.txt`)).text.includes('spaced out'),
      (await web.get(`${p}/commit/${smallCommit.slice(0, 8)}`)).text.includes('One file'),
      (await web.get(`${p}/commits/v1`)).text.includes('A hundred files'),
    ];
    assert.deepEqual(await readAll(), [true, true, true, true]);
    await client.ok(['pack-refs', '--all'], project.repoPath);
    assert.deepEqual(await readAll(), [true, true, true, true]);
    const statuses = [];
    for (const url of [
      `${p}/tree/master/src/short.js`,
      `${p}/tree/no-such-ref`,
      `${p}/blob/master/no/such/file`,
      `${p}/commit/0123456789abcdef`,
    ]) {
      statuses.push((await web.get(url)).status);
    }
    // A tree URL of a file is sent to its blob page (8.13's TreeController); the rest name nothing.
    assert.deepEqual(statuses, [302, 404, 404, 404]);
    // A blob URL of a directory names its tree.
    const dir = await web.get(`${p}/blob/master/few`);
    assert.equal(dir.status, 302);
    assert.equal(dir.headers.location, `${p}/tree/master/few`);
  });

  it('pins each page, and a large one costs what a small one does', async () => {
    const p = `/${project.fullPath}`;
    const pages = {
      project: [p, p],
      tree: [`${p}/tree/master/few`, `${p}/tree/master/many`],
      blob: [`${p}/blob/master/src/short.js`, `${p}/blob/master/src/long.js`],
      commit: [`${p}/commit/${smallCommit}`, `${p}/commit/${bigCommit}`],
      snippet: snippetIds.map((id) => `${p}/snippets/${id}`),
    };
    const found: Record<string, { queries: number; git: number }> = {};
    for (const [name, [small, large]] of Object.entries(pages)) {
      const a = await warmCost(small);
      const b = await warmCost(large);
      assert.equal(b.status, 200);
      assert.deepEqual(b.git.length, a.git.length, `${name}: ${a.git.join(', ')} vs ${b.git.join(', ')}`);
      assert.equal(b.queries, a.queries, name);
      found[name] = { queries: b.queries, git: b.git.length };
    }
    // Statements: the session, the broadcast messages showing now (a read the read cache answers until a
    // change or the next minute), the project, the viewer's access (and a commit's newest pipeline; the
    // signed-in viewer's star on the project page, for its Star or Unstar button). git: one
    // `cat-file --batch-command` for every object a page reads (refs come from the ref files), plus
    // `diff-tree` for a commit's diff.
    assert.deepEqual(found, {
      // The project page also reads the viewer's notification level for its menu.
      project: { queries: 6, git: 1 },
      tree: { queries: 4, git: 1 },
      blob: { queries: 4, git: 1 },
      // The commit page also counts and lists its comments (authors and diff lines only when it has some).
      commit: { queries: 7, git: 2 },
      // A snippet page: the four every project page reads, then the snippet, its author, its notes' count
      // and page, its thumbs' counts and the viewer's own awards; no git (the highlighted rows of a long
      // snippet are cut as a blob's are).
      snippet: { queries: 10, git: 0 },
    });
  });
});

describe('statements and git processes per wiki page', () => {
  let t: TestApp;
  let owner: TestUser;
  let small: TestProject;
  let large: TestProject;
  let web: WebClient;
  const client = new GitClient();

  /** A wiki of `count` pages pushed in one commit, then `edits` more commits to its home page. */
  async function pushWiki(base: string, project: TestProject, count: number, edits: number): Promise<void> {
    const dir = await client.workTree(`${project.path}-wiki`);
    for (let i = 0; i < count; i++) {
      fs.writeFileSync(path.join(dir, `Page-${String(i).padStart(5, '0')}.md`), `Page ${i}\n`);
    }
    fs.writeFileSync(path.join(dir, 'home.md'), 'Home, see [[Page 00001]]\n');
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'Pages'], dir);
    for (let i = 0; i < edits; i++) {
      fs.writeFileSync(path.join(dir, 'home.md'), `Home, edit ${i}\n`);
      await client.ok(['commit', '-q', '-am', `Edit ${i}`], dir);
    }
    await client.ok(
      [
        'push',
        '-q',
        repoUrl(base, project.fullPath, owner.username, owner.password, '.wiki.git'),
        'HEAD:master',
      ],
      dir,
    );
  }

  before(async () => {
    t = await startTestApp();
    await stopClockWorkers(t);
    const base = await listen(t);
    owner = await createUser(t, 'wikicost');
    small = await createProject(t, { owner, path: 'smallwiki', visibility: 20 });
    large = await createProject(t, { owner, path: 'largewiki', visibility: 20 });
    await pushWiki(base, small, 2, 1);
    await pushWiki(base, large, 2000, 30);
    web = new WebClient(t);
    assert.equal((await web.signIn(owner.username, owner.password)).status, 302);
  });
  after(async () => {
    gitSpawns.observe = undefined;
    t.server.deps.db.onQuery = undefined;
    await t?.close();
    client.close();
  });

  async function cost(url: string, project: TestProject): Promise<Cost> {
    const wikiPath = project.repoPath.replace(/\.git$/, '.wiki.git');
    const result: Cost = { status: 0, queries: 0, git: [] };
    t.server.deps.db.onQuery = () => {
      result.queries += 1;
    };
    gitSpawns.observe = (args, cwd) => {
      // The command only: ids differ between the two wikis.
      if (cwd === wikiPath) result.git.push(args.find((arg) => !arg.startsWith('-')) ?? '');
    };
    try {
      result.status = (await web.get(url)).status;
    } finally {
      t.server.deps.db.onQuery = undefined;
      gitSpawns.observe = undefined;
    }
    return result;
  }

  it('pins the page, its history and the page list, and 2,000 pages cost what 3 do', async () => {
    const found: Record<string, { queries: number; git: string }> = {};
    const pairs: Record<string, [string, TestProject, string, TestProject]> = {
      page: ['/wikis/home', small, '/wikis/home', large],
      history: ['/wikis/home/history', small, '/wikis/home/history', large],
      pages: ['/wikis/pages', small, '/wikis/pages', large],
      // The last of a hundred pages of the list costs what its first does.
      lastPages: ['/wikis/pages', large, '/wikis/pages?page=100', large],
    };
    for (const [name, [smallUrl, smallProject, largeUrl, largeProject]] of Object.entries(pairs)) {
      // Each read twice: the first fills the caches of what never changes (and costs the same too).
      const coldA = await cost(`/${smallProject.fullPath}${smallUrl}`, smallProject);
      const a = await cost(`/${smallProject.fullPath}${smallUrl}`, smallProject);
      const coldB = await cost(`/${largeProject.fullPath}${largeUrl}`, largeProject);
      const b = await cost(`/${largeProject.fullPath}${largeUrl}`, largeProject);
      if (name !== 'lastPages') assert.deepEqual(coldB.git, coldA.git, `${name}, first read`);
      assert.equal(a.status, 200, name);
      assert.equal(b.status, 200, name);
      assert.deepEqual(b.git, a.git, name);
      assert.equal(b.queries, a.queries, name);
      found[name] = { queries: b.queries, git: b.git.join(' ') };
    }
    // Statements: the session, the broadcasts, the project and the viewer's access (as every project
    // page). git, on a second read at the same tip: a page reads its text and its last commit; the history
    // one rev-list bounded by the page streamed into one cat-file; the list one cat-file of the pages' last
    // commits. A first read at a tip also lists its tree (`ls-tree`) and walks for the last edits (one
    // `git log` for all the paths shown); both are kept per commit. Tip and refs come from the ref files.
    assert.deepEqual(found, {
      page: { queries: 4, git: 'cat-file cat-file' },
      history: { queries: 4, git: 'rev-list cat-file' },
      pages: { queries: 4, git: 'cat-file' },
      lastPages: { queries: 4, git: 'cat-file' },
    });
  });
});
