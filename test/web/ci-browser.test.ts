// The CI pages in a real browser (Debian's Chromium through playwright-core) with Labrador's own runner
// (a process of its own, speaking the runner protocol to the app on a listening port): a two-stage
// pipeline seen to succeed on its open page, a build's log growing in the open page and stopping when it
// ends, a running build canceled from its page (its processes end), a manual build played, artifacts
// downloaded whole and file by file, and a trace with markup and escape sequences shown as coloured text.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import {
  browserMissing,
  launchBrowser,
  newAuditContext,
  newContext,
  seriousAxeViolations,
  signIn,
  watchForScript,
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
    // Unsandboxed: the tests meet the job in a shared /tmp and follow its process group on the host,
    // which the sandbox hides (test/runner-v4/sandbox.test.ts covers the sandbox).
    runner = spawnRunner({
      url: ci.base,
      registrationToken: REGISTRATION_TOKEN,
      extraArgs: ['--sandbox', 'off'],
    });
    browser = await launchBrowser();
    await runner.waitForOutput(/taking builds from/, 60_000);
    base = `/${ci.project.fullPath}`;
    context = await newContext(browser, ci.base);
    const page = await context.newPage();
    await signIn(page, ci.owner.username, ci.owner.password);
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
    // The job prints half its lines, waits for the test's go-ahead (given once the open page has asked for
    // more), prints the rest and waits again before it ends: the page surely opens on a running build and
    // sees lines arrive while it runs, and no sleep decides it. A go-ahead that never comes fails the job
    // after two minutes.
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-marks-'));
    const awaitMark = (name: string) =>
      `for i in $(seq 1200); do test -f ${marks}/${name} && break; sleep 0.1; done; test -f ${marks}/${name}`;
    try {
      const { builds } = await push(`
ticker:
  script:
    - for i in $(seq 1 20); do echo "tick $i"; done
    - ${awaitMark('more')}
    - for i in $(seq 21 40); do echo "tick $i"; done
    - ${awaitMark('end')}
`);
      const build = builds[0]!;
      await until('the build prints its first half', () => /tick 20\n/.test(traceOf(build)));
      const page = await context.newPage();
      const seen = watchForScript(page);
      const polls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/trace.json')) polls.push(request.url());
      });
      await page.goto(`${base}/builds/${build.id}`);
      await mark(page);
      const trace = page.locator('#build-trace');
      await trace.getByText('tick 20').waitFor();
      assert.doesNotMatch(
        (await trace.textContent()) ?? '',
        /tick 21\n/,
        'the page opened on the first half',
      );
      await until('the open page asks for more of the trace', () => polls.length > 0);
      fs.writeFileSync(path.join(marks, 'more'), '');
      // Lines the page did not have arrive in the same document while the build runs.
      await trace.getByText('tick 40').waitFor({ timeout: 60_000 });
      assert.equal(await stillMarked(page), true, 'the page was not reloaded while the build ran');
      assert.ok(polls.every((url) => /trace\.json\?offset=\d+&state=/.test(url)));
      fs.writeFileSync(path.join(marks, 'end'), '');
      // The end: the page shows the finished build with its whole log, and asks no more.
      await page
        .getByRole('heading', { level: 1, name: `Build #${build.id} success` })
        .waitFor({ timeout: 60_000 });
      const ticks = ((await trace.textContent()) ?? '').match(/tick \d+\n/g) ?? [];
      assert.deepEqual(
        ticks,
        Array.from({ length: 40 }, (_, i) => `tick ${i + 1}\n`),
      );
      assert.equal(await page.locator('#build-trace-box').getAttribute('data-complete'), 'true');
      assert.deepEqual(seen, []);
      await page.close();
    } finally {
      fs.rmSync(marks, { recursive: true, force: true });
    }
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
    const audit = await newAuditContext(browser, ci.base);
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
