// Ref listings answered without git, as clients see them over smart HTTP: clone, ls-remote and fetch
// with branches and tags (annotated and lightweight, loose and packed), a gzip-compressed ls-refs
// request, and requests that must still reach git intact after their first pkt-line was read ahead.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/factory.ts';
import { GitClient, listen, repoUrl, pkt } from '../helpers/git.ts';

function gitOutput(args: string[], input: Buffer, env: Record<string, string>): Buffer {
  const result = spawnSync('git', args, {
    input,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: '1', ...env },
  });
  assert.equal(result.status, 0, String(result.stderr));
  return result.stdout;
}

describe('ref listings over smart HTTP', () => {
  let t: TestApp;
  let base: string;
  let client: GitClient;
  let owner: TestUser;
  let project: TestProject;
  let url: string;
  let authorization: string;

  before(async () => {
    t = await startTestApp();
    base = await listen(t);
    client = new GitClient();
    owner = await createUser(t, 'alice');
    project = await createProject(t, { owner, path: 'tagged' });
    url = repoUrl(base, project.fullPath, owner.username, owner.password);
    authorization = `Basic ${Buffer.from(`${owner.username}:${owner.password}`).toString('base64')}`;
  });
  after(async () => {
    client.close();
    await t.close();
  });

  it('clones, lists and fetches branches and tags, loose and packed', async () => {
    const empty = await client.run(['ls-remote', url]);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, '');

    const work = await client.workTree('work', ['one', 'two']);
    await client.ok(['tag', '-a', 'v1', '-m', 'v1'], work);
    await client.ok(['tag', 'light'], work);
    await client.ok(['branch', 'topic/a'], work);
    await client.ok(['push', '-q', url, 'master', 'topic/a', 'v1', 'light'], work);
    const expected = await client.ok(['ls-remote', project.repoPath]);
    assert.equal(await client.ok(['ls-remote', url]), expected);
    assert.match(expected, /refs\/tags\/v1\^\{\}/);

    await client.ok(['clone', '-q', url, 'clone']);
    const cloned = `${client.home}/clone`;
    assert.equal(await client.ok(['tag', '--list'], cloned), 'light\nv1\n');

    // Packed on the server, then a newer loose tag and branch next to them.
    await client.ok(['--git-dir', project.repoPath, 'pack-refs', '--all']);
    await client.commit(work, 'three');
    await client.ok(['tag', '-a', 'v2', '-m', 'v2'], work);
    await client.ok(['push', '-q', url, 'master', 'v2'], work);
    assert.equal(await client.ok(['ls-remote', url]), await client.ok(['ls-remote', project.repoPath]));
    await client.ok(['fetch', '-q', '--tags', 'origin'], cloned);
    assert.equal(await client.ok(['tag', '--list'], cloned), 'light\nv1\nv2\n');
    assert.equal(
      await client.ok(['rev-parse', 'origin/master'], cloned),
      await client.ok(['rev-parse', 'master'], work),
    );
  });

  it('answers a gzip-compressed ls-refs request as git does', async () => {
    const body = Buffer.from(
      pkt('command=ls-refs\n') +
        pkt('object-format=sha1\n') +
        '0001' +
        pkt('peel\n') +
        pkt('symrefs\n') +
        pkt('ref-prefix HEAD\n') +
        pkt('ref-prefix refs/tags/\n') +
        '0000',
    );
    const response = await fetch(`${base}/${project.fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
        'git-protocol': 'version=2',
      },
      body: zlib.gzipSync(body),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-git-upload-pack-result');
    const expected = gitOutput(['upload-pack', '--stateless-rpc', project.repoPath], body, {
      GIT_PROTOCOL: 'version=2',
    });
    assert.equal(Buffer.from(await response.arrayBuffer()).toString(), expected.toString());
  });

  it('hands other requests to git with the bytes read ahead', async () => {
    // An ls-refs request git refuses (an unknown argument) and a v2 fetch split over many writes.
    const odd = Buffer.from(pkt('command=ls-refs\n') + '0001' + pkt('bogus\n') + '0000');
    const refused = await fetch(`${base}/${project.fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-git-upload-pack-request',
        'git-protocol': 'version=2',
      },
      body: odd,
    });
    assert.equal(refused.status, 200);
    // git dies with its complaint on stderr and nothing on stdout: the same empty answer
    assert.equal(Buffer.from(await refused.arrayBuffer()).length, 0);

    const tip = (await client.ok(['--git-dir', project.repoPath, 'rev-parse', 'master'])).trim();
    const fetchBody = Buffer.from(
      pkt('command=fetch\n') + '0001' + pkt('thin-pack\n') + pkt(`want ${tip}\n`) + pkt('done\n') + '0000',
    );
    const chunks = [fetchBody.subarray(0, 3), fetchBody.subarray(3, 20), fetchBody.subarray(20)];
    const stream = new ReadableStream({
      async pull(controller) {
        const next = chunks.shift();
        if (next) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          controller.enqueue(next);
        } else controller.close();
      },
    });
    const fetched = await fetch(`${base}/${project.fullPath}.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        authorization,
        'content-type': 'application/x-git-upload-pack-request',
        'git-protocol': 'version=2',
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    assert.equal(fetched.status, 200);
    const answer = Buffer.from(await fetched.arrayBuffer()).toString('latin1');
    assert.match(answer, /packfile\n/);
    assert.match(answer, /PACK/);
  });
});
