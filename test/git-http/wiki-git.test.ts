// A project's wiki as a git repository (`<project>.wiki.git`) over smart HTTP and the built-in SSH server:
// a page written through the API is cloned, a page pushed is read through the API, with 8.13's rules
// (reporters clone, developers push, guests of a private project and strangers do not, a wiki that is
// off is not served), and a push to the wiki touches neither the project's repository nor its events.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProjectTeam,
  createUser,
  type ProjectTeam,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { gitSshCommand, makeKey, startTestSsh, type TestKey } from '../helpers/ssh.ts';
import type { StartedSsh } from '../../src/ssh/server.ts';
import { AccessLevel } from '../../src/domain/types.ts';

describe('wiki repositories over git', () => {
  let t: TestApp;
  let base: string;
  let ssh: StartedSsh;
  let client: GitClient;
  let team: ProjectTeam;
  let guest: TestUser;
  const keys: Record<string, TestKey> = {};

  const wikiUrl = (user?: TestUser) =>
    repoUrl(base, team.project.fullPath, user?.username, user?.password, '.wiki.git');
  const sshUrl = () => `ssh://git@127.0.0.1:${ssh.port}/${team.project.fullPath}.wiki.git`;
  const viaSsh = (key: string) => ({ GIT_SSH_COMMAND: gitSshCommand(keys[key]!, ssh.port) });
  const api = (method: string, url: string, token: string, body?: Record<string, unknown>) =>
    t.request(method, `/api/v4/projects/${team.project.id}${url}`, { token, body });

  async function addKey(user: TestUser, name: string): Promise<void> {
    keys[name] = makeKey(client.home, name);
    const added = await t.request('POST', '/api/v3/user/keys', {
      token: user.token,
      body: { title: name, key: keys[name].publicKey },
    });
    assert.equal(added.status, 201, added.text);
  }

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    ssh = await startTestSsh(t);
    client = new GitClient();
    team = await createProjectTeam(t, 'gitwiki', {
      owner: 'gwowner',
      developer: 'gwdev',
      reporter: 'gwreporter',
      stranger: 'gwstranger',
    });
    guest = await createUser(t, 'gwguest');
    await addProjectMember(t, team.project.id, guest.id, AccessLevel.Guest);
    await addKey(team.developer, 'dev');
    await addKey(team.reporter, 'reporter');
    await addKey(team.stranger, 'stranger');
  });
  after(async () => {
    await ssh.server.stop();
    await t.close();
    client.close();
  });

  it('clones a page written through the API over HTTP, and reads a pushed page through the API', async () => {
    const created = await api('POST', '/wikis', team.developer.token, { title: 'Home', content: 'Welcome' });
    assert.equal(created.status, 201, created.text);
    const dir = path.join(client.home, 'http-clone');
    await client.ok(['clone', '-q', wikiUrl(team.reporter), dir]);
    assert.equal(fs.readFileSync(path.join(dir, 'home.md'.replace('home', 'Home')), 'utf8'), 'Welcome');

    const events = await t.request('GET', `/api/v3/projects/${team.project.id}/events`, {
      token: team.owner.token,
    });
    const before = events.body.length;
    const projectHead = await client.ok([
      'ls-remote',
      repoUrl(base, team.project.fullPath, team.owner.username, team.owner.password),
    ]);

    const work = path.join(client.home, 'http-work');
    await client.ok(['clone', '-q', wikiUrl(team.developer), work]);
    fs.writeFileSync(path.join(work, 'Pushed-Page.md'), '# Pushed\n\nover *HTTP*');
    await client.ok(['add', '-A'], work);
    await client.ok(['commit', '-q', '-m', 'Add a page by push'], work);
    await client.ok(['push', '-q', 'origin', 'master'], work);

    const page = await api('GET', '/wikis/Pushed-Page', team.reporter.token);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual([page.body.title, page.body.content], ['Pushed Page', '# Pushed\n\nover *HTTP*']);
    // Nothing of the project's own changed: its refs, its events.
    assert.equal(
      await client.ok([
        'ls-remote',
        repoUrl(base, team.project.fullPath, team.owner.username, team.owner.password),
      ]),
      projectHead,
    );
    await t.server.deps.pushQueue.drain();
    const after = await t.request('GET', `/api/v3/projects/${team.project.id}/events`, {
      token: team.owner.token,
    });
    assert.equal(after.body.length, before);
  });

  it('refuses a reporter push, a guest clone and strangers over HTTP', async () => {
    const work = path.join(client.home, 'reporter-work');
    await client.ok(['clone', '-q', wikiUrl(team.reporter), work]);
    fs.writeFileSync(path.join(work, 'Nope.md'), 'no');
    await client.ok(['add', '-A'], work);
    await client.ok(['commit', '-q', '-m', 'nope'], work);
    const push = await client.run(['push', '-q', 'origin', 'master'], work);
    assert.notEqual(push.code, 0);
    assert.match(push.stderr, /403|not allowed to write to this project's wiki/);

    const guestClone = await client.run(['clone', '-q', wikiUrl(guest), path.join(client.home, 'guest')]);
    assert.notEqual(guestClone.code, 0);
    assert.match(guestClone.stderr, /403|not allowed to download code/);
    const strangerClone = await client.run([
      'clone',
      '-q',
      wikiUrl(team.stranger),
      path.join(client.home, 's'),
    ]);
    assert.notEqual(strangerClone.code, 0);
    assert.match(strangerClone.stderr, /not found|404/i);
  });

  it('clones and pushes the wiki over SSH, with the same rules', async () => {
    const dir = path.join(client.home, 'ssh-work');
    await client.ok(['clone', '-q', sshUrl(), dir], client.home, viaSsh('dev'));
    assert.deepEqual(
      fs
        .readdirSync(dir)
        .filter((name) => name !== '.git')
        .sort(),
      ['Home.md', 'Pushed-Page.md'],
    );
    fs.writeFileSync(path.join(dir, 'Home.md'), 'Welcome, edited over SSH');
    await client.ok(['commit', '-q', '-am', 'Edit home over SSH'], dir);
    await client.ok(['push', '-q', 'origin', 'master'], dir, viaSsh('dev'));
    const home = await api('GET', '/wikis/home', team.reporter.token);
    assert.equal(home.body.content, 'Welcome, edited over SSH');

    const reporterDir = path.join(client.home, 'ssh-reporter');
    await client.ok(['clone', '-q', sshUrl(), reporterDir], client.home, viaSsh('reporter'));
    fs.writeFileSync(path.join(reporterDir, 'Home.md'), 'not allowed');
    await client.ok(['commit', '-q', '-am', 'x'], reporterDir);
    const refused = await client.run(['push', '-q', 'origin', 'master'], reporterDir, viaSsh('reporter'));
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /GitLab: You are not allowed to write to this project's wiki\./);
    const stranger = await client.run(
      ['clone', '-q', sshUrl(), path.join(client.home, 'x')],
      client.home,
      viaSsh('stranger'),
    );
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /GitLab: The project you were looking for could not be found\./);

    // With the wiki off, nobody clones it.
    const off = await api('PUT', '', team.owner.token, { wiki_enabled: false });
    assert.equal(off.status, 200, off.text);
    const closed = await client.run(
      ['clone', '-q', sshUrl(), path.join(client.home, 'y')],
      client.home,
      viaSsh('dev'),
    );
    assert.notEqual(closed.code, 0);
    assert.match(closed.stderr, /GitLab: You are not allowed to download code from this project\./);
  });
});
