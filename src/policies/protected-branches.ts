// Which protected-branch rules cover a branch (ProtectedBranch#matches?: the exact name, or a pattern
// where `*` matches any run of characters). The pre-receive hook (git/hooks/pre-receive.mjs) applies the
// same rule in its own process.
import type { ProtectedBranchRow } from '../db/repositories/protected-branches.ts';

export function ruleMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*?');
  return new RegExp(`^${source}$`, 's').test(branch);
}

export interface BranchProtection {
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
}

export function branchProtection(rules: ProtectedBranchRow[], branch: string): BranchProtection {
  const matching = rules.filter((rule) => ruleMatches(rule.name, branch));
  return {
    protected: matching.length > 0,
    developersCanPush: matching.some((rule) => rule.developers_can_push === 1),
    developersCanMerge: matching.some((rule) => rule.developers_can_merge === 1),
  };
}
