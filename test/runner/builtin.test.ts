// `npm start` with LABRADOR_RUNNER=builtin: the server starts its own runner, which registers with the
// shared token by itself, so a pushed pipeline runs with nothing else installed; SIGTERM stops both.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitFiles } from '../helpers/ci.ts';
import { GitClient, repoUrl } from '../helpers/git.ts';
import { createInstance, spawnLabrador, type Instance, type LabradorProcess } from '../helpers/process.ts';
import { eventually } from '../helpers/runner-client.ts';

describe('LABRADOR_RUNNER=builtin', () => {
  let instance: Instance;
  let server: LabradorProcess;
  const client = new GitClient();

  before(async () => {
    instance = await createInstance();
    server = spawnLabrador({ ...instance.env, LABRADOR_RUNNER: 'builtin' });
    // Generous: other process tests may be starting servers at the same time on a small machine.
    await server.waitForOutput(/"surfaces"/, 60_000);
    await server.ready();
  });
  after(async () => {
    await server?.kill();
    await instance?.remove();
    client.close();
  });

  it('runs a pushed pipeline with the runner npm start started, and stops it with the server', async () => {
    await server.waitForOutput(/runner: taking builds from/, 60_000);
    const created = await fetch(`${server.url}/api/v3/projects`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': instance.rootToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'firstci' }),
    });
    assert.equal(created.status, 201);
    const work = await client.workTree('firstci');
    await client.ok(
      ['remote', 'add', 'origin', repoUrl(server.url, 'root/firstci', 'root', instance.rootToken)],
      work,
    );
    await commitFiles(
      client,
      work,
      { '.gitlab-ci.yml': 'hello:\n  script:\n    - echo "hello from CI"\n' },
      'ci',
    );
    await client.ok(['push', '-q', 'origin', 'master'], work);
    await server.waitForOutput(/runner: build \d+ \(project \d+ firstci, job hello.*\) success in/, 60_000);

    const pid = Number(fs.readFileSync(path.join(instance.dataDir, 'runner', 'runner.pid'), 'utf8'));
    assert.ok(pid > 0);
    server.signal('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
    await eventually(async () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 10_000);
  });
});
