// Which protected-branch rules cover a branch (ProtectedBranch#matches?: the exact name, or a pattern
// where `*` matches any run of characters), shared with the push rules of git pushes and API writes.
import { ruleMatches } from './push-rules.ts';
import type { ProtectedBranchRow } from '../db/types.ts';

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
