// Ref listings built from the ref files (receive-pack's advertisement, v2 ls-refs) against git's own
// output for the same repository and request, byte for byte, over many repository states. Each state is
// made with git itself in a bare repository; the listing must come from the files (not null, which
// would mean "ask git") and equal what git prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { lsRefsAnswer, parseLsRefsRequest } from '../../src/git/protocol/ls-refs.ts';
import { receivePackAdvertisement } from '../../src/git/protocol/receive-pack-advertisement.ts';
import { pkt } from '../helpers/git.ts';

const ENV = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_NOSYSTEM: '1',
  LANG: 'C',
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@example.com',
};

function git(args: string[], input?: string | Buffer, env: Record<string, string> = {}): Buffer {
  const result = spawnSync('git', args, { input, env: { ...ENV, ...env }, maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

function lsRefsBody(args: string[]): Buffer {
  return Buffer.from(
    pkt('command=ls-refs\n') +
      pkt('agent=git/2.39.5\n') +
      pkt('object-format=sha1\n') +
      '0001' +
      args.map((arg) => pkt(`${arg}\n`)).join('') +
      '0000',
  );
}

const REQUESTS: string[][] = [
  [],
  ['peel', 'symrefs', 'unborn'],
  ['peel', 'symrefs', 'unborn', 'ref-prefix HEAD', 'ref-prefix refs/heads/', 'ref-prefix refs/tags/'],
  ['peel', 'symrefs', 'ref-prefix refs/tags/'],
  ['unborn', 'peel'],
  ['symrefs', 'ref-prefix refs/heads/a', 'ref-prefix refs/heads/a/', 'ref-prefix refs/remotes/'],
  ['peel', 'ref-prefix refs/heads/master', 'ref-prefix nothing'],
];

describe('ref listings from the ref files equal git’s', () => {
  let dir: string;
  let repo: string;
  let counter = 0;

  function commit(parent?: string): string {
    const tree = git(['-C', repo, 'mktree'], '').toString().trim();
    const message = `commit ${++counter}`;
    return git(['-C', repo, 'commit-tree', tree, '-m', message, ...(parent ? ['-p', parent] : [])])
      .toString()
      .trim();
  }

  function updateRef(ref: string, oid: string): void {
    git(['-C', repo, 'update-ref', ref, oid]);
  }

  async function assertSame(state: string): Promise<void> {
    const ours = await receivePackAdvertisement(repo, ['receive-pack']);
    const theirs = git(['receive-pack', '--stateless-rpc', '--advertise-refs', repo]);
    assert.ok(ours, `${state}: receive-pack advertisement left to git`);
    assert.equal(ours.toString('latin1'), theirs.toString('latin1'), `${state}: receive-pack`);
    for (const args of REQUESTS) {
      const body = lsRefsBody(args);
      const request = parseLsRefsRequest(body);
      assert.ok(request, `${state}: request ${args.join(',')} not understood`);
      const answer = await lsRefsAnswer(repo, request);
      const expected = git(['upload-pack', '--stateless-rpc', repo], body, { GIT_PROTOCOL: 'version=2' });
      assert.ok(answer, `${state}: ls-refs ${args.join(',')} left to git`);
      assert.equal(
        answer.toString('latin1'),
        expected.toString('latin1'),
        `${state}: ls-refs ${args.join(',')}`,
      );
    }
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-ref-listing-'));
    repo = path.join(dir, 'repo.git');
    git(['init', '-q', '--bare', '--initial-branch=master', repo]);
    // The first call learns receive-pack's capabilities from git (and returns git's own answer).
    await receivePackAdvertisement(repo, ['receive-pack']);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists an empty repository (unborn HEAD)', async () => {
    await assertSame('empty');
  });

  it('lists loose refs with nested names in git’s byte order', async () => {
    const one = commit();
    for (const name of ['master', 'a/b', 'a-b', 'a.b', 'a0', 'a', 'Z', 'a/b-c/d']) {
      // "a" and "a/b" cannot both exist: a directory and a file of one name
      if (name === 'a') continue;
      updateRef(`refs/heads/${name}`, one);
    }
    await assertSame('loose');
  });

  it('lists annotated and lightweight tags, loose, with peeled objects', async () => {
    const tip = git(['-C', repo, 'rev-parse', 'master']).toString().trim();
    git(['-C', repo, 'tag', '-a', 'v1', '-m', 'v1', tip]);
    git(['-C', repo, 'tag', 'light', tip]);
    // a tag of a tag peels to the commit
    git(['-C', repo, 'tag', '-a', 'v1-again', '-m', 'again', 'v1']);
    const tree = git(['-C', repo, 'rev-parse', `${tip}^{tree}`])
      .toString()
      .trim();
    git(['-C', repo, 'tag', '-a', 'tree-tag', '-m', 'a tree', tree]);
    await assertSame('loose tags');
  });

  it('lists packed refs only', async () => {
    git(['-C', repo, 'pack-refs', '--all']);
    assert.equal(fs.existsSync(path.join(repo, 'refs', 'heads', 'master')), false);
    await assertSame('packed');
  });

  it('prefers a loose ref over the packed one of the same name', async () => {
    updateRef('refs/heads/master', commit(git(['-C', repo, 'rev-parse', 'master']).toString().trim()));
    git(['-C', repo, 'tag', '-a', 'v2', '-m', 'v2', 'master']);
    updateRef('refs/tags/light', git(['-C', repo, 'rev-parse', 'master']).toString().trim());
    await assertSame('packed with newer loose');
  });

  it('drops a branch deleted after packing', async () => {
    git(['-C', repo, 'pack-refs', '--all']);
    git(['-C', repo, 'branch', '-D', 'a-b']);
    git(['-C', repo, 'update-ref', '-d', 'refs/tags/v1']);
    await assertSame('deleted after pack-refs');
  });

  it('lists symbolic refs, a detached HEAD and an unborn HEAD', async () => {
    git(['-C', repo, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/heads/master']);
    await assertSame('symbolic ref');
    git(['-C', repo, 'symbolic-ref', 'HEAD', 'refs/heads/not-yet']);
    await assertSame('unborn HEAD among branches');
    fs.writeFileSync(
      path.join(repo, 'HEAD'),
      `${git(['-C', repo, 'rev-parse', 'master']).toString().trim()}\n`,
    );
    await assertSame('detached HEAD');
    git(['-C', repo, 'symbolic-ref', 'HEAD', 'refs/heads/master']);
  });

  it('leaves to git what it would answer differently', async () => {
    const config = path.join(repo, 'config');
    const original = fs.readFileSync(config, 'utf8');
    fs.appendFileSync(config, '[transfer]\n\thideRefs = refs/tags\n');
    assert.equal(await receivePackAdvertisement(repo, ['receive-pack']), null);
    assert.equal(await lsRefsAnswer(repo, parseLsRefsRequest(lsRefsBody([]))!), null);
    fs.writeFileSync(config, original);
    const alternates = path.join(repo, 'objects', 'info', 'alternates');
    fs.writeFileSync(alternates, `${path.join(dir, 'elsewhere.git', 'objects')}\n`);
    assert.equal(await receivePackAdvertisement(repo, ['receive-pack']), null);
    fs.rmSync(alternates);
    const odd = path.join(repo, 'refs', 'heads', 'odd');
    fs.writeFileSync(odd, 'not an object name\n');
    assert.equal(await receivePackAdvertisement(repo, ['receive-pack']), null);
    fs.rmSync(odd);
    assert.ok(await receivePackAdvertisement(repo, ['receive-pack']));
  });

  it('understands only plain ls-refs requests', () => {
    assert.equal(parseLsRefsRequest(Buffer.from(pkt('command=fetch\n') + '0001' + '0000')), null);
    assert.equal(
      parseLsRefsRequest(Buffer.from(pkt('command=ls-refs\n') + pkt('server-option=x\n') + '0000')),
      null,
    );
    assert.equal(
      parseLsRefsRequest(Buffer.from(pkt('command=ls-refs\n') + '0001' + pkt('what\n') + '0000')),
      null,
    );
    assert.equal(parseLsRefsRequest(Buffer.from(pkt('command=ls-refs\n') + '0001')), null);
    assert.equal(parseLsRefsRequest(Buffer.from(pkt('command=ls-refs\n') + '0000' + '0000')), null);
    assert.deepEqual(parseLsRefsRequest(Buffer.from(pkt('command=ls-refs\n') + '0000')), {
      peel: false,
      symrefs: false,
      unborn: false,
      prefixes: [],
    });
  });
});
