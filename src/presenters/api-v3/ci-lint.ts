// POST /ci/lint as GitLab 8.15–9.x answered it.
import type { LintView } from '../../views/ci-lint-views.ts';

export function presentLintV3(view: LintView) {
  return { status: view.valid ? 'valid' : 'invalid', errors: view.errors };
}
