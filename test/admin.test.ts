// The admin CLI as an operator runs it: a separate process on the same data dir (and the same
// PostgreSQL database when the suite runs there), observed through the API afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { createUser, type CreatedUser } from './helpers/users.ts';

const root = path.resolve(import.meta.dirname, '..');

function run(
  t: TestApp,
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LABRADOR_DATA_DIR: t.config.dataDir,
        LABRADOR_DATABASE_URL: t.config.databaseUrl ?? '',
        LABRADOR_LOG_LEVEL: 'silent',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const admin = (t: TestApp, ...args: string[]) =>
  run(t, process.execPath, ['--import', 'tsx', 'src/admin.ts', ...args]);

describe('admin CLI: ldap-block / ldap-unblock', () => {
  let t: TestApp;
  let gina: CreatedUser;
  before(async () => {
    t = await startTestApp();
    gina = await createUser(t, { username: 'gina' });
  });
  after(() => t.close());

  it('LDAP-blocks a user: 401 for the user, 403 with GitLab’s texts for block and unblock', async () => {
    const result = await run(t, 'npm', ['run', '--silent', 'admin', '--', 'ldap-block', 'GINA']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /gina is now LDAP-blocked/);

    assert.equal((await t.request('GET', '/api/v3/user', { token: gina.token })).status, 401);
    const shown = await t.request('GET', `/api/v3/users/${gina.id}`, { token: t.rootToken });
    assert.equal(shown.body.state, 'blocked');
    const block = await t.request('PUT', `/api/v3/users/${gina.id}/block`, { token: t.rootToken });
    assert.equal(block.status, 403);
    assert.deepEqual(block.body, {
      message: '403 Forbidden  - LDAP blocked users cannot be modified by the API',
    });
    const unblock = await t.request('PUT', `/api/v3/users/${gina.id}/unblock`, { token: t.rootToken });
    assert.equal(unblock.status, 403);
    assert.deepEqual(unblock.body, {
      message: '403 Forbidden  - LDAP blocked users cannot be unblocked by the API',
    });
    const session = await t.request('POST', '/api/v3/session', {
      body: { login: 'gina', password: gina.password },
    });
    assert.equal(session.status, 401);

    const again = await admin(t, 'ldap-block', 'gina');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already LDAP-blocked/);
  });

  it('LDAP-unblocks: the user is active again and the API may block it', async () => {
    const result = await admin(t, 'ldap-unblock', 'gina');
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /gina is now active/);
    assert.equal((await t.request('GET', '/api/v3/user', { token: gina.token })).status, 200);
    const block = await t.request('PUT', `/api/v3/users/${gina.id}/block`, { token: t.rootToken });
    assert.equal(block.text, 'true');
  });

  it('refuses to LDAP-block or LDAP-unblock a user an administrator blocked', async () => {
    const blockResult = await admin(t, 'ldap-block', 'gina');
    assert.equal(blockResult.code, 1);
    assert.match(blockResult.stderr, /gina is blocked, not active/);
    const unblockResult = await admin(t, 'ldap-unblock', 'gina');
    assert.equal(unblockResult.code, 1);
    assert.match(unblockResult.stderr, /PUT \/users\/\d+\/unblock/);
    const shown = await t.request('GET', `/api/v3/users/${gina.id}`, { token: t.rootToken });
    assert.equal(shown.body.state, 'blocked');
  });

  it('fails clearly for unknown users, unknown commands and missing arguments', async () => {
    const unknownUser = await admin(t, 'ldap-block', 'nobody');
    assert.equal(unknownUser.code, 1);
    assert.match(unknownUser.stderr, /no user with username "nobody"/);
    const unknownCommand = await admin(t, 'frobnicate', 'gina');
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /unknown command: frobnicate/);
    const missing = await admin(t, 'ldap-unblock');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /usage:/);
    const none = await admin(t);
    assert.equal(none.code, 2);
    assert.match(none.stdout, /ldap-block <username>/);
  });
});
