// v4's ProtectedBranch entity (lib/api/entities/protected_branch.rb, with EE's unprotect levels and code
// owner flag) from Labrador's rule, which knows two levels for pushing and merging: developers and up
// (30) or masters and up (40). Force pushes to protected branches are always refused, code owners unknown.
import type { ProtectedBranchRow } from '../../db/types.ts';
import { AccessLevel } from '../../domain/types.ts';

function presentAccessLevel(developers: boolean) {
  return {
    access_level: developers ? AccessLevel.Developer : AccessLevel.Master,
    access_level_description: developers ? 'Developers + Maintainers' : 'Maintainers',
    user_id: null,
    group_id: null,
  };
}

export function presentProtectedBranch(rule: ProtectedBranchRow) {
  return {
    id: rule.id,
    name: rule.name,
    push_access_levels: [presentAccessLevel(rule.developers_can_push === 1)],
    merge_access_levels: [presentAccessLevel(rule.developers_can_merge === 1)],
    allow_force_push: false,
    // No unprotect rules: masters may unprotect, as EE's empty list means.
    unprotect_access_levels: [],
    code_owner_approval_required: false,
  };
}
