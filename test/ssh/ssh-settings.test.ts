// The SSH settings: validated with the others, and what ssh_url_to_repo (and hook payloads) show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser } from '../helpers/factory.ts';

describe('SSH settings', () => {
  it('defaults to port 2222 on the external URL’s host, and takes LABRADOR_SSH_HOST', () => {
    const base = { LABRADOR_EXTERNAL_URL: 'https://git.example.com' };
    assert.equal(loadConfig(base).ssh.port, 2222);
    assert.equal(loadConfig(base).ssh.cloneUrlBase, 'ssh://git@git.example.com:2222/');
    assert.equal(loadConfig({ ...base, LABRADOR_SSH_PORT: '22' }).ssh.cloneUrlBase, 'git@git.example.com:');
    assert.equal(
      loadConfig({ ...base, LABRADOR_SSH_PORT: '22', LABRADOR_SSH_HOST: 'ssh.example.com' }).ssh.cloneUrlBase,
      'git@ssh.example.com:',
    );
    // Off: GitLab's usual form stays in the API.
    assert.equal(loadConfig({ ...base, LABRADOR_SSH_PORT: '0' }).ssh.cloneUrlBase, 'git@git.example.com:');
  });

  it('refuses bad values with one line each', () => {
    assert.throws(
      () =>
        loadConfig({
          LABRADOR_SSH_PORT: '70000',
          LABRADOR_SSH_HOST: 'bad host',
          LABRADOR_SSH_MAX_SESSIONS: '0',
        }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 3, error.message);
        assert.match(error.message, /LABRADOR_SSH_PORT must be a port number/);
        assert.match(error.message, /LABRADOR_SSH_HOST must be a host name/);
        assert.match(error.message, /LABRADOR_SSH_MAX_SESSIONS must be an integer ≥ 1/);
        return true;
      },
    );
  });

  describe('ssh_url_to_repo', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ LABRADOR_SSH_PORT: '2200', LABRADOR_SSH_HOST: 'ssh.labrador.test' });
    });
    after(() => t.close());

    it('names the SSH port and host', async () => {
      const owner = await createUser(t, 'sshurl');
      const project = await createProject(t, { owner, path: 'urls' });
      const shown = await t.request('GET', `/api/v3/projects/${project.id}`, { token: owner.token });
      assert.equal(shown.status, 200);
      assert.equal(shown.body.ssh_url_to_repo, 'ssh://git@ssh.labrador.test:2200/sshurl/urls.git');
      assert.equal(shown.body.http_url_to_repo, 'http://labrador.test/sshurl/urls.git');
    });
  });
});
