// The real ssh and git clients against the built-in SSH server: clone, push, and each refusal, with
// gitlab-shell's texts. One server for the file; every wait polls with a deadline.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  addProtectedBranch,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, type GitResult } from '../helpers/git.ts';
import { gitSshCommand, makeKey, sshArgs, startTestSsh, waitFor, type TestKey } from '../helpers/ssh.ts';
import type { StartedSsh } from '../../src/ssh/server.ts';

describe('git over SSH', () => {
  let t: TestApp;
  let ssh: StartedSsh;
  let client: GitClient;
  let owner: TestUser;
  let developer: TestUser;
  let guest: TestUser;
  let stranger: TestUser;
  let blocked: TestUser;
  let project: TestProject;
  let other: TestProject;
  const keys: Record<string, TestKey> = {};

  async function addKey(user: TestUser, name: string): Promise<void> {
    keys[name] = makeKey(client.home, name);
    const added = await t.request('POST', '/api/v3/user/keys', {
      token: user.token,
      body: { title: name, key: keys[name].publicKey },
    });
    assert.equal(added.status, 201);
  }

  /** `git` with GIT_SSH_COMMAND using the named key. */
  function git(key: string, args: string[], cwd?: string): Promise<GitResult> {
    return client.run(args, cwd, { GIT_SSH_COMMAND: gitSshCommand(keys[key]!, ssh.port) });
  }

  function url(p: TestProject): string {
    return `ssh://git@127.0.0.1:${ssh.port}/${p.fullPath}.git`;
  }

  /** The ssh client itself, running `command` (none: a shell request). */
  function runSsh(key: string, command?: string): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const args = [...sshArgs(keys[key]!, ssh.port), '-T', 'git@127.0.0.1', ...(command ? [command] : [])];
      const child = spawn('ssh', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  before(async () => {
    t = await startTestApp();
    ssh = await startTestSsh(t);
    client = new GitClient();
    owner = await createUser(t, 'sshowner', { name: 'Owner Person' });
    developer = await createUser(t, 'sshdev');
    guest = await createUser(t, 'sshguest');
    stranger = await createUser(t, 'sshstranger');
    blocked = await createUser(t, 'sshblocked');
    project = await createProject(t, { owner, path: 'over-ssh', commit: true });
    other = await createProject(t, { owner, path: 'elsewhere', commit: true });
    await addProjectMember(t, project.id, developer.id, 30);
    await addProjectMember(t, project.id, guest.id, 10);
    await addProjectMember(t, project.id, blocked.id, 30);
    await addKey(owner, 'owner');
    await addKey(developer, 'developer');
    await addKey(guest, 'guest');
    await addKey(stranger, 'stranger');
    await addKey(blocked, 'blocked');
    keys.unknown = makeKey(client.home, 'unknown');
    keys.deploy = makeKey(client.home, 'deploy');
    const deploy = await t.request('POST', `/api/v3/projects/${project.id}/keys`, {
      token: owner.token,
      body: { title: 'deploy', key: keys.deploy.publicKey },
    });
    assert.equal(deploy.status, 201);
    const block = await t.request('PUT', `/api/v3/users/${blocked.id}/block`, { token: t.rootToken });
    assert.equal(block.status, 200);
  });
  after(async () => {
    await ssh.server.stop();
    await t.close();
    client.close();
  });

  it('clones with the owner’s key (ssh:// URL, and the scp form with -p)', async () => {
    const cloned = await git('owner', ['clone', '-q', url(project), 'clone-url']);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.ok(fs.existsSync(path.join(client.home, 'clone-url', 'README.md')));
    const scp = await git('owner', ['clone', '-q', `git@127.0.0.1:/${project.fullPath}`, 'clone-scp']);
    assert.equal(scp.code, 0, scp.stderr);
    // Protocol v2 (the client's config asks for it; it travels in GIT_PROTOCOL) as well as v0.
    const v2 = await client.run(['ls-remote', url(project)], undefined, {
      GIT_SSH_COMMAND: gitSshCommand(keys.owner!, ssh.port),
      GIT_TRACE_PACKET: '1',
    });
    assert.equal(v2.code, 0, v2.stderr);
    assert.match(v2.stderr, /< version 2/);
    const v0 = await git('owner', ['-c', 'protocol.version=0', 'ls-remote', url(project)]);
    assert.equal(v0.code, 0, v0.stderr);
    assert.match(v0.stdout, /refs\/heads\/master/);
  });

  it('pushes as a developer; the push is processed before git push returns', async () => {
    const dir = path.join(client.home, 'clone-url');
    await client.commit(dir, 'pushed over ssh');
    const pushed = await git('developer', ['push', '-q', 'origin', 'HEAD:refs/heads/feature'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    assert.equal(events.status, 200);
    assert.ok(
      events.body.some(
        (e: { action_name: string; author_id: number }) =>
          e.action_name.startsWith('pushed') && e.author_id === developer.id,
      ),
      JSON.stringify(events.body),
    );
  });

  it('refuses an unknown key at authentication', async () => {
    const result = await git('unknown', ['ls-remote', url(project)]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /Permission denied \(publickey\)/);
  });

  it('refuses a blocked user, a non-member of a private project, and a guest’s push', async () => {
    const blockedRun = await git('blocked', ['ls-remote', url(project)]);
    assert.notEqual(blockedRun.code, 0);
    assert.match(blockedRun.stderr, /GitLab: Your account has been blocked\./);

    const hidden = await git('stranger', ['ls-remote', url(project)]);
    assert.notEqual(hidden.code, 0);
    assert.match(hidden.stderr, /GitLab: The project you were looking for could not be found\./);

    const guestRead = await git('guest', ['ls-remote', url(project)]);
    assert.notEqual(guestRead.code, 0);
    assert.match(guestRead.stderr, /GitLab: You are not allowed to download code from this project\./);

    const dir = path.join(client.home, 'clone-url');
    const guestPush = await git('guest', ['push', 'origin', 'HEAD:refs/heads/guest'], dir);
    assert.notEqual(guestPush.code, 0);
    assert.match(guestPush.stderr, /GitLab: You are not allowed to push code to this project\./);
  });

  it('lets a deploy key read its project only, and never push', async () => {
    const read = await git('deploy', ['ls-remote', url(project)]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /refs\/heads\/feature/);
    const elsewhere = await git('deploy', ['ls-remote', url(other)]);
    assert.notEqual(elsewhere.code, 0);
    assert.match(elsewhere.stderr, /GitLab: The project you were looking for could not be found\./);
    const dir = path.join(client.home, 'clone-url');
    const push = await git('deploy', ['push', 'origin', 'HEAD:refs/heads/deployed'], dir);
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /GitLab: Deploy keys are not allowed to push code\./);
  });

  it('applies protected branches with the same remote: message as HTTP', async () => {
    await addProtectedBranch(t, project.id, 'master');
    const dir = path.join(client.home, 'clone-url');
    const refused = await git('developer', ['push', 'origin', 'HEAD:refs/heads/master'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /remote: You are not allowed to push code to protected branches on this project\./,
    );
    const master = await git('owner', ['push', '-q', 'origin', 'HEAD:refs/heads/master'], dir);
    assert.equal(master.code, 0, master.stderr);
    // Only the push that went through has its event.
    const events = await t.request('GET', `/api/v3/projects/${project.id}/events`, { token: owner.token });
    const masterPushes = (events.body as { author_id: number; data: { ref: string } | null }[]).filter(
      (event) => event.data?.ref === 'refs/heads/master',
    );
    assert.deepEqual(
      masterPushes.map((event) => event.author_id),
      [owner.id],
    );
  });

  it('greets a shell, and refuses any other command with gitlab-shell’s text', async () => {
    const shell = await runSsh('owner');
    assert.equal(shell.code, 0, shell.stderr);
    assert.equal(shell.stdout, 'Welcome to GitLab, Owner Person!\n');
    const deployShell = await runSsh('deploy');
    assert.equal(deployShell.stdout, 'Welcome to GitLab, Anonymous!\n');
    for (const command of [
      'ls -la',
      'git-upload-pack',
      `git-upload-pack '${project.fullPath}.git' extra`,
      'sh',
    ]) {
      const refused = await runSsh('owner', command);
      assert.equal(refused.code, 1, command);
      assert.equal(refused.stderr, 'GitLab: Disallowed command\n', command);
    }
    // git archive --remote speaks git-upload-archive.
    const archive = await git('owner', [
      'archive',
      `--remote=${url(project)}`,
      '--format=tar',
      'master',
      'README.md',
    ]);
    assert.equal(archive.code, 0, archive.stderr);
    assert.match(archive.stdout, /README\.md/);
    const hiddenArchive = await git('stranger', ['archive', `--remote=${url(project)}`, 'master']);
    assert.notEqual(hiddenArchive.code, 0);
    assert.match(hiddenArchive.stderr, /GitLab: The project you were looking for could not be found\./);
  });

  it('caps connections: one over the cap is closed before the SSH banner', async () => {
    // A server of its own, whose held connections cannot time out during the test.
    const limited = await startTestSsh(t, { maxSessions: 3, authTimeoutMs: 120_000, hostKeys: ssh.hostKeys });
    const sockets: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const socket = net.connect(limited.port, '127.0.0.1');
        socket.on('error', () => {});
        sockets.push(socket);
        await new Promise((resolve) => socket.once('data', resolve));
      }
      const extra = net.connect(limited.port, '127.0.0.1');
      extra.on('error', () => {});
      let received = 0;
      extra.on('data', (chunk: Buffer) => (received += chunk.length));
      await new Promise((resolve) => extra.once('close', resolve));
      assert.equal(received, 0);
      assert.equal(limited.server.connectionCount(), 3);
    } finally {
      for (const socket of sockets) socket.destroy();
      await limited.server.stop();
    }
  });

  it('closes a connection that does not authenticate in time, never one that did', async () => {
    const quick = await startTestSsh(t, { authTimeoutMs: 300, hostKeys: ssh.hostKeys });
    // First an authenticated session: an upload-pack that waits for the client's wants.
    const session = spawn(
      'ssh',
      [...sshArgs(keys.owner!, quick.port), 'git@127.0.0.1', `git-upload-pack '${project.fullPath}.git'`],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    session.stderr.on('data', (chunk) => (stderr += chunk));
    const sessionClosed = new Promise<number | null>((resolve) => session.once('close', resolve));
    try {
      await new Promise((resolve) => session.stdout.once('data', resolve));
      // Then a client that says hello and never authenticates: the server closes it, not the client.
      const socket = net.connect(quick.port, '127.0.0.1');
      socket.on('error', () => {});
      let greeting = '';
      socket.on('data', (chunk: Buffer) => (greeting += chunk.toString('latin1')));
      socket.write('SSH-2.0-silent_client\r\n');
      await new Promise((resolve) => socket.once('close', resolve));
      assert.match(greeting, /^SSH-2\.0-/, 'greeted, then closed');
      await waitFor('the server to forget it', () => quick.server.connectionCount() === 1);
      // The authenticated session began earlier, so a timer left running would have ended it first. It is
      // still open: a flush (no wants) ends upload-pack normally, and ssh exits 0.
      session.stdin.end('0000');
      assert.equal(await sessionClosed, 0, stderr);
    } finally {
      session.kill('SIGKILL');
      await quick.server.stop();
    }
  });

  it('stops git when the client goes away', async () => {
    // An upload-pack that waits for the client's wants; killing ssh must end it on the server.
    const child = spawn(
      'ssh',
      [...sshArgs(keys.owner!, ssh.port), 'git@127.0.0.1', `git-upload-pack '${project.fullPath}.git'`],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const running = () =>
      fs
        .readdirSync('/proc')
        .filter((entry) => /^\d+$/.test(entry))
        .some((pid) => {
          try {
            const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
            return cmdline.includes('upload-pack') && cmdline.includes(project.repoPath);
          } catch {
            return false;
          }
        });
    assert.ok(running(), 'upload-pack runs while the client is connected');
    child.kill('SIGKILL');
    await waitFor('upload-pack to end', () => !running());
  });
});
