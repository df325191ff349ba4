// Upgrades on real data: a database as the first released schema left it (migrations up to
// 012-repository-api) and one from the middle (up to 014-ci-list-counts), filled with the rows the app of
// that time wrote (users, a group, projects of every visibility with members, a processed push with its
// repository on disk, pipelines, builds and a commit status, a system hook with its deliveries), then
// started by today's server, which migrates it to the latest. Every row must read back through the API,
// and the counters later migrations fill in from existing rows (project counts per visibility, CI list
// counts) must be right, and stay right through the next writes.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { createPostgresDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { GitClient } from '../helpers/git.ts';
import { openDatabase } from '../../src/db/connect.ts';
import { migrateTo } from '../../src/db/migrations/index.ts';
import { repositoryPath } from '../../src/git/repository.ts';

const ROOT_TOKEN = 'upgrade-root-token-0001';
const ALICE_TOKEN = 'upgrade-alice-token-001';
const BOB_TOKEN = 'upgrade-bob-token-00001';
const AT = '2026-11-21T10:00:00.000Z';
const ZERO = '0000000000000000000000000000000000000000';
const OLD_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop';
const OLD_KEY_BLOB = Buffer.from(OLD_KEY.split(' ')[1]!, 'base64');
const OLD_KEY_MD5 = crypto
  .createHash('md5')
  .update(OLD_KEY_BLOB)
  .digest('hex')
  .replace(/(..)(?!$)/g, '$1:');
const OLD_KEY_SHA256 = crypto.createHash('sha256').update(OLD_KEY_BLOB).digest('base64').replace(/=+$/, '');

interface Filled {
  sha: string;
  projects: Record<string, number>;
  systemHookId: number;
}

