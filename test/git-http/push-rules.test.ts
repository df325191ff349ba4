import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import pino from 'pino';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  addProjectMember,
  createProject,
  createUser,
  type TestProject,
  type TestUser,
} from '../helpers/factory.ts';
import { GitClient, listen, repoUrl, pkt } from '../helpers/git.ts';
import { AccessLevel } from '../../src/domain/types.ts';
import { startServer, type Server } from '../../src/server.ts';
import { recordPendingPush, settlePush } from '../../src/services/push/push.ts';
import { findProjectRecordById } from '../../src/db/repositories/projects.ts';

/** A push's row and the project's newest event (with its payload), as `server` finds them. */
async function pushAndNewestEvent(server: Server, pushId: number, projectId: number) {
  const db = server.deps.db.kysely;
  const push = await db.selectFrom('pushes').selectAll().where('id', '=', pushId).executeTakeFirstOrThrow();
  const event = await db
    .selectFrom('events')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { push, event, data: JSON.parse(event.data!) };
}

describe('push rules and push processing', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let master: TestUser;
  let developer: TestUser;
  let project: TestProject;
  let work: string;

  const url = (user: TestUser) => repoUrl(base, project.fullPath, user.username, user.password);
  const refSha = async (ref: string) =>
    (await client.run(['--git-dir', project.repoPath, 'rev-parse', '--verify', '-q', ref])).stdout.trim();
  const protect = (branch: string, body: Record<string, unknown> = {}) =>
    t.request(
      'PUT',
      `/api/v3/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}/protect`,
      {
        token: owner.token,
        body,
      },
    );

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'olga');
    master = await createUser(t, 'max');
    developer = await createUser(t, 'deb');
    project = await createProject(t, { owner, path: 'rules' });
    await addProjectMember(t, project.id, master.id, AccessLevel.Master);
    await addProjectMember(t, project.id, developer.id, AccessLevel.Developer);
    work = await client.workTree('rules-work', ['base']);
    await client.ok(['push', '-q', url(owner), 'master'], work);
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('lets only masters and owners push to a protected branch, developers when developers_can_push', async () => {
    assert.equal((await protect('master')).status, 200);
    const before = await refSha('refs/heads/master');
    const sha = await client.commit(work, 'developer change');
    const refused = await client.run(['push', url(developer), 'master'], work);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /remote: You are not allowed to push code to protected branches on this project\./,
    );
    assert.equal(await refSha('refs/heads/master'), before, 'the ref stays unchanged');

    await client.ok(['push', '-q', url(master), 'master'], work);
    assert.equal(await refSha('refs/heads/master'), sha);

    assert.equal((await protect('master', { developers_can_push: true })).body.developers_can_push, true);
    const next = await client.commit(work, 'developer allowed');
    await client.ok(['push', '-q', url(developer), 'master'], work);
    assert.equal(await refSha('refs/heads/master'), next);
  });

  it('refuses force pushes and deletions of protected branches for everyone, with the reason', async () => {
    await protect('master');
    const current = await refSha('refs/heads/master');
    await client.ok(['reset', '-q', '--hard', 'HEAD~1'], work);
    await client.commit(work, 'rewritten');
    const force = await client.run(['push', '--force', url(owner), 'master'], work);
    assert.notEqual(force.code, 0);
    assert.match(
      force.stderr,
      /remote: You are not allowed to force push code to a protected branch on this project\./,
    );
    assert.equal(await refSha('refs/heads/master'), current);

    const remove = await client.run(['push', url(owner), ':master'], work);
    assert.notEqual(remove.code, 0);
    assert.match(
      remove.stderr,
      /remote: You are not allowed to delete protected branches from this project\./,
    );
    assert.equal(await refSha('refs/heads/master'), current);
    await client.ok(['reset', '-q', '--hard', current], work);
  });

  it('applies wildcard protection rules', async () => {
    await t.server.deps.db.kysely
      .insertInto('protected_branches')
      .values({
        project_id: project.id,
        name: 'release/*',
        developers_can_push: 0,
        developers_can_merge: 0,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const refused = await client.run(['push', url(developer), 'HEAD:refs/heads/release/1.0'], work);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /remote: You are not allowed to push code to protected branches/);
    assert.equal(await refSha('refs/heads/release/1.0'), '');
    await client.ok(['push', '-q', url(developer), 'HEAD:refs/heads/unprotected/1.0'], work);
    await client.ok(['push', '-q', url(developer), ':refs/heads/unprotected/1.0'], work);
    await t.server.deps.pushQueue.drain();
    const rows = await t.server.deps.db.kysely
      .selectFrom('events')
      .select('data')
      .where('project_id', '=', project.id)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    const deleted = JSON.parse(rows[0].data!);
    assert.equal(deleted.ref, 'refs/heads/unprotected/1.0');
    assert.equal(deleted.after, '0000000000000000000000000000000000000000');
    assert.equal(deleted.checkout_sha, null);
    assert.equal(deleted.total_commits_count, 0);
  });

  it('lets developers create tags but not move or delete existing ones', async () => {
    await client.ok(['tag', 'dev-tag'], work);
    await client.ok(['push', '-q', url(developer), 'dev-tag'], work);
    const tagged = await refSha('refs/tags/dev-tag');
    const remove = await client.run(['push', url(developer), ':refs/tags/dev-tag'], work);
    assert.notEqual(remove.code, 0);
    assert.match(remove.stderr, /remote: You are not allowed to change existing tags on this project\./);
    assert.equal(await refSha('refs/tags/dev-tag'), tagged);
    await client.ok(['push', '-q', url(master), ':refs/tags/dev-tag'], work);
    assert.equal(await refSha('refs/tags/dev-tag'), '');
  });

  it('refuses every push to an archived project with a readable reason', async () => {
    const archived = await createProject(t, { owner, path: 'attic', archived: true });
    const result = await client.run(
      ['push', repoUrl(base, archived.fullPath, owner.username, owner.password), 'master'],
      work,
    );
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /remote: You are not allowed to push code to this project\./);
    const refs = await client.ok(['--git-dir', archived.repoPath, 'for-each-ref']);
    assert.equal(refs, '');
    // Still readable.
    const clone = await client.run([
      'clone',
      repoUrl(base, archived.fullPath, owner.username, owner.password),
      'attic',
    ]);
    assert.equal(clone.code, 0, clone.stderr);
  });

  it('accepts gzip request bodies', async () => {
    const sha = await refSha('refs/heads/master');
    const request = zlib.gzipSync(Buffer.from(`0032want ${sha}\n00000009done\n`));
    const auth = 'Basic ' + Buffer.from(`${owner.username}:${owner.password}`).toString('base64');
    const response = await fetch(`${base}/${project.fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
      },
      body: request,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-git-upload-pack-result');
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(body.subarray(0, 8).toString(), '0008NAK\n');
    assert.equal(body.subarray(8, 12).toString(), 'PACK');
  });

  it('records only the commands receive-pack applied, with and without a report asked for', async () => {
    // A push one of whose commands fails on its own (its ref moved since the client looked) while
    // another creates a branch: git clients cannot be made to send that, so the request is made here.
    const head = await refSha('refs/heads/master');
    const stale = await refSha('refs/heads/master~1');
    const older = await refSha('refs/heads/master~2');
    await client.ok(['push', '-q', url(developer), `${head}:refs/heads/moving`], work);
    const header = Buffer.from('PACK\0\0\0\x02\0\0\0\0', 'latin1');
    const emptyPack = Buffer.concat([header, crypto.createHash('sha1').update(header).digest()]);
    const push = async (capabilities: string, created: string) => {
      const commands =
        pkt(`${stale} ${older} refs/heads/moving\0${capabilities}\n`) +
        pkt(`${'0'.repeat(40)} ${head} refs/heads/${created}\n`) +
        '0000';
      const response = await fetch(`${base}/${project.fullPath}.git/git-receive-pack`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-git-receive-pack-request',
          authorization: `Basic ${Buffer.from(`${developer.username}:${developer.password}`).toString('base64')}`,
        },
        body: Buffer.concat([Buffer.from(commands), emptyPack]),
      });
      assert.equal(response.status, 200);
      return Buffer.from(await response.arrayBuffer()).toString('latin1');
    };
    const pushedRefs = async () => {
      const response = await t.request('GET', `/api/v3/projects/${project.id}/events?per_page=100`, {
        token: owner.token,
      });
      assert.equal(response.status, 200);
      return (response.body as { data: { ref: string } | null }[]).map((event) => event.data?.ref);
    };
    const before = (await pushedRefs()).length;

    const reported = await push('report-status side-band-64k agent=test', 'created-reported');
    assert.match(reported, /ok refs\/heads\/created-reported/);
    assert.match(reported, /ng refs\/heads\/moving /);
    // Without report-status the answer says nothing; the refs tell what happened.
    const silent = await push('agent=test', 'created-silently');
    assert.doesNotMatch(silent, /ok refs/);

    assert.equal(await refSha('refs/heads/moving'), head);
    assert.equal(await refSha('refs/heads/created-reported'), head);
    assert.equal(await refSha('refs/heads/created-silently'), head);
    const refs = await pushedRefs();
    // Newest first: one event per created branch, none for the command that failed.
    assert.deepEqual(refs.slice(0, refs.length - before), [
      'refs/heads/created-silently',
      'refs/heads/created-reported',
    ]);
  });

  it('processes on start-up a push whose refs moved before a crash', async () => {
    const before = await refSha('refs/heads/master');
    // The ref moves (receive-pack finished) but the process died before recording anything.
    await client.ok(['checkout', '-q', '-b', 'crashed'], work);
    const sha = await client.commit(work, 'pushed before the crash');
    await client.ok(['push', '-q', project.repoPath, 'crashed'], work);
    const pushId = await recordPendingPush(t.server.deps, project.id, developer.id, [
      { before: '0000000000000000000000000000000000000000', after: sha, ref: 'refs/heads/crashed' },
    ]);
    // And one that never got to move its ref (refused, or killed before): young, so left for later.
    const stalled = await recordPendingPush(t.server.deps, project.id, developer.id, [
      { before, after: sha, ref: 'refs/heads/master' },
    ]);

    const restarted = await startServer(t.config, pino({ level: 'silent' }));
    try {
      const db = restarted.deps.db.kysely;
      const { push, event, data } = await pushAndNewestEvent(restarted, pushId, project.id);
      assert.equal(push.status, 'processed');
      assert.deepEqual(JSON.parse(push.applied_changes!), [
        { before: '0000000000000000000000000000000000000000', after: sha, ref: 'refs/heads/crashed' },
      ]);
      assert.equal(data.ref, 'refs/heads/crashed');
      assert.equal(data.after, sha);
      assert.equal(event.author_id, developer.id);
      const left = await db
        .selectFrom('pushes')
        .select('status')
        .where('id', '=', stalled)
        .executeTakeFirstOrThrow();
      assert.equal(left.status, 'pending');
    } finally {
      await restarted.close();
    }
  });

  it('records on start-up the events of a push that was answered but not yet processed before a crash', async () => {
    // receive-pack moved the ref and the push was settled (what happens before `git push` gets its
    // answer); the process died before the events were recorded.
    await client.ok(['checkout', '-q', '-b', 'answered'], work);
    const sha = await client.commit(work, 'answered before the crash');
    await client.ok(['push', '-q', project.repoPath, 'answered'], work);
    const change = {
      before: '0000000000000000000000000000000000000000',
      after: sha,
      ref: 'refs/heads/answered',
    };
    const pushId = await recordPendingPush(t.server.deps, project.id, developer.id, [change]);
    const record = (await findProjectRecordById(t.server.deps.db.kysely, project.id))!;
    await settlePush(t.server.deps, { id: pushId, changes: [change] }, record, null);
    const settled = await t.server.deps.db.kysely
      .selectFrom('pushes')
      .selectAll()
      .where('id', '=', pushId)
      .executeTakeFirstOrThrow();
    assert.equal(settled.status, 'pending');
    // The branch moves on before the restart: the events still tell what the answered push did.
    await client.commit(work, 'a later push');
    await client.ok(['push', '-q', project.repoPath, 'answered'], work);

    const restarted = await startServer(t.config, pino({ level: 'silent' }));
    try {
      const { push, event, data } = await pushAndNewestEvent(restarted, pushId, project.id);
      assert.equal(push.status, 'processed');
      assert.deepEqual(JSON.parse(push.applied_changes!), [change]);
      assert.equal(data.ref, 'refs/heads/answered');
      assert.equal(data.after, sha);
      assert.equal(event.author_id, developer.id);
    } finally {
      await restarted.close();
    }
  });
});
