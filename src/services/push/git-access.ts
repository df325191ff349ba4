// Who may run which git service on which project, for every transport (smart HTTP and SSH), in GitLab's
// words (its Gitlab::GitAccess): the caller is a user (blocked ones refused) or a deploy key (reads the
// projects it is enabled on and public ones, never pushes). A refusal carries the reason and the text
// gitlab-shell showed as "GitLab: <text>"; each transport turns it into its own answer. A user who
// authenticated with a personal access token is held to its scopes first (GitLab's authentication
// abilities): clone needs api, read_api, read_repository or write_repository; push api or write_repository.
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { findProjectWithAccessRowsByFullPath } from '../../db/repositories/project-access-records.ts';
import { isDeployKeyEnabled } from '../../db/repositories/deploy-keys.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { projectAccessFromRows, type ProjectAccess } from '../../policies/access.ts';
import { BUILD_FETCH_ACCESS, canBuildFetch } from '../../policies/ci.ts';
import { canDeployTokenDownload } from '../../policies/deploy-tokens.ts';
import { canDeployKeyDownload } from '../../policies/deploy-keys.ts';
import { canDownloadCode, canPushCode } from '../../policies/git-access.ts';
import { canSignIn } from '../../policies/users.ts';
import { canCreateWiki, canDownloadWiki } from '../../policies/wikis.ts';
import { ensureWikiRepository } from '../wikis/wiki-pages.ts';
import { gitAbilities } from '../../policies/access-tokens.ts';
import { Visibility } from '../../domain/types.ts';
import { findProjectRecordByFullPath } from '../../db/repositories/projects.ts';
import type { CiBuildRow, DeployTokenRow, KeyRow, ProjectRecord, UserRow } from '../../db/types.ts';

export type GitService = 'git-upload-pack' | 'git-receive-pack' | 'git-upload-archive';

/**
 * Who runs the command: a user (with the scopes of the personal access token they gave, if one), a
 * deploy key, or nobody (anonymous HTTP).
 */
export type GitActor =
  | { user: UserRow; deployKey?: undefined; scopes?: readonly string[] }
  | { user: null; deployKey?: KeyRow; scopes?: undefined };

/** `bad_credentials`: a build token whose build no longer runs (as good as a wrong password). */
export type GitRefusalReason = 'blocked' | 'not_found' | 'forbidden' | 'no_repository' | 'bad_credentials';

export class GitAccessRefused extends Error {
  constructor(
    readonly reason: GitRefusalReason,
    readonly text: string,
  ) {
    super(text);
  }
}

export interface GitAuthorization {
  user: UserRow | null;
  deployKey: KeyRow | null;
  record: ProjectRecord;
  access: ProjectAccess;
  repoPath: string;
  /** The project's wiki repository (`<project>.wiki.git`): pushes to it are not processed as pushes. */
  wiki?: boolean;
}

export const PROJECT_NOT_FOUND = 'The project you were looking for could not be found.';

const refuse = (reason: GitRefusalReason, text: string) => new GitAccessRefused(reason, text);

const PUSH_REFUSED = 'You are not allowed to push code to this project.';

/** The repository git is started on, once the caller may run the service: refused while there is none. */
function existingRepository(deps: Deps, record: ProjectRecord): string {
  const repoPath = projectRepositoryPath(deps.config.dataDir, record);
  if (!fs.existsSync(path.join(repoPath, 'HEAD'))) {
    throw refuse('no_repository', 'A repository for this project does not exist yet.');
  }
  return repoPath;
}

