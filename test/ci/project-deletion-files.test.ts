// Deleting a project takes its build artifacts and traces off the disk, after the rows are gone: through
// DELETE /projects/:id and through the deletion of the user whose personal project it is. Another
// project's files stay.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commitFiles, startCiProject, type CiProject } from '../helpers/ci.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { repoUrl } from '../helpers/git.ts';
import { RunnerClient } from '../helpers/runner-client.ts';
import { makeZip } from '../helpers/zip.ts';

const REGISTRATION_TOKEN = 'deletion-registration-token';
const PIPELINE = `
build:
  script: make
  artifacts:
    paths: [out/]
`;

describe('project deletion removes build files', () => {
  let ci: CiProject;
  let other: { owner: TestUser; project: TestProject };
  let runner: RunnerClient;

  /** The files on disk (relative to the data dir) under `<root>/<month>/<project id>/` of the CI roots. */
  function buildFiles(projectId: number): string[] {
    const found: string[] = [];
    const dataDir = ci.t.config.dataDir;
    for (const root of ['artifacts', 'builds']) {
      const rootDir = path.join(dataDir, root);
      if (!fs.existsSync(rootDir)) continue;
      for (const month of fs.readdirSync(rootDir)) {
        const dir = path.join(rootDir, month, String(projectId));
        if (!fs.existsSync(dir)) continue;
        for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
          if (entry.isFile()) found.push(path.relative(dataDir, path.join(entry.parentPath, entry.name)));
        }
      }
    }
    return found.sort();
  }

  /** Takes every pending build, writes a trace, uploads artifacts and reports success. */
  async function runBuilds(): Promise<void> {
    for (;;) {
      const job = await runner.requestJob();
      if (!job) return;
      assert.equal((await runner.patchTrace(job, 0, '$ make\ndone\n')).status, 202);
      const zip = await makeZip({ 'out/app.bin': 'binary' });
      const upload = await runner.uploadArtifacts(job, zip, 'out.zip');
      assert.equal(upload.status, 201, upload.text);
      assert.equal((await runner.update(job, 'success')).status, 200);
    }
  }

  before(async () => {
    ci = await startCiProject({ LABRADOR_RUNNER_TOKEN: REGISTRATION_TOKEN }, 'doomed');
    runner = new RunnerClient(ci.base);
    assert.equal((await runner.register(REGISTRATION_TOKEN)).status, 201);
    const owner = await createUser(ci.t, 'leaver');
    other = { owner, project: await createProject(ci.t, { owner, path: 'personal' }) };
    const work = await ci.client.workTree('other');
    await ci.client.ok(
      ['remote', 'add', 'origin', repoUrl(ci.base, other.project.fullPath, owner.username, owner.password)],
      work,
    );
    await commitFiles(ci.client, work, { '.gitlab-ci.yml': PIPELINE }, 'ci');
    await ci.client.ok(['push', '-q', 'origin', 'master'], work);
    assert.ok(await ci.push({ '.gitlab-ci.yml': PIPELINE }));
    await ci.t.server.deps.pushQueue.drain();
    await runBuilds();
  });
  after(() => ci.close());

  it('DELETE /projects/:id removes its artifacts and traces, and only its own', async () => {
    const files = buildFiles(ci.project.id);
    assert.ok(
      files.some((file) => file.startsWith('artifacts/')),
      files.join(', '),
    );
    assert.ok(
      files.some((file) => file.startsWith('builds/') && file.endsWith('.log')),
      files.join(', '),
    );
    const othersBefore = buildFiles(other.project.id);
    assert.ok(othersBefore.length >= 2, othersBefore.join(', '));

    const deleted = await ci.t.request('DELETE', `/api/v3/projects/${ci.project.id}`, {
      token: ci.owner.token,
    });
    assert.equal(deleted.status, 200, deleted.text);
    assert.deepEqual(buildFiles(ci.project.id), []);
    assert.deepEqual(buildFiles(other.project.id), othersBefore);
  });

  it("deleting a user removes their personal projects' artifacts and traces", async () => {
    assert.ok(buildFiles(other.project.id).length >= 2);
    const deleted = await ci.t.request('DELETE', `/api/v3/users/${other.owner.id}`, {
      token: ci.t.rootToken,
    });
    assert.equal(deleted.status, 200, deleted.text);
    const gone = await ci.t.request('GET', `/api/v3/projects/${other.project.id}`, { token: ci.t.rootToken });
    assert.equal(gone.status, 404);
    assert.deepEqual(buildFiles(other.project.id), []);
  });
});