/** Rows as the app of that release wrote them, in SQL its schema accepts; repositories made by git. */
async function fill(db: Kysely<any>, dataDir: string, git: GitClient): Promise<Filled> {
  const stamps = { created_at: AT, updated_at: AT };
  const user = (id: number, username: string, token: string, admin = 0) => ({
    id,
    username,
    name: `${username} Person`,
    email: `${username}@example.com`,
    encrypted_password: 'not-a-usable-hash',
    authentication_token: token,
    admin,
    confirmed_at: AT,
    ...stamps,
  });
  await db
    .insertInto('users')
    .values([user(1, 'root', ROOT_TOKEN, 1), user(2, 'alice', ALICE_TOKEN), user(3, 'bob', BOB_TOKEN)])
    .execute();
  await db
    .insertInto('namespaces')
    .values([
      { id: 1, name: 'root', path: 'root', owner_id: 1, type: null, visibility_level: 20, ...stamps },
      { id: 2, name: 'alice', path: 'alice', owner_id: 2, type: null, visibility_level: 20, ...stamps },
      { id: 3, name: 'Team', path: 'team', owner_id: null, type: 'Group', visibility_level: 20, ...stamps },
    ])
    .execute();
  const projectRows = [
    {
      id: 1,
      namespace_id: 2,
      name: 'public-one',
      visibility_level: 20,
      archived: 0,
      default_branch: 'master',
    },
    { id: 2, namespace_id: 2, name: 'private-one', visibility_level: 0, archived: 0, default_branch: null },
    { id: 3, namespace_id: 3, name: 'internal-one', visibility_level: 10, archived: 0, default_branch: null },
    { id: 4, namespace_id: 2, name: 'archived-one', visibility_level: 20, archived: 1, default_branch: null },
  ];
  await db
    .insertInto('projects')
    .values(
      projectRows.map((row) => ({
        ...row,
        creator_id: 2,
        path: row.name,
        runners_token: crypto.randomBytes(10).toString('hex'),
        last_activity_at: AT,
        ...stamps,
      })),
    )
    .execute();
  await db
    .insertInto('members')
    .values([
      ...[1, 2, 4].map((id) => ({
        source_type: 'Project',
        source_id: id,
        user_id: 2,
        access_level: 40,
        ...stamps,
      })),
      { source_type: 'Namespace', source_id: 3, user_id: 2, access_level: 50, ...stamps },
      { source_type: 'Project', source_id: 2, user_id: 3, access_level: 20, ...stamps },
    ])
    .execute();
  // Every project had its bare repository; the first one was pushed to.
  for (const row of projectRows) {
    const namespace = row.namespace_id === 3 ? 'team' : 'alice';
    await git.ok(['init', '-q', '--bare', repositoryPath(dataDir, namespace, row.name)]);
  }
  const work = await git.workTree('upgrade-work', ['first', 'second']);
  await git.ok(['push', '-q', repositoryPath(dataDir, 'alice', 'public-one'), 'master'], work);
  // The internal project's commit status is on the same commit.
  await git.ok(['push', '-q', repositoryPath(dataDir, 'team', 'internal-one'), 'master'], work);
  const sha = (await git.ok(['rev-parse', 'HEAD'], work)).trim();
  const changes = JSON.stringify([{ before: ZERO, after: sha, ref: 'refs/heads/master' }]);
  await db
    .insertInto('pushes')
    .values({
      project_id: 1,
      user_id: 2,
      changes,
      status: 'processed',
      applied_changes: changes,
      created_at: AT,
      processed_at: AT,
    })
    .execute();
  await db
    .insertInto('events')
    .values({ project_id: 1, author_id: 2, action: 5, data: null, ...stamps })
    .execute();
  // Pipelines and builds: two pipelines with two builds each on the first project, one with one build
  // and a commit status (external, not a build) on the third.
  const pipeline = (id: number, projectId: number, status: string) => ({
    id,
    project_id: projectId,
    ref: 'master',
    sha,
    status,
    ...stamps,
  });
  await db
    .insertInto('ci_pipelines')
    .values([pipeline(1, 1, 'success'), pipeline(2, 1, 'failed'), pipeline(3, 3, 'success')])
    .execute();
  const build = (pipelineId: number, projectId: number, name: string, status: string, type = 'build') => ({
    project_id: projectId,
    pipeline_id: pipelineId,
    type,
    name,
    stage: 'test',
    stage_idx: 0,
    status,
    ref: 'master',
    commands: 'true',
    options: '{}',
    yaml_variables: '[]',
    token: crypto.randomBytes(10).toString('hex'),
    ...stamps,
  });
  await db
    .insertInto('ci_builds')
    .values([
      build(1, 1, 'compile', 'success'),
      build(1, 1, 'check', 'success'),
      build(2, 1, 'compile', 'success'),
      build(2, 1, 'check', 'failed'),
      build(3, 3, 'compile', 'success'),
      build(3, 3, 'ci/other', 'success', 'external'),
    ])
    .execute();
  // An SSH key of alice's: the SHA-256 fingerprint a later migration derives from its text.
  await db
    .insertInto('keys')
    .values({ user_id: 2, title: 'laptop', key: OLD_KEY, fingerprint: OLD_KEY_MD5, ...stamps })
    .execute();
  const hook = await db
    .insertInto('system_hooks')
    .values({ url: 'http://127.0.0.1:9/hook', ...stamps })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivery = (status: string, attempts: number) => ({
    hook_kind: 'system',
    hook_id: hook.id,
    event: 'project_create',
    payload: JSON.stringify({ event_name: 'project_create', project_id: 1 }),
    status,
    attempts,
    next_attempt_at: AT,
    ...stamps,
  });
  const deliveries = await db
    .insertInto('hook_deliveries')
    .values([delivery('delivered', 1), delivery('failed', 1)])
    .returning('id')
    .execute();
  await db
    .insertInto('hook_delivery_attempts')
    .values([
      { delivery_id: deliveries[0]!.id, attempted_at: AT, status_code: 200, duration_ms: 12, worker: 'old' },
      { delivery_id: deliveries[1]!.id, attempted_at: AT, status_code: 404, duration_ms: 9, worker: 'old' },
    ])
    .execute();
  return { sha, projects: { public: 1, private: 2, internal: 3, archived: 4 }, systemHookId: hook.id };
}

