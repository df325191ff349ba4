// Debian's python-gitlab 3.12 against a listening Labrador on v4's file templates: `gl.gitignores`,
// `gl.gitlabciymls`, `gl.dockerfiles` get and list (every page), `gl.licenses` list with and without
// `popular`, and one licence with its placeholders filled; a missing template's GitlabGetError.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createUser } from '../helpers/factory.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_templates.py');

describe('python-gitlab 3.12 on v4 file templates', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('gets and lists gitignores, CI files, Dockerfiles and licences', async () => {
    const user = await createUser(app.t, 'pytemplates');
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: { PATH: process.env.PATH, GITLAB_URL: app.url, GITLAB_TOKEN: user.token },
    });
    assert.equal(stderr, '');
    const seen = JSON.parse(stdout);
    const gitignores = await app.t.request('GET', '/api/v4/templates/gitignores');
    const licenses = await app.t.request('GET', '/api/v4/templates/licenses');
    assert.deepEqual(seen, {
      gitignore: ['Python', true],
      ci: ['Nodejs', true],
      dockerfile: ['Go', 2],
      gitignores: Number(gitignores.headers['x-total']),
      gitlabciymls: ['Docker', 'Go', 'HTML'],
      licenses: Number(licenses.headers['x-total']),
      popular: ['apache-2.0', 'gpl-3.0', 'mit'],
      mit: ['mit', true, `Copyright (c) ${new Date().getUTCFullYear()} Jane Roe`],
      missing: [404, '404 gitignore Not Found'],
    });
  });
});
