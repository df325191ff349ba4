// Compare, written as it streams: the newest commit, every commit between the two refs (oldest first),
// the diffs, whether the diffs went over GitLab's default limits (compare_timeout), and whether both
// refs named the same commit (compare_same_ref).
import type { Commit } from '../../git/commits.ts';
import type { CompareParts } from '../../views/compare-views.ts';
import { presentRepoCommit } from './commit.ts';
import { presentRepoDiff } from './diff.ts';
import { jsonArrayChunks } from '../json-stream.ts';

async function* presented(commits: AsyncIterable<Commit>) {
  for await (const commit of commits) yield presentRepoCommit(commit);
}

export async function* compareJsonChunks(parts: CompareParts): AsyncGenerator<string> {
  yield `{"commit":${JSON.stringify(parts.newest ? presentRepoCommit(parts.newest) : null)},"commits":`;
  yield* jsonArrayChunks(presented(parts.commits));
  const { diffs, overLimits } = await parts.diffs();
  yield `,"diffs":${JSON.stringify(diffs.map(presentRepoDiff))}`;
  yield `,"compare_timeout":${overLimits},"compare_same_ref":${parts.same}}`;
}
