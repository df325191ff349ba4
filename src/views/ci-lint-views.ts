// CI lint: a .gitlab-ci.yml checked by the parser pipelines use. Local includes are read from the
// project's commit when there is a project (none for the instance-wide lint, which has no repository).
import type { Deps } from '../deps.ts';
import { lintCiConfig } from '../ci/config.ts';
import { readFileAtCommit } from '../git/blobs.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import { resolveCommit } from '../git/revisions.ts';
import { CI_FILE, CI_FILE_MAX_BYTES } from '../services/ci/pipelines.ts';
import { projectOpener } from '../services/ci/include-projects.ts';
import type { ProjectRecord, UserRow } from '../db/types.ts';

export interface LintView {
  valid: boolean;
  errors: string[];
  /** The configuration as a pipeline sees it (includes, extends and default applied); null when invalid. */
  mergedYaml: string | null;
}

/**
 * Lints `content` as `viewer`; local includes come from `sha` of the project's repository when both are
 * given, `include: project` files from the projects the viewer may read (public ones for no viewer).
 */
export async function lintContent(
  deps: Deps,
  viewer: UserRow | null,
  content: string,
  source?: { record: ProjectRecord; sha: string },
): Promise<LintView> {
  const repoPath = source && projectRepositoryPath(deps.config.dataDir, source.record);
  const result = await lintCiConfig(
    content,
    async (path) => {
      if (!repoPath || !source) return undefined;
      const file = await readFileAtCommit(repoPath, source.sha, path, CI_FILE_MAX_BYTES);
      return file && !file.tooLarge ? file.content.toString('utf8') : undefined;
    },
    projectOpener(deps, viewer, CI_FILE_MAX_BYTES),
  );
  return result.error !== undefined
    ? { valid: false, errors: [result.error], mergedYaml: null }
    : { valid: true, errors: [], mergedYaml: result.mergedYaml };
}

/** The commit a lint of the project reads (`ref`, else the default branch), undefined when none. */
export async function lintCommit(
  deps: Deps,
  record: ProjectRecord,
  ref: string | undefined,
): Promise<string | undefined> {
  const revision = ref ?? record.project.default_branch;
  if (!revision) return undefined;
  return resolveCommit(projectRepositoryPath(deps.config.dataDir, record), revision);
}

/** The project's .gitlab-ci.yml at `sha` linted (GitLab's message when the commit has none). */
export async function lintProjectFile(
  deps: Deps,
  viewer: UserRow | null,
  record: ProjectRecord,
  sha: string,
): Promise<LintView> {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  const file = await readFileAtCommit(repoPath, sha, CI_FILE, CI_FILE_MAX_BYTES);
  if (!file || file.tooLarge) {
    return { valid: false, errors: ['Please provide content of .gitlab-ci.yml'], mergedYaml: null };
  }
  return lintContent(deps, viewer, file.content.toString('utf8'), { record, sha });
}
