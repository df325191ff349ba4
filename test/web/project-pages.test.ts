// The project page and its repository pages as a browser without script sees them: README rendered
// safely with links resolved to the ref, tree, blob with line anchors, raw files that never run as a page
// of ours, commits, a commit's diff with its raw forms, branches and tags, and the access rules.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient } from '../helpers/git.ts';
import { WebClient } from '../helpers/web.ts';

const README = [
  '# Demo <script>alert("readme")</script>',
  '',
  '<img src=x onerror=alert(1)>',
  '',
  '[bad](javascript:alert(1)) [guide](docs/guide.md) ![logo](img/logo.png) https://example.com/x',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '- [ ] todo',
  '- [x] done',
  '',
  '```js',
  'const x = "<b>";',
  '```',
  '',
].join('\n');

describe('pages: project and repository', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let project: TestProject;
  let secret: TestProject;
  let head = '';
  let parent = '';
  const client = new GitClient();

  before(async () => {
    t = await startTestApp();
    owner = await createUser(t, 'dana');
    stranger = await createUser(t, 'eve');
    project = await createProject(t, { owner, path: 'demo', visibility: 20 });
    secret = await createProject(t, { owner, path: 'hush', visibility: 0, commit: true });
    const dir = await client.workTree('demo');
    const write = (name: string, content: string | Buffer) => {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    };
    write('README.md', README);
    write('docs/guide.md', '# Guide\n');
    write('docs/README.md', 'The docs: see [the guide](guide.md). <script>alert("docs")</script>\n');
    write(
      'src/app.js',
      Array.from({ length: 30 }, (_, i) => `const line${i + 1} = ${i + 1}; // <x>`).join('\n') + '\n',
    );
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'First <commit>'], dir);
    parent = (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
    write('evil.html', '<script>alert("html")</script>\n');
    write('evil.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert("svg")</script></svg>\n');
    write('img/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    write('data.bin', Buffer.from([1, 2, 0, 3]));
    write('big.txt', 'x'.repeat(1024 * 1024 + 10));
    write('src/app.js', 'const changed = true;\n');
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'Second commit\n\nWith a body line.'], dir);
    head = (await client.ok(['rev-parse', 'HEAD'], dir)).trim();
    await client.ok(['branch', 'feature/slash'], dir);
    await client.ok(['tag', 'v1.0', parent], dir);
    await client.ok(['push', '-q', project.repoPath, 'master', 'feature/slash', 'v1.0'], dir);
  });
  after(() => t.close());

  it('the project page: description, clone URLs, counts and the README rendered without script', async () => {
    const page = await new WebClient(t).get('/dana/demo');
    assert.equal(page.status, 200);
    assert.match(page.text, /value="http:\/\/labrador\.test\/dana\/demo\.git"/);
    assert.match(page.text, /data-copy="clone-ssh"/);
    assert.match(page.text, /About demo/);
    assert.match(page.text, /<h1>Demo &lt;script&gt;alert\(&quot;readme&quot;\)&lt;\/script&gt;<\/h1>/);
    assert.doesNotMatch(page.text, /<script>alert/);
    assert.doesNotMatch(page.text, /<img src=x/);
    assert.doesNotMatch(page.text, /href="javascript:/);
    assert.match(page.text, /href="\/dana\/demo\/blob\/master\/docs\/guide\.md"/);
    assert.match(page.text, /src="\/dana\/demo\/raw\/master\/img\/logo\.png"/);
    assert.match(page.text, /<a href="https:\/\/example\.com\/x" rel="nofollow noreferrer noopener">/);
    assert.match(page.text, /<table>/);
    assert.match(page.text, /type="checkbox" class="task-list-item-checkbox" disabled checked/);
    assert.match(page.text, /<span class="hljs-keyword">const<\/span>/);
    // Directories first in the root listing.
    const names = [...page.text.matchAll(/href="\/dana\/demo\/(?:tree|blob)\/master\/([^"]+)"/g)].map(
      (m) => m[1],
    );
    assert.ok(names.indexOf('docs') < names.indexOf('README.md'), names.join(','));
  });

  it('an empty project shows how to push a first commit', async () => {
    await createProject(t, { owner, path: 'blank', visibility: 20 });
    const page = await new WebClient(t).get('/dana/blank');
    assert.equal(page.status, 200);
    assert.match(page.text, /git remote add origin http:\/\/labrador\.test\/dana\/blank\.git/);
  });

  it('tree of a directory (with its README) and of a branch whose name has a slash', async () => {
    const web = new WebClient(t);
    const tree = await web.get('/dana/demo/tree/master/src');
    assert.equal(tree.status, 200);
    assert.match(tree.text, /href="\/dana\/demo\/blob\/master\/src\/app\.js"/);
    // A directory's README is shown below its listing, its links resolved in that directory.
    const docs = await web.get('/dana/demo/tree/master/docs');
    assert.match(docs.text, /<h2 id="readme-title">README\.md<\/h2>/);
    assert.match(docs.text, /<a href="\/dana\/demo\/blob\/master\/docs\/guide\.md">the guide<\/a>/);
    assert.doesNotMatch(docs.text, /<script>alert/);
    assert.doesNotMatch(tree.text, /readme-title/);
    const slash = await web.get('/dana/demo/tree/feature/slash/docs');
    assert.equal(slash.status, 200);
    assert.match(slash.text, /href="\/dana\/demo\/blob\/feature\/slash\/docs\/guide\.md"/);
    assert.equal((await web.get('/dana/demo/tree/master/nowhere')).status, 404);
    assert.equal((await web.get('/dana/demo/tree/no-such-ref')).status, 404);
    const switched = await web.get('/dana/demo/refs/switch?ref=v1.0&destination=tree&path=src');
    assert.equal(switched.headers.location, '/dana/demo/tree/v1.0/src');
  });

  it('blob: highlighted lines with anchors, escaped; images shown; binary and large offered as download', async () => {
    const web = new WebClient(t);
    const blob = await web.get(`/dana/demo/blob/${parent}/src/app.js`);
    assert.equal(blob.status, 200);
    assert.match(blob.text, /<tr id="L10"><td class="ln"><a href="#L10">10<\/a>/);
    assert.match(blob.text, /<span class="hljs-keyword">const<\/span> line10/);
    assert.match(blob.text, /&lt;x&gt;/);
    const image = await web.get('/dana/demo/blob/master/img/logo.png');
    assert.match(image.text, /<img src="\/dana\/demo\/raw\/master\/img\/logo\.png"/);
    const binary = await web.get('/dana/demo/blob/master/data.bin');
    assert.match(binary.text, /This file is binary\./);
    const big = await web.get('/dana/demo/blob/master/big.txt');
    assert.match(big.text, /too large to show/);
    assert.match(big.text, /href="\/dana\/demo\/raw\/master\/big\.txt" download="big\.txt"/);
    const html = await web.get('/dana/demo/blob/master/evil.html');
    assert.match(html.text, /&lt;<span class="hljs-name">script<\/span>/);
    assert.doesNotMatch(html.text, /<script>alert/);
  });

  it('raw: text as text/plain, HTML and SVG as sandboxed attachments, binaries as downloads', async () => {
    const web = new WebClient(t);
    const text = await web.get('/dana/demo/raw/master/src/app.js');
    assert.equal(text.status, 200);
    assert.equal(text.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(text.text, 'const changed = true;\n');
    for (const name of ['evil.html', 'evil.svg']) {
      const raw = await web.get(`/dana/demo/raw/master/${name}`);
      assert.equal(raw.headers['content-type'], 'text/plain; charset=utf-8');
      assert.match(String(raw.headers['content-disposition']), /^attachment;/);
      assert.match(String(raw.headers['content-security-policy']), /^sandbox/);
      assert.equal(raw.headers['x-content-type-options'], 'nosniff');
    }
    const bin = await web.get('/dana/demo/raw/master/data.bin');
    assert.equal(bin.headers['content-type'], 'application/octet-stream');
    assert.match(String(bin.headers['content-disposition']), /^attachment;/);
    const png = await web.get('/dana/demo/raw/master/img/logo.png');
    assert.equal(png.headers['content-type'], 'image/png');
  });

  it('commits: the history of a ref and of one path', async () => {
    const web = new WebClient(t);
    const all = await web.get('/dana/demo/commits/master');
    assert.equal(all.status, 200);
    assert.match(all.text, /Second commit/);
    assert.match(all.text, /First &lt;commit>/);
    const docs = await web.get('/dana/demo/commits/master/docs');
    assert.match(docs.text, /First &lt;commit>/);
    assert.doesNotMatch(docs.text, /Second commit/);
    assert.equal((await web.get('/dana/demo/commits')).status, 200);
  });

  it('commit: message, parents, per-file stats, diff lines; .diff and .patch as plain text', async () => {
    const web = new WebClient(t);
    const page = await web.get(`/dana/demo/commit/${head}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Second commit<\/h1>/);
    assert.match(page.text, new RegExp(`href="/dana/demo/commit/${parent}"`));
    assert.match(page.text, /\d+ changed files? with \d+ additions? and \d+ deletions?/);
    assert.match(page.text, /src\/app\.js/);
    assert.match(page.text, /<td class="c">\+const changed = true;<\/td>/);
    const diff = await web.get(`/dana/demo/commit/${head}.diff`);
    assert.equal(diff.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(diff.text, /^diff --git /m);
    const patch = await web.get(`/dana/demo/commit/${head}.patch`);
    assert.match(patch.text, /^Subject: \[PATCH\] Second commit/m);
    assert.equal((await web.get('/dana/demo/commit/0000000')).status, 404);
    assert.equal((await web.get('/dana/demo/commit/not-a-sha')).status, 404);
  });

  it('branches and tags list their commits', async () => {
    const web = new WebClient(t);
    const branches = await web.get('/dana/demo/branches');
    assert.match(branches.text, /href="\/dana\/demo\/tree\/feature\/slash"/);
    const tags = await web.get('/dana/demo/tags');
    assert.match(tags.text, /href="\/dana\/demo\/tree\/v1\.0"/);
  });

  it('a private project: sign in and back for a visitor, 404 for a stranger, the page for the owner', async () => {
    for (const path of ['/dana/hush', '/dana/hush/tree/master', '/dana/hush/raw/master/README.md']) {
      const visitor = await new WebClient(t).get(path);
      assert.equal(visitor.status, 302, path);
      assert.equal(visitor.headers.location, `/users/sign_in?redirect_to=${encodeURIComponent(path)}`);
    }
    const other = new WebClient(t);
    await other.signIn(stranger.username, stranger.password);
    assert.equal((await other.get('/dana/hush')).status, 404);
    assert.equal((await other.get('/dana/hush/raw/master/README.md')).status, 404);
    const mine = new WebClient(t);
    await mine.signIn(owner.username, owner.password);
    assert.equal((await mine.get('/dana/hush')).status, 200);
    assert.equal(secret.fullPath, 'dana/hush');
  });

  it('every web_url the API gives for this project, its owner and a group answers 200 in a browser', async () => {
    const web = new WebClient(t);
    await web.signIn(owner.username, owner.password);
    const apiProject = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
    const urls = [apiProject.body.web_url, apiProject.body.owner.web_url];
    const group = await t.request('POST', '/api/v3/groups', {
      token: t.rootToken,
      body: { name: 'Crew', path: 'crew' },
    });
    urls.push(group.body.web_url);
    for (const url of urls) {
      const response = await web.get(new URL(url).pathname);
      assert.equal(response.status, 200, url);
    }
  });

  it("shows the project's description as Markdown, its HTML escaped", async () => {
    const edited = await t.request('PUT', `/api/v3/projects/${project.id}`, {
      token: owner.token,
      body: { name: 'demo', description: 'A **demo** with <script>alert("desc")</script>' },
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const page = await new WebClient(t).get('/dana/demo');
    assert.match(
      page.text,
      /<div class="md"><p>A <strong>demo<\/strong> with &lt;script&gt;alert\(&quot;desc&quot;\)&lt;\/script&gt;<\/p>/,
    );
    assert.doesNotMatch(page.text, /<script>alert/);
  });
});
