// The CI pages in a real browser (Debian's Chromium through playwright-core) with Labrador's own runner
// (a process of its own, speaking the runner protocol to the app on a listening port): a two-stage
// pipeline seen to succeed on its open page, a build's log growing in the open page and stopping when it
// ends, a running build canceled from its page (its processes end), a manual build played, artifacts
// downloaded whole and file by file, and a trace with markup and escape sequences shown as coloured text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import {
  browserMissing,
  launchBrowser,
  newContext,
  watchForScript,
  seriousAxeViolations,
} from '../helpers/browser.ts';
import { groupAlive, spawnRunner, type RunnerProcess } from '../helpers/runner-process.ts';
import { until } from '../helpers/wait.ts';
import { tracePath } from '../../src/storage/traces.ts';

const skip = browserMissing();
const REGISTRATION_TOKEN = 'ci-browser-registration-token';

describe('CI pages in Chromium', { skip }, () => {
  let ci: CiProject;
  let runner: RunnerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let base = '';

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'cibr');
    runner = spawnRunner({ url: ci.base, registrationToken: REGISTRATION_TOKEN });
    browser = await launchBrowser();
    await runner.waitForOutput(/taking builds from/, 60_000);
    base = `/${ci.project.fullPath}`;
    context = await newContext(browser, ci.base);
    const page = await context.newPage();
    await page.goto('/users/sign_in');
    await page.getByLabel('Username or Email').fill(ci.owner.username);
    await page.getByLabel('Password').fill(ci.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.close();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await runner?.kill();
    await ci?.close();
    if (runner) fs.rmSync(runner.dataDir, { recursive: true, force: true });
  });

  /** Pushes the file and answers its pipeline and builds, once recorded. */
  const push = async (yaml: string) => {
    const pipeline = (await ci.push({ '.gitlab-ci.yml': yaml }))!;
    return { pipeline, builds: await buildsOf(ci.t, pipeline.id) };
  };
  const traceOf = (build: Awaited<ReturnType<typeof buildsOf>>[number]) => {
    try {
      return fs.readFileSync(tracePath(ci.t.config.dataDir, build), 'utf8');
    } catch {
      return '';
    }
  };
  const buildStatus = async (id: number) =>
    (
      await ci.t.server.deps.db.kysely
        .selectFrom('ci_builds')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  /** Marks the open document, to tell later that it was never reloaded. */
  const mark = (page: Page) =>
    page.evaluate(() => {
      (window as unknown as { labradorMark: number }).labradorMark = 1;
    });
  const stillMarked = (page: Page) =>
    page.evaluate(() => (window as unknown as { labradorMark?: number }).labradorMark === 1);

  it('shows a two-stage pipeline succeed on its open page, then its artifacts downloaded and browsed', async () => {
    const { pipeline, builds } = await push(`
stages: [build, test]
build:
  stage: build
  script:
    - mkdir -p out/deep
    - echo hello > out/greeting
    - echo deeper > out/deep/note.txt
  artifacts:
    name: result
    paths: [out/]
test:
  stage: test
  script: [cat out/greeting]
`);
    const page = await context.newPage();
    const seen = watchForScript(page);
    await page.goto(`${base}/pipelines/${pipeline.id}`);
    await mark(page);
    const stage = (name: string) => page.getByRole('heading', { level: 2, name: new RegExp(`${name}$`) });
    await stage('build').getByText('success').waitFor({ timeout: 60_000 });
    await stage('test').getByText('success').waitFor({ timeout: 60_000 });
    await page.getByRole('heading', { level: 1, name: /success/ }).waitFor({ timeout: 60_000 });
    assert.equal(await stillMarked(page), true, 'the page was not reloaded');

    // The build's page: its artifacts, downloaded whole and one file at a time.
    await page.getByRole('link', { name: 'build', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Build #${builds[0]!.id} success` }).waitFor();
    const whole = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download result.zip' }).click();
    const zip = fs.readFileSync((await (await whole).path())!);
    const api = await fetch(`${ci.base}/api/v3/projects/${ci.project.id}/builds/${builds[0]!.id}/artifacts`, {
      headers: { 'PRIVATE-TOKEN': ci.owner.token },
    });
    assert.ok(zip.equals(Buffer.from(await api.arrayBuffer())));
    await page.getByRole('link', { name: 'Browse' }).click();
    await page.getByRole('link', { name: 'out/' }).click();
    await page.getByRole('link', { name: 'deep/' }).click();
    const one = page.waitForEvent('download');
    await page.getByRole('link', { name: 'note.txt' }).click();
    const file = await one;
    assert.equal(file.suggestedFilename(), 'note.txt');
    assert.equal(fs.readFileSync((await file.path())!, 'utf8'), 'deeper\n');
    assert.deepEqual(seen, []);
    await page.close();
  });

  it("grows a running build's log in the open page and stops when the build ends", async () => {
    const { builds } = await push(`
ticker:
  script:
    - for i in $(seq 1 40); do echo "tick $i"; sleep 0.2; done
`);
    const build = builds[0]!;
    await until('the build prints its first tick', () => /tick 1\n/.test(traceOf(build)));
    const page = await context.newPage();
    const seen = watchForScript(page);
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/trace.json')) polls.push(request.url());
    });
    await page.goto(`${base}/builds/${build.id}`);
    await mark(page);
    const trace = page.locator('#build-trace');
    const shownFirst = (await trace.textContent()) ?? '';
    const firstTicks = shownFirst.match(/tick \d+/g)?.length ?? 0;
    assert.ok(firstTicks < 40, 'the page opened while the build was running');
    // Lines the page did not have arrive in the same document.
    const later = `tick ${Math.min(40, firstTicks + 5)}`;
    await trace.getByText(later).waitFor({ timeout: 60_000 });
    assert.equal(await stillMarked(page), true, 'the page was not reloaded while the build ran');
    assert.ok(polls.length > 0 && polls.every((url) => /trace\.json\?offset=\d+&state=/.test(url)));
    // The end: the page shows the finished build with its whole log, and asks no more.
    await page
      .getByRole('heading', { level: 1, name: `Build #${build.id} success` })
      .waitFor({ timeout: 60_000 });
    await trace.getByText('tick 40').waitFor();
    const ticks = ((await trace.textContent()) ?? '').match(/tick \d+\n/g) ?? [];
    assert.deepEqual(
      ticks,
      Array.from({ length: 40 }, (_, i) => `tick ${i + 1}\n`),
    );
    assert.equal(await page.locator('#build-trace-box').getAttribute('data-complete'), 'true');
    assert.deepEqual(seen, []);
    await page.close();
  });

  it("cancels a running build from its page, and the runner's process ends", async () => {
    const { builds } = await push(`
sleeper:
  script:
    - echo "group $$"
    - sleep 600
`);
    const build = builds[0]!;
    const pgid = await until('the job prints its process group', () => {
      const match = /group (\d+)\n/.exec(traceOf(build));
      return match && Number(match[1]);
    });
    assert.ok(groupAlive(pgid));
    const page = await context.newPage();
    await page.goto(`${base}/builds/${build.id}`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('The build was canceled.').waitFor();
    await page.getByRole('heading', { level: 1, name: `Build #${build.id} canceled` }).waitFor();
    assert.equal(await buildStatus(build.id), 'canceled');
    await until('the build’s processes end', () => !groupAlive(pgid));
    await runner.waitForOutput(new RegExp(`build ${build.id} .* canceled in`), 60_000);
    await page.close();
  });

  it('plays a manual build from its page', async () => {
    const { pipeline, builds } = await push(`
stages: [test, deploy]
check:
  stage: test
  script: [echo checked]
ship:
  stage: deploy
  when: manual
  script: [echo "shipped by hand"]
`);
    const ship = builds.find((build) => build.name === 'ship')!;
    const page = await context.newPage();
    await page.goto(`${base}/pipelines/${pipeline.id}`);
    await page.getByRole('heading', { level: 1, name: /success/ }).waitFor({ timeout: 60_000 });
    await page.getByRole('link', { name: 'ship' }).click();
    await page.getByRole('button', { name: 'Play' }).click();
    await page.getByText('The manual build was started.').waitFor();
    await page
      .getByRole('heading', { level: 1, name: `Build #${ship.id} success` })
      .waitFor({ timeout: 60_000 });
    // Its own line of output (the runner also echoes the command that printed it).
    await page.waitForFunction(() =>
      (document.getElementById('build-trace')?.textContent ?? '').includes('\nshipped by hand\n'),
    );
    await page.close();
  });

  it('shows a trace with markup and escape sequences as coloured text, running none of it', async () => {
    const { builds } = await push(`
colours:
  script:
    - printf '\\033[31mred <script>alert(1)</script>\\033[0m and <img src=x onerror=alert(2)>\\n'
    - printf '\\033[1;32mbold green\\033[0m\\n'
`);
    const build = builds[0]!;
    await until('the build ends', async () => (await buildStatus(build.id)) === 'success');
    const page = await context.newPage();
    const seen = watchForScript(page);
    await page.goto(`${base}/builds/${build.id}`);
    // The command lines the runner echoes are green and bold too: the job's own output is picked by text.
    const red = page.locator('#build-trace .term-fg-red', { hasText: /^red <script>alert\(1\)<\/script>$/ });
    await red.waitFor();
    assert.equal(await red.evaluate((node) => getComputedStyle(node).color), 'rgb(224, 82, 82)');
    const green = page.locator('#build-trace .term-fg-green.term-bold', { hasText: /^bold green$/ });
    assert.equal(await green.evaluate((node) => getComputedStyle(node).fontWeight), '700');
    await page.locator('#build-trace').getByText('and <img src=x onerror=alert(2)>').waitFor();
    assert.equal(await page.locator('#build-trace script, #build-trace img').count(), 0);
    assert.deepEqual(seen, []);
    await page.close();
  });

  it('axe finds no serious or critical violation on the CI pages', async () => {
    const audit = await browser.newContext({ baseURL: ci.base, bypassCSP: true });
    await audit.addCookies(await context.cookies());
    const page = await audit.newPage();
    const builds = (
      await ci.t.request('GET', `/api/v3/projects/${ci.project.id}/builds`, {
        token: ci.owner.token,
      })
    ).body as Array<{ id: number; pipeline: { id: number }; artifacts_file: unknown }>;
    const withArtifacts = builds.find((b) => b.artifacts_file)!;
    const found: string[] = [];
    for (const url of [
      `${base}/pipelines`,
      `${base}/pipelines/${withArtifacts.pipeline.id}`,
      `${base}/builds`,
      `${base}/builds/${withArtifacts.id}`,
      `${base}/builds/${withArtifacts.id}/artifacts/browse/out`,
    ]) {
      await page.goto(url);
      found.push(...(await seriousAxeViolations(page, url)));
    }
    assert.deepEqual(found, []);
    await audit.close();
  });
});
