// The pre-receive hook the server installs applies the verdicts the server wrote for a push: in the
// order receive-pack feeds the commands (some may be left out), asking git about ancestry only where
// the verdict depends on it, and refusing whatever it cannot match to a verdict.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject } from '../helpers/factory.ts';
import { GitClient } from '../helpers/git.ts';
import { hooksPath, UNCHECKED_PUSH } from '../../src/git/protocol/server-hooks.ts';

const BLANK = '0000000000000000000000000000000000000000';
const REFUSED = 'You are not allowed to push code to protected branches on this project.';
const FORCE = 'You are not allowed to force push code to a protected branch on this project.';

describe('pre-receive hook', () => {
  let t: TestApp;
  let client: GitClient;
  let project: TestProject;
  let verdicts: string;
  let older: string;
  let newer: string;

  /** Runs the installed hook in the project's repository with these stdin lines. */
  function hook(lines: string[], file: string | null = verdicts) {
    const result = spawnSync(path.join(hooksPath(t.config.dataDir), 'pre-receive'), [], {
      cwd: project.repoPath,
      input: lines.map((line) => `${line}\n`).join(''),
      env: { PATH: process.env.PATH, ...(file ? { LABRADOR_PUSH_VERDICTS: file } : {}) },
    });
    return { code: result.status, stderr: result.stderr.toString() };
  }

  before(async () => {
    t = await startTestApp();
    client = new GitClient();
    const owner = await createUser(t, 'hooker');
    project = await createProject(t, { owner, path: 'hooked' });
    const work = await client.workTree('work', ['one']);
    older = (await client.ok(['rev-parse', 'HEAD'], work)).trim();
    newer = await client.commit(work, 'two');
    await client.ok(['push', '-q', project.repoPath, 'master'], work);
    verdicts = path.join(client.home, 'verdicts');
    fs.writeFileSync(
      verdicts,
      [
        `${BLANK} ${newer} refs/heads/free`,
        '\t',
        `${BLANK} ${newer} refs/heads/closed`,
        `${REFUSED}\t${REFUSED}`,
        `${older} ${newer} refs/heads/master`,
        `\t${FORCE}`,
        `${newer} ${older} refs/heads/master`,
        `\t${FORCE}`,
      ].join('\n') + '\n',
    );
  });
  after(async () => {
    await t.close();
    client.close();
  });

  it('lets allowed updates through and refuses with the first refusal, in order', () => {
    assert.deepEqual(hook([`${BLANK} ${newer} refs/heads/free`]), { code: 0, stderr: '' });
    assert.deepEqual(hook([`${BLANK} ${newer} refs/heads/free`, `${BLANK} ${newer} refs/heads/closed`]), {
      code: 1,
      stderr: `${REFUSED}\n`,
    });
    // receive-pack left the first command out (it rejected it itself): the next verdict still applies.
    assert.deepEqual(hook([`${BLANK} ${newer} refs/heads/closed`]), { code: 1, stderr: `${REFUSED}\n` });
  });

  it('asks git about ancestry where the verdict depends on it', () => {
    assert.deepEqual(hook([`${older} ${newer} refs/heads/master`]), { code: 0, stderr: '' });
    assert.deepEqual(hook([`${newer} ${older} refs/heads/master`]), { code: 1, stderr: `${FORCE}\n` });
  });

  it('refuses a command without a verdict, and a push without verdicts', () => {
    assert.deepEqual(hook([`${BLANK} ${older} refs/heads/unknown`]), {
      code: 1,
      stderr: `${UNCHECKED_PUSH}\n`,
    });
    const refused = { code: 1, stderr: `${UNCHECKED_PUSH}\n` };
    assert.deepEqual(hook([`${BLANK} ${newer} refs/heads/free`], null), refused);
    assert.deepEqual(hook([`${BLANK} ${newer} refs/heads/free`], path.join(client.home, 'missing')), refused);
  });
});
