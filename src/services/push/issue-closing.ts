// GitLab 8.13's GitPushService#process_commit_messages: a push to the existing default branch closes
// the issues its commit messages name with the closing pattern (`Closes #12`, `Fixes #3 and #4`,
// `Resolves: #5`), when the pusher may update each issue. Each is closed by the commit's author when
// that is a user (else the pusher), with its event, `Status changed to closed by commit <sha>` note and
// close hook, in the push's transaction. The commits are read with git before the transaction.
import type { Deps } from '../../deps.ts';
import { commitsBetween } from '../../git/commits.ts';
import { BLANK_SHA } from '../../domain/types.ts';
import { findIssuesByIids } from '../../db/repositories/issues.ts';
import { findUserByEmail } from '../../db/repositories/users.ts';
import { projectAccess } from '../../policies/access.ts';
import { canUpdateIssue } from '../../policies/issues.ts';
import { closeIssueIn } from '../issues/issue-activity.ts';
import type { RefUpdate } from '../../git/protocol/pkt-line.ts';
import type { Executor, ProjectRecord, UserRow } from '../../db/types.ts';

/** gitlab.yml's default issue_closing_pattern, with `#<iid>` (optionally project-qualified) as the reference. */
const CLOSING = new RegExp(
  String.raw`(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing))(?::?) +(?:(?:issues? +)?(?:[\w.-]+\/[\w.-]+)?#\d+(?:(?:, *| +and +)?)|(?:[A-Z][A-Z0-9_]+-\d+))+`,
  'g',
);
const REFERENCE = /(?:([\w.-]+\/[\w.-]+))?#(\d+)/g;

/** Commits past this many in one push are not scanned (a push of a whole history is not a closing push). */
const SCANNED_COMMITS = 1000;

export interface ClosingCommit {
  sha: string;
  authorEmail: string;
  iids: number[];
}

/** The issue iids of this project that a commit message (or an MR description) closes, in order. */
export function closedIids(message: string, projectFullPath: string): number[] {
  const iids = new Set<number>();
  for (const statement of message.match(CLOSING) ?? []) {
    for (const match of statement.matchAll(REFERENCE)) {
      if (match[1] !== undefined && match[1] !== projectFullPath) continue;
      iids.add(Number(match[2]));
    }
  }
  return [...iids];
}

/** Before the transaction: the commits of a push to the existing default branch that close issues. */
export async function planIssueClosing(
  repoPath: string,
  record: ProjectRecord,
  defaultBranch: string | null,
  applied: RefUpdate[],
): Promise<ClosingCommit[]> {
  if (!defaultBranch) return [];
  const change = applied.find((c) => c.ref === `refs/heads/${defaultBranch}`);
  if (!change || change.before === BLANK_SHA || change.after === BLANK_SHA) return [];
  const fullPath = `${record.namespace.path}/${record.project.path}`;
  const { commits } = await commitsBetween(repoPath, change.before, change.after, SCANNED_COMMITS);
  return commits.flatMap((commit) => {
    const iids = closedIids(commit.message, fullPath);
    return iids.length === 0 ? [] : [{ sha: commit.id, authorEmail: commit.authorEmail, iids }];
  });
}

/** In the push's transaction: closes what the plan names, oldest commit first; the closed issues by commit. */
export async function closeIssuesFromPush(
  trx: Executor,
  deps: Deps,
  record: ProjectRecord,
  pusher: UserRow,
  plan: ClosingCommit[],
  at: string,
): Promise<Map<string, Set<number>>> {
  const closedBy = new Map<string, Set<number>>();
  if (plan.length === 0) return closedBy;
  const pusherAccess = await projectAccess(trx, pusher, record);
  for (const commit of [...plan].reverse()) {
    const author = (await findUserByEmail(trx, commit.authorEmail)) ?? pusher;
    const authorAccess = author.id === pusher.id ? pusherAccess : await projectAccess(trx, author, record);
    for (const issue of await findIssuesByIids(trx, record.project.id, commit.iids)) {
      // Both the pusher and the closing author must be allowed to (GitPushService, then CloseService).
      if (!canUpdateIssue(pusher, pusherAccess, record, issue)) continue;
      if (!canUpdateIssue(author, authorAccess, record, issue)) continue;
      await closeIssueIn(trx, deps, record, author, issue, at, `commit ${commit.sha}`);
      closedBy.set(commit.sha, (closedBy.get(commit.sha) ?? new Set()).add(issue.id));
    }
  }
  return closedBy;
}
