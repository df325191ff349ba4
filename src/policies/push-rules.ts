// The push rules (GitLab's Gitlab::Checks::ChangeAccess and Gitlab::UserAccess#can_push_to_branch?), one
// decision for every way a ref moves: the server applies it to the commands of a `git push` (its
// pre-receive hook then only applies the verdicts), and the API's branch, tag, file and commit writes
// run it before they move a ref.
import { AccessLevel, BLANK_SHA } from '../domain/types.ts';

/** What the rules need to know about the pusher and the project. */
export interface PushRules {
  /** The pusher's access level; administrators count as masters. */
  accessLevel: number;
  archived: boolean;
  protectedBranches: Array<{ name: string; developersCanPush: boolean; developersCanMerge: boolean }>;
}

/** The rules from the project's protected-branch rows (one reading for pushes, merges and pages). */
export function pushRulesFrom(
  accessLevel: number,
  archived: boolean,
  rows: Array<{ name: string; developers_can_push: number; developers_can_merge: number }>,
): PushRules {
  return {
    accessLevel,
    archived,
    protectedBranches: rows.map((row) => ({
      name: row.name,
      developersCanPush: row.developers_can_push === 1,
      developersCanMerge: row.developers_can_merge === 1,
    })),
  };
}

/** Facts about the repository, asked for only when a decision needs them. */
export interface RepositoryFacts {
  repositoryIsEmpty(): boolean | Promise<boolean>;
  isAncestor(ancestor: string, descendant: string): boolean | Promise<boolean>;
}

export interface RefChange {
  before: string;
  after: string;
  ref: string;
}

const MASTER = AccessLevel.Master;
const DEVELOPER = AccessLevel.Developer;
const BRANCH_PREFIX = 'refs/heads/';
const TAG_PREFIX = 'refs/tags/';

const PUSH_REFUSALS = {
  pushCode: 'You are not allowed to push code to this project.',
  changeTag: 'You are not allowed to change existing tags on this project.',
  forcePush: 'You are not allowed to force push code to a protected branch on this project.',
  deleteProtected: 'You are not allowed to delete protected branches from this project.',
  pushProtected: 'You are not allowed to push code to protected branches on this project.',
  mergeProtected: 'You are not allowed to merge code into protected branches on this project.',
} as const;

/** ProtectedBranch#matches?: the exact name, or a pattern where `*` matches any run of characters. */
export function ruleMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${source}$`, 's').test(branch);
}

function matchingRules(rules: PushRules, branch: string): PushRules['protectedBranches'] {
  return rules.protectedBranches.filter((rule) => ruleMatches(String(rule.name), branch));
}

/**
 * Whether the pusher may put commits on `branch` (can_push_to_branch?). With GitLab's default setting
 * (default branch fully protected), every branch of a repository without branches counts as protected
 * and only masters may make that first push.
 */
export async function canPushToBranch(
  rules: PushRules,
  branch: string,
  facts: Pick<RepositoryFacts, 'repositoryIsEmpty'>,
): Promise<boolean> {
  if (rules.accessLevel < DEVELOPER) return false;
  if (rules.accessLevel >= MASTER) return true;
  const matching = matchingRules(rules, branch);
  if (matching.length > 0) return matching.some((rule) => rule.developersCanPush);
  return !(await facts.repositoryIsEmpty());
}

/**
 * Whether the caller may merge into `branch` (can_merge_to_branch?): a protected branch takes a master
 * unless one of its rules lets developers merge, any other branch a developer.
 */
export function canMergeToBranch(rules: PushRules, branch: string): boolean {
  if (rules.archived || rules.accessLevel < DEVELOPER) return false;
  if (rules.accessLevel >= MASTER) return true;
  const matching = matchingRules(rules, branch);
  return matching.length === 0 || matching.some((rule) => rule.developersCanMerge);
}

/**
 * GitLab's reason for refusing one ref update, or null when it may happen. `merging`: the update lands a
 * merge request's merge, which whoever may merge into the branch may make (ChangeAccess's matching MR).
 */
export async function refUpdateRefusal(
  change: RefChange,
  rules: PushRules,
  facts: RepositoryFacts,
  merging = false,
): Promise<string | null> {
  const { before, after, ref } = change;
  if (rules.archived || rules.accessLevel < DEVELOPER) return PUSH_REFUSALS.pushCode;
  if (ref.startsWith(TAG_PREFIX)) {
    return before !== BLANK_SHA && rules.accessLevel < MASTER ? PUSH_REFUSALS.changeTag : null;
  }
  if (!ref.startsWith(BRANCH_PREFIX)) return null;
  const branch = ref.slice(BRANCH_PREFIX.length);
  if (matchingRules(rules, branch).length > 0) {
    if (after === BLANK_SHA) return PUSH_REFUSALS.deleteProtected;
    if (before !== BLANK_SHA && !(await facts.isAncestor(before, after))) return PUSH_REFUSALS.forcePush;
  }
  if (await canPushToBranch(rules, branch, facts)) return null;
  if (!merging) return PUSH_REFUSALS.pushProtected;
  return canMergeToBranch(rules, branch) ? null : PUSH_REFUSALS.mergeProtected;
}
