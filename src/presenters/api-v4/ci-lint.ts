// Entities::Ci::Lint::Result (no warnings are made here; local includes are not listed yet).
import type { LintView } from '../../views/ci-lint-views.ts';

export function presentLint(view: LintView) {
  return { valid: view.valid, errors: view.errors, warnings: [], merged_yaml: view.mergedYaml, includes: [] };
}

/** POST /ci/lint (GitLab 13–15): the result with `status`, merged_yaml only when asked for. */
export function presentInstanceLint(view: LintView, includeMergedYaml: boolean) {
  const { merged_yaml: mergedYaml, ...rest } = presentLint(view);
  return {
    ...rest,
    ...(includeMergedYaml ? { merged_yaml: mergedYaml } : {}),
    status: view.valid ? 'valid' : 'invalid',
  };
}
