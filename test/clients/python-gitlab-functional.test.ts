// Debian's python-gitlab 3.12 against a listening Labrador on what the client's own functional tests
// reach: a thread's note by id (`discussion.notes.get`), `labels=Any`/`None`, `user.block()` twice
// (True, then None), `gl.markdown()`, `files.blame()`, `gl.keys.get()` by id and by fingerprint (a deploy
// key with its deploy_keys_projects), `project.upload()`, `housekeeping()`, `storage.get()`, and
// `cancel_merge_when_pipeline_succeeds()` answering `{"status": "success"}`, then 406.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createUser } from '../helpers/factory.ts';
import { startClientApp, type ClientApp } from './client-app.ts';
import { PYTHON, pythonGitlabSkip } from './python-gitlab-client.ts';

const SCRIPT = path.join(import.meta.dirname, 'python_gitlab_functional.py');

/** A fresh ed25519 public key in OpenSSH's one-line form. */
function sshPublicKey(comment: string): string {
  const { publicKey } = crypto.generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

describe('python-gitlab 3.12 on what its functional tests reach', { skip: pythonGitlabSkip }, () => {
  let app: ClientApp;

  before(async () => {
    app = await startClientApp();
  });
  after(() => app.t.close());

  it('reads notes, filters labels, blocks, renders, blames, finds keys, uploads, cancels', async () => {
    const { stdout, stderr } = await promisify(execFile)(PYTHON, [SCRIPT], {
      env: {
        PATH: process.env.PATH,
        GITLAB_URL: app.url,
        GITLAB_TOKEN: app.t.rootToken,
        SSH_KEY: sshPublicKey('py@laptop'),
        DEPLOY_KEY: sshPublicKey('py@deploy'),
      },
    });
    assert.equal(stderr, '');
    const seen = JSON.parse(stdout);
    assert.deepEqual(seen.note, [true, 'edited reply']);
    assert.deepEqual(seen.missing_note, ['GitlabGetError', 404, '404 Not found']);
    assert.deepEqual(seen.labels, { any: ['Labelled'], none: ['Threaded'], named: ['Labelled'] });
    assert.deepEqual(seen.block, [true, null, true, false]);
    assert.equal(seen.markdown, '<p><strong>foo</strong></p>\n');
    assert.match(seen.gfm, /<a href="\/root\/pyfunc\/issues\/1"[^>]*>#1<\/a>/);
    assert.deepEqual(seen.markdown_hidden, ['GitlabMarkdownError', 404, '404 Project Not Found']);
    assert.deepEqual(seen.blame, [
      ['Add README', ['one', 'two']],
      ['Third line', ['three']],
    ]);
    assert.deepEqual(seen.blame_missing, ['GitlabListError', 404, '404 File Not Found']);
    assert.deepEqual(seen.keys, {
      by_id: ['py@laptop', true, 'pyblock'],
      by_sha: [true, 'pyblock'],
      deploy: ['py-deploy', null, [true]],
      by_md5: true,
      unknown: ['GitlabHttpError', 404, '404 Key Not Found'],
      missing: ['GitlabGetError', 404, '404 Not found'],
    });
    assert.equal(seen.upload[0], 'notes.txt');
    assert.equal(seen.upload[1], true);
    assert.match(seen.upload[2], /^\[notes\.txt\]\(\/uploads\/[0-9a-f]{32}\/notes\.txt\)$/);
    assert.equal(seen.storage, 'default');
    assert.deepEqual(seen.mwps, [true, { status: 'success' }]);
    assert.deepEqual(seen.mwps_again, ['GitlabMROnBuildSuccessError', 406, '406 Not Acceptable']);
  });

  it('answers an upload with full_path, and storage with the repository path', async () => {
    const { t } = app;
    const made = await t.request('POST', '/api/v4/projects', { token: t.rootToken, body: { name: 'upl' } });
    assert.equal(made.status, 201, made.text);
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'hello.txt');
    const response = await fetch(`${app.url}/api/v4/projects/${made.body.id}/uploads`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': t.rootToken },
      body: form,
    });
    assert.equal(response.status, 201);
    const upload = await response.json();
    assert.equal(upload.full_path, `/root/upl${upload.url}`);
    const served = await fetch(`${app.url}${upload.full_path}`, {
      headers: { 'PRIVATE-TOKEN': t.rootToken },
    });
    assert.equal(await served.text(), 'hello');
    const storage = await t.request('GET', `/api/v4/projects/${made.body.id}/storage`, {
      token: t.rootToken,
    });
    assert.deepEqual(storage.body, {
      project_id: made.body.id,
      disk_path: 'root/upl',
      created_at: made.body.created_at,
      repository_storage: 'default',
    });
    const stranger = await createUser(t, 'pystranger');
    const refused = await t.request('GET', `/api/v4/projects/${made.body.id}/storage`, {
      token: stranger.token,
    });
    assert.equal(refused.status, 403);
    const notHers = await t.request('POST', `/api/v4/projects/${made.body.id}/housekeeping`, {
      token: stranger.token,
    });
    assert.equal(notHers.status, 404);
  });
});
