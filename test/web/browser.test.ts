// In a real browser (Debian's Chromium through playwright-core): a newcomer's path from the start page,
// and pages that must never run a repository's script. Few and focused; page details are the inject
// tests' business.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import { GitClient, repoUrl } from '../helpers/git.ts';
import { gitSshCommand, makeKey, startTestSsh } from '../helpers/ssh.ts';
import type { StartedSsh } from '../../src/ssh/server.ts';
import {
  browserMissing,
  newAuditContext,
  newContext,
  seriousAxeViolations,
  signIn,
  startBrowserApp,
  watchForScript,
  type BrowserApp,
} from '../helpers/browser.ts';

const skip = browserMissing();

describe('pages in Chromium', { skip }, () => {
  let app: BrowserApp;
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let ssh: StartedSsh;
  const client = new GitClient();

  before(async () => {
    app = await startBrowserApp();
    ({ t, base, browser } = app);
    ssh = await startTestSsh(t);
  });
  after(async () => {
    await ssh?.server.stop();
    await app?.close();
  });

  it('a newcomer signs in, creates a project, pushes, reads the README, a file, a commit, adds a key, pushes over SSH', async () => {
    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Username or Email').fill('root');
    await page.getByLabel('Password').fill(t.rootPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    await page.getByRole('main').getByRole('link', { name: 'New project' }).click();
    await page.getByLabel('Project name').fill('First Steps');
    await page.getByLabel('Public').check();
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'The repository for this project is empty' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/root/first-steps');

    const dir = await client.workTree('first-steps');
    fs.writeFileSync(path.join(dir, 'README.md'), '# Hello Labrador\n\nSee [the code](src/main.js).\n');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'src/main.js'),
      Array.from({ length: 20 }, (_, i) => `console.log(${i + 1});`).join('\n') + '\n',
    );
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', 'Add the first files'], dir);
    await client.ok(['push', '-q', repoUrl(base, 'root/first-steps', 'root', t.rootPassword), 'master'], dir);

    await page.reload();
    await page.getByRole('heading', { name: 'Hello Labrador' }).waitFor();
    await page.getByRole('link', { name: 'the code' }).click();
    await page.locator('#L10').waitFor();
    await page.getByRole('link', { name: '10', exact: true }).click();
    assert.equal(new URL(page.url()).hash, '#L10');
    assert.equal(await page.locator('#L10:target').count(), 1);

    await page.getByRole('link', { name: 'Commits' }).click();
    await page.getByRole('link', { name: 'Add the first files' }).click();
    await page.getByRole('heading', { name: /2 changed files with 23 additions and 0 deletions/ }).waitFor();
    assert.ok(await page.getByText('+console.log(20);').isVisible());

    await page.goto('/profile/keys');
    const key = makeKey(client.home, 'newcomer');
    await page.getByLabel('Key', { exact: true }).fill(key.publicKey);
    await page.getByLabel('Title').fill('my laptop');
    await page.getByRole('button', { name: 'Add key' }).click();
    await page.getByText('The SSH key was added.').waitFor();
    assert.ok(await page.getByRole('list', { name: 'SSH keys' }).getByText('my laptop').isVisible());

    // The key just pasted is the one that lets git push over SSH.
    fs.writeFileSync(path.join(dir, 'NOTES.md'), 'Pushed over SSH.\n');
    await client.ok(['add', 'NOTES.md'], dir);
    await client.ok(['commit', '-q', '-m', 'Push over SSH with my laptop key'], dir);
    const pushed = await client.run(
      ['push', '-q', `ssh://git@127.0.0.1:${ssh.port}/root/first-steps.git`, 'master'],
      dir,
      { GIT_SSH_COMMAND: gitSshCommand(key, ssh.port) },
    );
    assert.equal(pushed.code, 0, pushed.stderr);
    await page.goto('/root/first-steps/commits/master');
    await page.getByRole('link', { name: 'Push over SSH with my laptop key' }).click();
    await page.getByRole('heading', { name: /1 changed file with 1 addition and 0 deletions/ }).waitFor();
    assert.ok(await page.getByText('+Pushed over SSH.').isVisible());

    assert.deepEqual(seen, []);
    await context.close();
  });

  it("a repository's script never runs: README, HTML and SVG files, javascript: links", async () => {
    const dir = await client.workTree('evil');
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      '# Evil\n\n<script>alert("readme")</script>\n\n<img src=x onerror=alert("img")>\n\n' +
        '[click](javascript:alert("link")) <a href="javascript:alert(1)">raw link</a>\n',
    );
    fs.writeFileSync(path.join(dir, 'evil.html'), '<script>alert("html")</script><p>evil</p>\n');
    fs.writeFileSync(
      path.join(dir, 'evil.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'svg\')"><script>alert("svg")</script></svg>\n',
    );
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', '<script>alert("message")</script>'], dir);
    const created = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'evil', visibility_level: 20 },
    });
    assert.equal(created.status, 201);
    await client.ok(['push', '-q', repoUrl(base, 'root/evil', 'root', t.rootToken), 'master'], dir);

    const context = await newContext(browser, base);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await page.goto('/root/evil');
    await page.getByRole('heading', { name: 'Evil', exact: true }).waitFor();
    for (const link of await page.getByRole('link', { name: /click|raw link/ }).all()) {
      assert.doesNotMatch(String(await link.getAttribute('href')), /^javascript:/i);
    }
    await page.goto('/root/evil/blob/master/evil.html');
    await page.goto('/root/evil/blob/master/evil.svg');
    await page.goto('/root/evil/commits/master');
    for (const name of ['evil.html', 'evil.svg']) {
      // Served as attachments: the browser downloads them rather than opening a page of ours.
      const download = page.waitForEvent('download');
      await page.goto(`/root/evil/raw/master/${name}`).catch(() => undefined);
      await download;
    }
    assert.deepEqual(seen, []);
    await context.close();
  });

  it('on a 390-px phone the clone URLs span the width, their copy buttons in reach, nothing overflows', async () => {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto('/root/first-steps');
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const main = await box('main');
    for (const kind of ['http', 'ssh']) {
      const field = await box(`#clone-${kind}`);
      const button = await box(`[data-copy="clone-${kind}"]`);
      // The field takes the main column's whole width (its padding aside); the button is on screen.
      assert.ok(field.width >= main.width - 32, `${kind} field ${field.width} of ${main.width}`);
      assert.ok(button.x >= 0 && button.x + button.width <= 390, `${kind} button at ${button.x}`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await context.close();
  });

  it('on a 390-px phone a long unbroken title wraps instead of widening the page; labels stay together', async () => {
    const api = (method: string, url: string, body?: Record<string, unknown>) =>
      t.request(method, `/api/v3${url}`, { token: t.rootToken, body });
    const made = await api('POST', '/projects', { name: 'long-words', visibility_level: 20 });
    assert.equal(made.status, 201);
    const word = 'x'.repeat(150);
    const dir = await client.workTree('long-words');
    fs.writeFileSync(path.join(dir, 'README.md'), '# Long\n');
    await client.ok(['add', '-A'], dir);
    await client.ok(['commit', '-q', '-m', `Change ${word}`], dir);
    await client.ok(['push', '-q', repoUrl(base, 'root/long-words', 'root', t.rootPassword), 'master'], dir);
    for (const name of ['bug', 'ui'])
      await api('POST', `/projects/${made.body.id}/labels`, { name, color: '#c00' });
    const issue = await api('POST', `/projects/${made.body.id}/issues`, {
      title: `Issue ${word}`,
      labels: 'bug,ui',
    });
    assert.equal(issue.status, 201);
    const sha = (await api('GET', `/projects/${made.body.id}/repository/commits`)).body[0].id;

    const context = await browser.newContext({ baseURL: base, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    for (const url of [
      '/root/long-words',
      '/root/long-words/commits/master',
      `/root/long-words/commit/${sha}`,
      '/root/long-words/issues',
      `/root/long-words/issues/${issue.body.iid}`,
      '/root/long-words/activity',
    ]) {
      await page.goto(url);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, url);
    }
    // In a list row the two labels sit side by side, not at opposite ends of the row.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/root/long-words/issues');
    const bug = (await page.getByRole('link', { name: 'bug', exact: true }).boundingBox())!;
    const ui = (await page.getByRole('link', { name: 'ui', exact: true }).boundingBox())!;
    assert.ok(ui.x - (bug.x + bug.width) < 20, `bug ends at ${bug.x + bug.width}, ui starts at ${ui.x}`);
    await context.close();
  });

  it('axe finds no serious or critical violation on any page type', async () => {
    const context = await newAuditContext(browser, base);
    const page = await context.newPage();
    const audit = async (url: string) => {
      await page.goto(url);
      return seriousAxeViolations(page, url);
    };
    const found: string[] = [];
    found.push(...(await audit('/users/sign_in')));
    found.push(...(await audit('/explore/projects')));
    await signIn(page, 'root', t.rootPassword);
    const commit = (
      await t.request(
        'GET',
        `/api/v3/projects/${encodeURIComponent('root/first-steps')}/repository/commits`,
        {
          token: t.rootToken,
        },
      )
    ).body[0].id;
    for (const url of [
      '/',
      '/root',
      '/root/first-steps',
      '/root/first-steps/tree/master/src',
      '/root/first-steps/blob/master/src/main.js',
      '/root/first-steps/commits/master',
      `/root/first-steps/commit/${commit}`,
      '/root/first-steps/branches',
      '/profile',
      '/profile/keys',
      '/profile/account',
      '/projects/new',
      '/root/no-such-project',
    ]) {
      found.push(...(await audit(url)));
    }
    assert.deepEqual(found, []);
    await context.close();
  });
});
