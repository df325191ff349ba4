// Merge time of PUT …/merge_requests/:id/merge on a 10,000-commit repository with a 100-file change,
// against `git merge --no-ff` of the same branch in a clone (the work-tree merge a person would run).
// Each round adds a feature branch of 100 changed files off master and a commit on master (so the merge
// is a real three-way merge), opens an MR and merges it over HTTP (in-process inject: checks, merge-tree,
// commit-tree, push rules, pending push, compare-and-swap, push processing); the clone merges the same
// branch onto the same master head. Usage: node --import tsx bench/merge-request-merge.ts [commits] [rounds]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startTestApp } from '../test/helpers/app.ts';
import { createProject, createUser } from '../test/helpers/factory.ts';
import { writeMergeCommit } from '../src/git/merges.ts';

const commits = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 5);
const FILES = 100;

function gitIn(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    input,
    env: {
      PATH: process.env.PATH,
      HOME: os.tmpdir(),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Bench',
      GIT_AUTHOR_EMAIL: 'bench@example.com',
      GIT_COMMITTER_NAME: 'Bench',
      GIT_COMMITTER_EMAIL: 'bench@example.com',
    },
    maxBuffer: 1 << 28,
  }).toString();
}

/** A fast-import stream of `count` commits on `ref`, each touching one of 1,000 files. */
function history(ref: string, count: number): string {
  const parts: string[] = [];
  for (let i = 1; i <= count; i++) {
    const content = `file ${i % 1000} revision ${i}\n`;
    parts.push(
      `commit ${ref}\nmark :${i}\ncommitter Bench <bench@example.com> ${1_600_000_000 + i} +0000\n` +
        `data ${`c${i}\n`.length}\nc${i}\n${i > 1 ? `from :${i - 1}\n` : ''}` +
        `M 100644 inline src/f${i % 1000}.txt\ndata ${Buffer.byteLength(content)}\n${content}`,
    );
  }
  return parts.join('\n') + '\n';
}

/** A branch off `base` changing FILES files, and one more commit on master. */
function featureBranch(repo: string, name: string, base: string, round: number): void {
  const edits = Array.from({ length: FILES }, (_, i) => {
    const content = `feature ${name} file ${i}\n`;
    return `M 100644 inline feature-${round}/g${i}.txt\ndata ${Buffer.byteLength(content)}\n${content}`;
  }).join('\n');
  const master = `round ${round}\n`;
  gitIn(
    repo,
    ['fast-import', '--quiet'],
    `commit refs/heads/${name}\ncommitter Bench <bench@example.com> 1700000000 +0000\ndata 8\nfeature\nfrom ${base}\n${edits}\n\n` +
      `commit refs/heads/master\ncommitter Bench <bench@example.com> 1700000001 +0000\ndata 7\nmaster\nfrom ${base}\n` +
      `M 100644 inline master-${round}.txt\ndata ${master.length}\n${master}\n`,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const t = await startTestApp();
try {
  const owner = await createUser(t, 'bencher');
  const project = await createProject(t, { owner, path: 'big' });
  gitIn(project.repoPath, ['fast-import', '--quiet'], history('refs/heads/master', commits));
  await t.request('PUT', `/api/v3/projects/${project.id}`, {
    token: owner.token,
    body: { name: 'big', default_branch: 'master' },
  });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'labrador-merge-bench-'));
  const api: number[] = [];
  const local: number[] = [];
  const treeOnly: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const base = gitIn(project.repoPath, ['rev-parse', 'refs/heads/master']).trim();
    const branch = `feature-${round}`;
    featureBranch(project.repoPath, branch, base, round);
    // The clone: same master head and branch, then `git merge --no-ff` timed alone.
    const clone = path.join(work, `clone-${round}`);
    gitIn(work, ['clone', '-q', '--no-local', project.repoPath, clone]);
    gitIn(clone, ['fetch', '-q', 'origin', `${branch}:${branch}`]);
    let started = process.hrtime.bigint();
    gitIn(clone, ['merge', '-q', '--no-ff', '-m', 'merge', branch]);
    local.push(Number(process.hrtime.bigint() - started) / 1e6);

    // The merge itself without a work tree (merge-tree + commit-tree), as the API runs it.
    started = process.hrtime.bigint();
    const commit = await writeMergeCommit(project.repoPath, {
      target: gitIn(project.repoPath, ['rev-parse', 'refs/heads/master']).trim(),
      source: gitIn(project.repoPath, ['rev-parse', `refs/heads/${branch}`]).trim(),
      message: 'bench',
      author: { name: 'Bench', email: 'bench@example.com' },
    });
    treeOnly.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (!commit) throw new Error('the bench merge conflicted');

    const mr = await t.request('POST', `/api/v3/projects/${project.id}/merge_requests`, {
      token: owner.token,
      body: { source_branch: branch, target_branch: 'master', title: `Round ${round}` },
    });
    if (mr.status !== 201) throw new Error(mr.text);
    started = process.hrtime.bigint();
    const merged = await t.request(
      'PUT',
      `/api/v3/projects/${project.id}/merge_requests/${mr.body.id}/merge`,
      {
        token: owner.token,
      },
    );
    api.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (merged.status !== 200 || merged.body.state !== 'merged') throw new Error(merged.text);
  }
  fs.rmSync(work, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      commits,
      files: FILES,
      rounds,
      api_merge_ms: api.map((ms) => Math.round(ms)),
      git_merge_in_clone_ms: local.map((ms) => Math.round(ms)),
      merge_tree_commit_tree_ms: treeOnly.map((ms) => Math.round(ms)),
      median_merge_tree_commit_tree_ms: Math.round(median(treeOnly)),
      median_api_ms: Math.round(median(api)),
      median_git_merge_ms: Math.round(median(local)),
      ratio: Number((median(api) / median(local)).toFixed(2)),
    }),
  );
} finally {
  await t.close();
}