for (const stage of ['012-repository-api', '014-ci-list-counts']) {
  describe(`a database filled at ${stage}, upgraded to the latest`, () => {
    let t: TestApp;
    let filled: Filled;
    let dataDir: string;
    let database: { url: string; drop: () => Promise<void> } | undefined;
    const git = new GitClient();

    before(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-upgrade-'));
      const pgBase = process.env.LABRADOR_TEST_PG_URL;
      database = pgBase ? await createPostgresDatabase(pgBase, { empty: true }) : undefined;
      const db = await openDatabase({ databaseUrl: database?.url, dataDir });
      try {
        await migrateTo(db, stage);
        filled = await fill(db.kysely as unknown as Kysely<any>, dataDir, git);
        // PostgreSQL's sequences moved past the ids given above, as the old app's inserts would have.
        if (database) {
          for (const table of ['users', 'namespaces', 'projects', 'ci_pipelines']) {
            await sql
              .raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`)
              .execute(db.kysely);
          }
        }
      } finally {
        await db.close();
      }
      t = await startTestApp({
        LABRADOR_DATA_DIR: dataDir,
        ...(database ? { LABRADOR_DATABASE_URL: database.url } : {}),
      });
    });
    after(async () => {
      await t?.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      git.close();
    });

    const get = (url: string, token = ROOT_TOKEN) => t.request('GET', `/api/v3${url}`, { token });

    it('reads every row back through the API', async () => {
      const users = await get('/users?per_page=100');
      assert.equal(users.status, 200, users.text);
      assert.deepEqual(users.body.map((u: any) => [u.username, u.is_admin]).sort(), [
        ['alice', false],
        ['bob', false],
        ['root', true],
      ]);
      assert.equal((await get('/user', ALICE_TOKEN)).body.username, 'alice');
      const key = await t.request(
        'GET',
        `/api/v4/keys?fingerprint=${encodeURIComponent(`SHA256:${OLD_KEY_SHA256}`)}`,
        {
          token: ROOT_TOKEN,
        },
      );
      assert.equal(key.status, 200, key.text);
      assert.deepEqual([key.body.title, key.body.user.username], ['laptop', 'alice']);

      const team = await get('/groups/team/members');
      assert.deepEqual(
        team.body.map((m: any) => [m.username, m.access_level]),
        [['alice', 50]],
      );
      const members = await get(`/projects/${filled.projects.private}/members`);
      assert.deepEqual(members.body.map((m: any) => [m.username, m.access_level]).sort(), [
        ['alice', 40],
        ['bob', 20],
      ]);

      const project = await get(`/projects/${filled.projects.public}`);
      assert.equal(project.status, 200, project.text);
      assert.equal(project.body.path_with_namespace, 'alice/public-one');
      assert.equal(project.body.default_branch, 'master');
      const branch = await get(`/projects/${filled.projects.public}/repository/branches/master`);
      assert.equal(branch.status, 200, branch.text);
      assert.equal(branch.body.commit.id, filled.sha);
      const events = await get(`/projects/${filled.projects.public}/events`);
      assert.equal(events.status, 200, events.text);
      assert.equal(events.body.length, 1);

      const pipelines = await get(`/projects/${filled.projects.public}/pipelines`);
      assert.deepEqual(
        pipelines.body.map((p: any) => p.status),
        ['failed', 'success'],
      );
      const statuses = await get(
        `/projects/${filled.projects.internal}/repository/commits/${filled.sha}/statuses`,
      );
      assert.equal(statuses.status, 200, statuses.text);
      // Builds and the external status alike, as GitLab lists a commit's statuses.
      assert.deepEqual(statuses.body.map((s: any) => s.name).sort(), ['ci/other', 'compile']);

      const deliveries = await get(`/hooks/${filled.systemHookId}/deliveries`);
      assert.equal(deliveries.status, 200, deliveries.text);
      assert.deepEqual(
        deliveries.body.map((d: any) => [d.status, d.attempts.map((a: any) => a.status_code)]),
        [
          ['failed', [404]],
          ['delivered', [200]],
        ],
      );
    });

    it('counts right: project lists per viewer, CI lists per project', async () => {
      const total = async (url: string, token = ROOT_TOKEN) => {
        const response = await get(url, token);
        assert.equal(response.status, 200, `${url}: ${response.text}`);
        return [Number(response.headers['x-total']), response.body.length];
      };
      assert.deepEqual(await total('/projects/all?per_page=100'), [4, 4]);
      // bob: the public ones, the internal one, and the private one he is a member of.
      assert.deepEqual(await total('/projects/visible?per_page=100', BOB_TOKEN), [4, 4]);
      assert.deepEqual(await total('/projects/visible?per_page=100&archived=false', BOB_TOKEN), [3, 3]);
      assert.deepEqual(await total('/projects?per_page=100', ALICE_TOKEN), [4, 4]);
      assert.deepEqual(await total(`/projects/${filled.projects.public}/pipelines`), [2, 2]);
      assert.deepEqual(await total(`/projects/${filled.projects.public}/builds`), [4, 4]);
      assert.deepEqual(await total(`/projects/${filled.projects.internal}/pipelines`), [1, 1]);
      // The commit status shares the builds table but is not a build.
      assert.deepEqual(await total(`/projects/${filled.projects.internal}/builds`), [1, 1]);

      // The counters go on from there.
      const created = await t.request('POST', '/api/v3/projects', {
        token: ALICE_TOKEN,
        body: { name: 'after-upgrade', visibility_level: 20 },
      });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(await total('/projects/all?per_page=100'), [5, 5]);
      const removed = await t.request('DELETE', `/api/v3/projects/${filled.projects.public}`, {
        token: ROOT_TOKEN,
      });
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual(await total('/projects/all?per_page=100'), [4, 4]);
      assert.deepEqual(await total('/projects/visible?per_page=100', BOB_TOKEN), [4, 4]);
      assert.deepEqual(await total(`/projects/${filled.projects.internal}/builds`), [1, 1]);
    });
  });
}
