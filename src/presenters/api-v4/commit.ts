// Commits as GitLab's v4 shows them: Commit (lists, compare, merge_base), the same with stats
// (`with_stats`), CommitDetail (one commit, and the commit a commits-API write made), and a commit's refs.
import type { Commit } from '../../git/commits.ts';
import type { DiffStats } from '../../git/diffs.ts';
import type { CiPipelineRow, ProjectRecord } from '../../db/types.ts';
import { commitFullTitle } from '../../domain/titles.ts';
import { commitWebUrl } from '../../domain/paths.ts';
import type { CommitDetail, CommitRef } from '../../views/commit-views.ts';
import { presentPipelineBasic } from './pipeline.ts';

/** git's trailers: the `Token: value` lines of the message's last paragraph, when every line is one. */
function trailerLines(message: string): Array<[string, string]> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  if (paragraphs.length < 2) return [];
  const lines = paragraphs[paragraphs.length - 1].split('\n');
  const parsed = lines.map((line) => /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line));
  if (!parsed.every((match) => match !== null)) return [];
  return parsed.map((match) => [match![1], match![2].trim()]);
}

export function presentCommit(commit: Commit, record: ProjectRecord, baseUrl: string) {
  const trailers = trailerLines(commit.message);
  const extended: Record<string, string[]> = {};
  for (const [key, value] of trailers) (extended[key] ??= []).push(value);
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title: commitFullTitle(commit.message),
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    trailers: Object.fromEntries(trailers),
    extended_trailers: extended,
    web_url: commitWebUrl(baseUrl, record, commit.id),
  };
}

function presentStats(stats: DiffStats) {
  return { additions: stats.additions, deletions: stats.deletions, total: stats.total };
}

/** A commit of a list asked for `with_stats`. */
export function presentCommitWithStats(
  commit: Commit,
  stats: DiffStats,
  record: ProjectRecord,
  baseUrl: string,
) {
  return Object.assign(presentCommit(commit, record, baseUrl), { stats: presentStats(stats) });
}

export function presentCommitDetail(detail: CommitDetail, record: ProjectRecord, baseUrl: string) {
  const pipeline: CiPipelineRow | null = detail.lastPipeline;
  return Object.assign(presentCommit(detail.commit, record, baseUrl), {
    stats: presentStats(detail.stats),
    status: detail.status,
    project_id: record.project.id,
    last_pipeline: pipeline ? presentPipelineBasic(pipeline, record, baseUrl) : null,
  });
}

export function presentCommitRef(ref: CommitRef) {
  return { type: ref.type, name: ref.name };
}
