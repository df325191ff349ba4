// `npm run admin -- backup` while the server takes writes, and `restore` into fresh instances of both
// engines: what the source had when the backup began is all there (repositories: at least those refs),
// the restored instance serves the API and clones; a damaged archive and a non-empty target are refused
// with nothing changed.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createPostgresDatabase, startTestApp, type TestApp } from '../helpers/app.ts';
import { adminEntryPoint } from '../helpers/process.ts';
import { createUser, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl } from '../helpers/git.ts';
import { seedPipeline } from '../helpers/ci.ts';

interface Target {
  dataDir: string;
  databaseUrl: string | undefined;
}

function admin(
  target: Target,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [adminEntryPoint(), ...args], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LABRADOR_DATA_DIR: target.dataDir,
        LABRADOR_DATABASE_URL: target.databaseUrl ?? '',
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

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command}: ${stderr}`))));
  });
}

const pgBase = process.env.LABRADOR_TEST_PG_URL || 'postgres://root@127.0.0.1:5432/test';

/** Every ref of every repository under `dataDir`, by repository path relative to it. */
async function allRefs(client: GitClient, dataDir: string): Promise<Map<string, Map<string, string>>> {
  const result = new Map<string, Map<string, string>>();
  const root = path.join(dataDir, 'repositories');
  for (const namespace of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    if (namespace.startsWith('.')) continue;
    for (const repo of fs.readdirSync(path.join(root, namespace))) {
      const dir = path.join(root, namespace, repo);
      const listed = await client.ok(['for-each-ref', '--format=%(refname) %(objectname)'], dir);
      const refs = new Map<string, string>();
      for (const line of listed.trim().split('\n').filter(Boolean)) {
        const [name, sha] = line.split(' ');
        refs.set(name, sha);
      }
      result.set(`${namespace}/${repo}`, refs);
    }
  }
  return result;
}

function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('admin backup and restore', () => {
  let t: TestApp;
  let base: string;
  let owner: TestUser;
  let client: GitClient;
  let archive: string;
  let scratch: string;
  let refsAtStart: Map<string, Map<string, string>>;
  let projectsAtStart: Array<{ id: number; path_with_namespace: string }>;
  let uploadUrl: string;
  // Over 2 MB, so the archive writer carries it in several of its 512 KiB slots: a checksum or a byte in the
  // wrong slot is a refused restore or different bytes.
  const uploadBytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), crypto.randomBytes(2_200_000)]);
  let pipelineId: number;
  let buildId: number;
  let writerCreated = 0;
  let writerPushed = 0;

  /** A backup of the source instance into `name` in the scratch folder, which must succeed. */
  async function backupOfSource(name: string): Promise<string> {
    const file = path.join(scratch, name);
    const made = await admin(
      { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl },
      'backup',
      file,
    );
    assert.equal(made.code, 0, made.stderr);
    return file;
  }

  async function api(method: string, url: string, body?: Record<string, unknown>) {
    const response = await t.request(method, url, { token: owner.token, body });
    assert.ok(response.status < 300, `${method} ${url}: ${response.status} ${response.text}`);
    return response.body;
  }

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-backup-test-'));
    archive = path.join(scratch, 'labrador.tar.gz');
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'keeper');
    // Projects with pushed history, an issue with a note, a merge request, a hook, an upload, a pipeline.
    for (const name of ['alpha', 'beta', 'gamma']) {
      const project = await api('POST', '/api/v4/projects', { name });
      const work = await client.workTree(`w-${name}`, [`first ${name}`, `second ${name}`]);
      const url = repoUrl(base, project.path_with_namespace, owner.username, owner.password);
      await client.ok(['push', '-q', url, 'HEAD:refs/heads/master'], work);
      await client.ok(['checkout', '-q', '-b', 'feature'], work);
      await client.commit(work, `feature ${name}`);
      await client.ok(['push', '-q', url, 'feature', `HEAD:refs/tags/v1-${name}`], work);
    }
    const alpha = (await api('GET', '/api/v4/projects/keeper%2Falpha')) as { id: number };
    const issue = await api('POST', `/api/v3/projects/${alpha.id}/issues`, {
      title: 'Keep me',
      description: 'safe',
    });
    await api('POST', `/api/v3/projects/${alpha.id}/issues/${issue.id}/notes`, { body: 'a note to keep' });
    await api('POST', `/api/v3/projects/${alpha.id}/merge_requests`, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Feature MR',
    });
    await api('POST', `/api/v4/projects/${alpha.id}/hooks`, {
      url: 'http://hooks.example.invalid/in',
      issues_events: true,
    });
    const form = new FormData();
    form.append('file', new Blob([uploadBytes]), 'kept.png');
    const uploaded = await fetch(`${base}/api/v3/projects/${alpha.id}/uploads`, {
      method: 'POST',
      headers: { 'private-token': owner.token },
      body: form,
    });
    assert.equal(uploaded.status, 201);
    uploadUrl = ((await uploaded.json()) as { url: string }).url;
    const sha = (await api('GET', `/api/v4/projects/${alpha.id}/repository/branches/master`)).commit.id;
    const seeded = await seedPipeline(t, alpha, {
      sha,
      builds: [
        {
          name: 'compile',
          status: 'success',
          trace: 'compiling…\nall done ✓\n',
          artifacts: { 'out/bin.txt': 'binary' },
        },
      ],
    });
    pipelineId = seeded.pipeline.id;
    buildId = seeded.builds[0].id;
  });
  after(async () => {
    await t.close();
    client.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('takes a backup while a writer creates projects and pushes', async () => {
    refsAtStart = await allRefs(client, t.config.dataDir);
    projectsAtStart = await api('GET', '/api/v4/projects?per_page=100');
    let writing = true;
    const writer = (async () => {
      const work = await client.workTree('writer', ['writer start']);
      const alphaUrl = repoUrl(base, 'keeper/alpha', owner.username, owner.password);
      await client.ok(['fetch', '-q', alphaUrl, 'master'], work);
      await client.ok(['reset', '-q', '--hard', 'FETCH_HEAD'], work);
      while (writing) {
        await api('POST', '/api/v4/projects', { name: `during-${writerCreated}` });
        writerCreated++;
        await client.commit(work, `during ${writerPushed}`);
        await client.ok(['push', '-q', alphaUrl, 'HEAD:refs/heads/master'], work);
        writerPushed++;
      }
    })();
    const result = await admin(
      { dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl },
      'backup',
      archive,
    );
    writing = false;
    await writer;
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^backup .*labrador\.tar\.gz: [\d.]+ MB, \d+ tables \(\d+ rows\), \d+ repositories, \d+ files in [\d.]+ s\n$/,
    );
    assert.ok(writerPushed > 0 && writerCreated > 0);
  });

  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`restores into a fresh ${engine} instance: rows, files and refs, and it serves the API and clones`, async () => {
      const dataDir = path.join(scratch, `restored-${engine}`);
      const database =
        engine === 'postgres' ? await createPostgresDatabase(pgBase, { empty: true }) : undefined;
      const target = { dataDir, databaseUrl: database?.url };
      let restored: TestApp | undefined;
      try {
        const result = await admin(target, 'restore', archive);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /^restored .*: \d+ tables \(\d+ rows\), \d+ repositories, \d+ files in/);
        const check = await admin(target, 'check');
        assert.equal(check.code, 0, check.stdout + check.stderr);
        assert.match(check.stdout, /no problems found/);

        // Every repository has at least the refs it had at the start, each at or after its start commit.
        const refsNow = await allRefs(client, dataDir);
        for (const [repo, refs] of refsAtStart) {
          const now = refsNow.get(repo);
          assert.ok(now, `${repo} restored`);
          for (const [ref, sha] of refs) {
            const restoredSha = now.get(ref);
            assert.ok(restoredSha, `${repo} ${ref}`);
            const ancestor = await client.run(
              ['merge-base', '--is-ancestor', sha, restoredSha],
              path.join(dataDir, 'repositories', repo),
            );
            assert.equal(ancestor.code, 0, `${repo} ${ref}: ${restoredSha} does not contain ${sha}`);
          }
        }

        restored = await startTestApp({
          LABRADOR_DATA_DIR: dataDir,
          LABRADOR_DATABASE_URL: database?.url ?? '',
        });
        const get = async (url: string) => {
          const response = await restored!.request('GET', url, { token: owner.token });
          assert.equal(response.status, 200, `${url}: ${response.text}`);
          return response;
        };
        assert.equal((await get('/api/v4/user')).body.username, 'keeper');
        const projects = (await get('/api/v4/projects?per_page=100')).body as Array<{
          id: number;
          path_with_namespace: string;
        }>;
        const names = new Set(projects.map((project) => project.path_with_namespace));
        for (const project of projectsAtStart)
          assert.ok(names.has(project.path_with_namespace), project.path_with_namespace);
        const alpha = projects.find((project) => project.path_with_namespace === 'keeper/alpha')!;
        const issues = (await get(`/api/v3/projects/${alpha.id}/issues`)).body;
        assert.deepEqual(
          issues.map((issue: { title: string }) => issue.title),
          ['Keep me'],
        );
        const notes = (await get(`/api/v3/projects/${alpha.id}/issues/${issues[0].id}/notes`)).body;
        assert.deepEqual(
          notes.map((note: { body: string }) => note.body),
          ['a note to keep'],
        );
        const mrs = (await get(`/api/v3/projects/${alpha.id}/merge_requests`)).body;
        assert.deepEqual(
          mrs.map((mr: { title: string }) => mr.title),
          ['Feature MR'],
        );
        const hooks = (await get(`/api/v4/projects/${alpha.id}/hooks`)).body;
        assert.deepEqual(
          hooks.map((hook: { url: string; issues_events: boolean }) => [hook.url, hook.issues_events]),
          [['http://hooks.example.invalid/in', true]],
        );
        const pipelines = (await get(`/api/v3/projects/${alpha.id}/pipelines`)).body;
        assert.ok(pipelines.some((pipeline: { id: number }) => pipeline.id === pipelineId));
        assert.equal(
          (await get(`/api/v3/projects/${alpha.id}/builds/${buildId}/trace`)).text,
          'compiling…\nall done ✓\n',
        );
        const artifacts = await get(`/api/v3/projects/${alpha.id}/builds/${buildId}/artifacts`);
        assert.ok(artifacts.raw.includes(Buffer.from('out/bin.txt')));
        const upload = await get(`/keeper/alpha${uploadUrl}`);
        assert.deepEqual(upload.raw, uploadBytes);

        // New ids continue after the restored ones; a clone over HTTP works.
        const created = await restored.request('POST', '/api/v4/projects', {
          token: owner.token,
          body: { name: 'after' },
        });
        assert.equal(created.status, 201, created.text);
        assert.ok(projects.every((project) => project.id < created.body.id));
        const restoredBase = await listen(restored);
        const clone = path.join(client.home, `clone-${engine}`);
        await client.ok([
          'clone',
          '-q',
          repoUrl(restoredBase, 'keeper/beta', owner.username, owner.password),
          clone,
        ]);
        assert.equal(
          (await client.ok(['rev-parse', 'HEAD'], clone)).trim(),
          refsAtStart.get('keeper/beta.git')!.get('refs/heads/master'),
        );
      } finally {
        await restored?.close();
        await database?.drop();
      }
    });
  }

  it('restores an archive of format 1 (SHA-256 checksums, an earlier Labrador) and checks them', async () => {
    const made = await backupOfSource('current.tar');
    // The same archive as an earlier Labrador wrote it: format 1, each file's SHA-256 in the manifest.
    const unpacked = path.join(scratch, 'format-1');
    fs.mkdirSync(unpacked);
    await run('tar', ['-xf', made, '-C', unpacked]);
    const manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
    assert.equal(manifest.format_version, 2);
    for (const [name, entry] of Object.entries(manifest.files) as Array<[string, { size: number }]>) {
      const bytes = fs.readFileSync(path.join(unpacked, name));
      assert.equal(bytes.length, entry.size, name);
      manifest.files[name] = {
        size: entry.size,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      };
    }
    manifest.format_version = 1;
    const writeManifest = () =>
      fs.writeFileSync(path.join(unpacked, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
    writeManifest();
    const older = path.join(scratch, 'format-1.tar');
    await run('tar', ['-cf', older, '-C', unpacked, '.']);

    const target = { dataDir: path.join(scratch, 'restored-format-1'), databaseUrl: undefined };
    const restored = await admin(target, 'restore', older);
    assert.equal(restored.code, 0, restored.stderr);
    const check = await admin(target, 'check');
    assert.equal(check.code, 0, check.stdout + check.stderr);

    // Its checksums are checked: one wrong SHA-256 and it is refused.
    const [first] = Object.keys(manifest.files).filter((name) => name.startsWith('files/'));
    manifest.files[first].sha256 = '0'.repeat(64);
    writeManifest();
    const wrong = path.join(scratch, 'format-1-wrong.tar');
    await run('tar', ['-cf', wrong, '-C', unpacked, '.']);
    const refused = await admin(
      { dataDir: path.join(scratch, 'refused-format-1'), databaseUrl: undefined },
      'restore',
      wrong,
    );
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /is damaged \(.* does not match its checksum\); nothing was changed/);
  });

  it('refuses a damaged archive and a non-empty target, changing nothing', async () => {
    const dataDir = path.join(scratch, 'refused');
    const target = { dataDir, databaseUrl: undefined };
    // One byte changed inside a repository's file: the archive still unpacks, its checksum fails.
    const plain = await backupOfSource('plain.tar');
    const bytes = fs.readFileSync(plain);
    const at = bytes.indexOf(Buffer.from('compiling'));
    assert.ok(at > 0);
    bytes[at] ^= 0x20;
    const damaged = path.join(scratch, 'damaged.tar');
    fs.writeFileSync(damaged, bytes);
    const refused = await admin(target, 'restore', damaged);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^restore refused: .*damaged.tar is damaged \(files\/builds\/.* does not match its checksum\); nothing was changed\n$/,
    );
    assert.equal(fs.existsSync(dataDir), false);
    assert.deepEqual(
      fs.readdirSync(scratch).filter((name) => name.includes('.restore-')),
      [],
    );

    const truncated = path.join(scratch, 'truncated.tar');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const cut = await admin(target, 'restore', truncated);
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /^restore refused: /);
    assert.equal(cut.stderr.trim().split('\n').length, 1);
    assert.equal(fs.existsSync(dataDir), false);

    // A data dir with anything in it.
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'keep.txt'), 'mine');
    const busy = await admin(target, 'restore', plain);
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /^restore refused: data dir .* is not empty .*; nothing was changed\n$/);
    assert.deepEqual(tree(dataDir), ['keep.txt']);

    // A database that has tables (PostgreSQL; on SQLite the database lives in the data dir).
    const database = await createPostgresDatabase(pgBase);
    try {
      const emptyDir = path.join(scratch, 'refused-pg');
      const againstFull = await admin({ dataDir: emptyDir, databaseUrl: database.url }, 'restore', plain);
      assert.equal(againstFull.code, 1);
      assert.match(againstFull.stderr, /^restore refused: the database is not empty/);
      assert.equal(fs.existsSync(emptyDir), false);
    } finally {
      await database.drop();
    }
  });
});
