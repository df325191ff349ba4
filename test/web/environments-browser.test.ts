// The environments pages in Chromium after a real pipeline run by Labrador's own runner: the deployment
// a job made is listed with its iid, ref, commit, job and who; the environment's page lists its
// deployments; its Stop button plays the on_stop job, whose success moves it to the Stopped tab.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildsOf, startCiProject, type CiProject } from '../helpers/ci.ts';
import { browserMissing, launchBrowser, newContext, signIn } from '../helpers/browser.ts';
import { spawnRunner, type RunnerProcess } from '../helpers/runner-process.ts';
import { until } from '../helpers/wait.ts';

const skip = browserMissing();
const REGISTRATION_TOKEN = 'environments-browser-token';

describe('environments pages in Chromium', { skip }, () => {
  let ci: CiProject;
  let runner: RunnerProcess;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'envbr');
    runner = spawnRunner({
      url: ci.base,
      registrationToken: REGISTRATION_TOKEN,
      extraArgs: ['--sandbox', 'off'],
    });
    browser = await launchBrowser();
    await runner.waitForOutput(/taking builds from/, 60_000);
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

  it('lists the deployment a pipeline made, then stops the environment from its page', async () => {
    const pipeline = (await ci.push({
      '.gitlab-ci.yml': `
deploy:
  stage: deploy
  script: [echo deploying]
  environment: {name: staging, url: "https://staging.example.com", on_stop: teardown}
teardown:
  stage: deploy
  script: [echo tearing down]
  when: manual
  environment: {name: staging, action: stop}
`,
    }))!;
    const deploy = (await buildsOf(ci.t, pipeline.id)).find((b) => b.name === 'deploy')!;
    const page = await context.newPage();
    const base = `/${ci.project.fullPath}`;
    await page.goto(`${base}/pipelines`);
    await page.getByRole('link', { name: 'Environments' }).click();
    await page.waitForURL(`**${base}/environments`);
    // The job runs meanwhile: reload until its deployment shows.
    await until('the deployment on the environments page', async () => {
      await page.reload();
      return (await page.getByRole('table', { name: 'Environments' }).count()) === 1;
    });
    const row = page.getByRole('row', { name: /staging/ });
    assert.match(
      await row.innerText(),
      new RegExp(
        `#1\\s+master · ${pipeline.sha.slice(0, 8)}\\s+deploy \\(#${deploy.id}\\) by ${ci.owner.username}`,
      ),
    );
    assert.equal(
      await row.getByRole('link', { name: `deploy (#${deploy.id})` }).getAttribute('href'),
      `${base}/builds/${deploy.id}`,
    );

    await row.getByRole('link', { name: 'staging', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /staging/ }).waitFor();
    const deployments = page.getByRole('table', { name: 'Deployments' });
    assert.equal(await deployments.getByRole('row').count(), 2);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForURL(/\/builds\/\d+$/);
    await page.getByRole('heading', { level: 1, name: /Build #\d+ (pending|running|success)/ }).waitFor();

    await until('the environment to be stopped', async () => {
      await page.goto(`${base}/environments?scope=stopped`);
      return (await page.getByRole('row', { name: /staging/ }).count()) === 1;
    });
    await page.goto(`${base}/environments`);
    assert.match(
      await page.getByText("You don't have any environments right now.").innerText(),
      /environments/,
    );
    await page.close();
  });
});
