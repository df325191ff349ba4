// Compare as v4 writes it, streaming like v3's: commit (the newest), commits (oldest first), diffs,
// compare_timeout, compare_same_ref, and the compare page's web_url.
import type { ProjectRecord } from '../../db/types.ts';
import type { Commit } from '../../git/commits.ts';
import { projectUrls } from '../../domain/paths.ts';
import type { CompareParts } from '../../views/compare-views.ts';
import { jsonArrayChunks } from '../json-stream.ts';
import { presentCommit } from './commit.ts';
import { presentDiff } from './diff.ts';

export async function* compareJsonChunks(
  parts: CompareParts,
  refs: { from: string; to: string },
  record: ProjectRecord,
  baseUrl: string,
): AsyncGenerator<string> {
  const present = (commit: Commit) => presentCommit(commit, record, baseUrl);
  async function* presented() {
    for await (const commit of parts.commits) yield present(commit);
  }
  yield `{"commit":${JSON.stringify(parts.newest ? present(parts.newest) : null)},"commits":`;
  yield* jsonArrayChunks(presented());
  const { diffs, overLimits } = await parts.diffs();
  yield `,"diffs":${JSON.stringify(diffs.map(presentDiff))}`;
  const webUrl = `${projectUrls(baseUrl, record).webUrl}/compare/${refs.from}...${refs.to}`;
  yield `,"compare_timeout":${overLimits},"compare_same_ref":${parts.same},"web_url":${JSON.stringify(webUrl)}}`;
}