/** Auth of the actor on `<namespace>/<project>`: 2–3 indexed queries, then git may start. */
export async function authorizeGit(
  deps: Deps,
  actor: GitActor,
  namespace: string,
  projectPath: string,
  service: GitService,
): Promise<GitAuthorization> {
  const db = deps.db.kysely;
  const user = actor.user;
  const deployKey = actor.deployKey ?? null;
  if (user && !canSignIn(user)) throw refuse('blocked', 'Your account has been blocked.');
  if (actor.scopes) {
    const abilities = gitAbilities(actor.scopes);
    if (service === 'git-receive-pack' ? !abilities.push : !abilities.download) {
      const what = service === 'git-receive-pack' ? 'upload' : 'download';
      throw refuse('forbidden', `You are not allowed to ${what} code.`);
    }
  }
  // One prepared statement (as the API's loadProject): the project, its namespace and the access rows.
  // `<project>.wiki` is that project's wiki (GitLab's rule), unless there is no such project and a project
  // is itself called so.
  const wikiOf = /\.wiki$/i.test(projectPath) ? projectPath.slice(0, -5) : undefined;
  let found =
    wikiOf === undefined
      ? undefined
      : await findProjectWithAccessRowsByFullPath(db, namespace, wikiOf, user?.id ?? null);
  const wiki = found !== undefined;
  found ??= await findProjectWithAccessRowsByFullPath(db, namespace, projectPath, user?.id ?? null);
  const record = found?.record;
  const access = found ? projectAccessFromRows(user, found.record, found.accessRows) : undefined;
  const keyReads =
    record !== undefined &&
    deployKey !== null &&
    canDeployKeyDownload(
      await isDeployKeyEnabled(db, deployKey.id, record.project.id),
      record.project.visibility_level === Visibility.Public,
    );
  if (!record || !access || !(access.canRead || keyReads)) throw refuse('not_found', PROJECT_NOT_FOUND);
  if (wiki) return authorizeWiki(deps, { user, deployKey, record, access }, keyReads, service);
  if (service === 'git-receive-pack') {
    if (deployKey) throw refuse('forbidden', 'Deploy keys are not allowed to push code.');
    if (!user || !canPushCode(access)) {
      throw refuse('forbidden', PUSH_REFUSED);
    }
  } else if (!keyReads && !canDownloadCode(access, record)) {
    throw refuse('forbidden', 'You are not allowed to download code from this project.');
  }
  return { user, deployKey, record, access, repoPath: existingRepository(deps, record) };
}

/**
 * GitLab 8.13's GitAccessWiki: reading is the project's download_code (with the wiki on), writing is
 * create_wiki (developers and up) instead of the branch rules. The repository is made on first use.
 */
async function authorizeWiki(
  deps: Deps,
  caller: Omit<GitAuthorization, 'repoPath'>,
  keyReads: boolean,
  service: GitService,
): Promise<GitAuthorization> {
  const { user, deployKey, record, access } = caller;
  if (service === 'git-receive-pack') {
    if (deployKey) throw refuse('forbidden', 'Deploy keys are not allowed to push code.');
    if (!user || !canCreateWiki(access, record)) {
      throw refuse('forbidden', "You are not allowed to write to this project's wiki.");
    }
  } else if (!(keyReads ? record.project.wiki_enabled === 1 : canDownloadWiki(access, record))) {
    throw refuse('forbidden', 'You are not allowed to download code from this project.');
  }
  return { ...caller, repoPath: await ensureWikiRepository(deps, record), wiki: true };
}

/**
 * A build fetching with its token (`gitlab-ci-token`): only a running build, only its own project
 * (canBuildFetch), never a push; one indexed query.
 */
export async function authorizeBuildGit(
  deps: Deps,
  build: CiBuildRow,
  namespace: string,
  projectPath: string,
  service: GitService,
): Promise<GitAuthorization> {
  const record = await findProjectRecordByFullPath(deps.db.kysely, namespace, projectPath);
  // A finished build's token is as good as a wrong password; another project is not the build's to see.
  if (build.status !== 'running') throw refuse('bad_credentials', 'HTTP Basic: Access denied');
  if (!record || !canBuildFetch(build, record)) throw refuse('not_found', PROJECT_NOT_FOUND);
  if (service !== 'git-upload-pack') throw refuse('forbidden', PUSH_REFUSED);
  return {
    user: null,
    deployKey: null,
    record,
    access: BUILD_FETCH_ACCESS,
    repoPath: existingRepository(deps, record),
  };
}

/**
 * A clone or fetch with a deploy token (policies/deploy-tokens.ts): its project or a project of its
 * group, with read_repository; never a push. One indexed query, as a build's.
 */
export async function authorizeDeployTokenGit(
  deps: Deps,
  token: DeployTokenRow,
  namespace: string,
  projectPath: string,
  service: GitService,
): Promise<GitAuthorization> {
  const record = await findProjectRecordByFullPath(deps.db.kysely, namespace, projectPath);
  if (!record || !canDeployTokenDownload(token, record.project)) throw refuse('not_found', PROJECT_NOT_FOUND);
  if (service !== 'git-upload-pack') throw refuse('forbidden', 'Deploy tokens are not allowed to push code.');
  return {
    user: null,
    deployKey: null,
    record,
    access: BUILD_FETCH_ACCESS,
    repoPath: existingRepository(deps, record),
  };
}
