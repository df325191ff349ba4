// The admin CLI as an operator runs it: a separate process on the same data dir (and the same
// PostgreSQL database when the suite runs there), observed through the API afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { adminEntryPoint } from './helpers/process.ts';
import { createUser, type TestUser } from './helpers/factory.ts';
import { initBareRepository, repositoryPath } from '../src/git/repository.ts';

const root = path.resolve(import.meta.dirname, '..');

function run(
  t: TestApp,
  command: string,
  args: string[],
  input = '',
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
    child.stdin.end(input);
  });
}

// What `npm run admin` runs, built from the current src/ (a TypeScript loader costs seconds per command).
const admin = (t: TestApp, ...args: string[]) => run(t, process.execPath, [adminEntryPoint(), ...args]);

const adminWithInput = (t: TestApp, input: string, ...args: string[]) =>
  run(t, process.execPath, [adminEntryPoint(), ...args], input);

describe('admin CLI: ldap-block / ldap-unblock', () => {
  let t: TestApp;
  let gina: TestUser;
  before(async () => {
    t = await startTestApp();
    gina = await createUser(t, 'gina');
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

describe('admin CLI: reset-password, create-token', () => {
  let t: TestApp;
  let hana: TestUser;
  before(async () => {
    t = await startTestApp();
    hana = await createUser(t, 'hana');
  });
  after(() => t.close());

  const signIn = (password: string) =>
    t.request('POST', '/api/v3/session', { body: { login: 'hana', password } });

  it('reset-password prints a new password that signs in; the old one no longer does', async () => {
    const result = await admin(t, 'reset-password', 'hana');
    assert.equal(result.code, 0, result.stderr);
    const password = result.stdout.trim();
    assert.match(password, /^\S{20}$/);
    assert.equal((await signIn(password)).status, 201);
    assert.equal((await signIn(hana.password)).status, 401);
  });

  it('reset-password --stdin sets the password it reads; a too short one changes nothing', async () => {
    const result = await adminWithInput(t, 'chosen by the operator\n', 'reset-password', 'hana', '--stdin');
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stdout, /chosen/);
    assert.equal((await signIn('chosen by the operator')).status, 201);

    const short = await adminWithInput(t, 'short\n', 'reset-password', 'hana', '--stdin');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /too short \(minimum is 8 characters\).*not changed/);
    assert.equal((await signIn('chosen by the operator')).status, 201);
  });

  it('create-token prints a new private token; the old token stops working', async () => {
    const result = await admin(t, 'create-token', 'hana');
    assert.equal(result.code, 0, result.stderr);
    const token = result.stdout.trim();
    assert.notEqual(token, hana.token);
    const me = await t.request('GET', '/api/v3/user', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.username, 'hana');
    assert.equal((await t.request('GET', '/api/v3/user', { token: hana.token })).status, 401);
  });

  it('unknown users and extra arguments are refused', async () => {
    assert.equal((await admin(t, 'create-token', 'nobody')).code, 1);
    assert.equal((await admin(t, 'reset-password', 'hana', '--loud')).code, 2);
  });
});

describe('admin CLI: check', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('reports a consistent instance: exit 0', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'kept' },
    });
    assert.equal(created.status, 201);
    const result = await admin(t, 'check');
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^ok +database .* answers$/m);
    assert.match(result.stdout, /^ok +migrations: all have run$/m);
    assert.match(result.stdout, /^ok +data dir .* belongs to this database \(database-id [0-9a-f-]+\)$/m);
    assert.match(result.stdout, /^ok +projects: all 1 have their repository$/m);
    assert.match(result.stdout, /^ok +repositories: all 1 on disk belong to a project$/m);
  });

  it('reports a missing repository and a repository without project, and changes nothing', async () => {
    const created = await t.request('POST', '/api/v3/projects', {
      token: t.rootToken,
      body: { name: 'lost' },
    });
    assert.equal(created.status, 201);
    const lost = repositoryPath(t.config.dataDir, 'root', 'lost');
    fs.renameSync(lost, `${t.config.dataDir}/lost-elsewhere.git`);
    const stray = repositoryPath(t.config.dataDir, 'nobody', 'stray');
    await initBareRepository(t.config.dataDir, stray);

    const result = await admin(t, 'check');
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      new RegExp(`^PROBLEM +project root/lost \\(id ${created.body.id}\\): no repository at ${lost}$`, 'm'),
    );
    assert.match(result.stdout, new RegExp(`^PROBLEM +${stray} belongs to no project`, 'm'));
    assert.match(result.stdout, /2 problem\(s\) found; nothing was changed/);
    assert.ok(fs.existsSync(`${stray}/HEAD`), 'the stray repository is still there');
    const shown = await t.request('GET', '/api/v3/projects/root%2Flost', { token: t.rootToken });
    assert.equal(shown.status, 200, 'the project is still there');
  });

  it('refuses to work on a data dir that belongs to another database', async () => {
    fs.writeFileSync(`${t.config.dataDir}/database-id`, 'not-this-database\n');
    const result = await admin(t, 'check');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^admin: data dir .* belongs to another database/);
  });
});
