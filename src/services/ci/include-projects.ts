// `include: project` reads another project of this server as the pipeline's user: a project the user
// may not read (or that does not exist) is the same error, so a pipeline never learns of hidden
// projects; `ref` is a branch, a tag or a commit, the project's default branch when not given.
import type { Deps } from '../../deps.ts';
import type { LocalFileReader, ProjectOpener } from '../../ci/config.ts';
import { findProjectRecordByFullPath } from '../../db/repositories/projects.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { readFileAtCommit } from '../../git/blobs.ts';
import { resolveRefs } from '../../git/refs.ts';
import { projectRepositoryPath } from '../../git/repository.ts';
import { projectAccess } from '../../policies/access.ts';
import { canDownloadCode } from '../../policies/git-access.ts';
import type { UserRow } from '../../db/types.ts';

/**
 * The opener of projects `user` may read, reading files of up to `maxBytes`. A user id (a trigger's or a
 * schedule's owner, the caller of the API) is looked up once, when a file first includes a project.
 */
export function projectOpener(
  deps: Deps,
  who: UserRow | null | { userId: number | null },
  maxBytes: number,
): ProjectOpener {
  let viewer: Promise<UserRow | null> | undefined;
  const userOf = (): Promise<UserRow | null> =>
    (viewer ??=
      who !== null && 'userId' in who
        ? who.userId === null
          ? Promise.resolve(null)
          : findUserById(deps.db.kysely, who.userId).then((row) => row ?? null)
        : Promise.resolve(who));
  const open: ProjectOpener = async (fullPath, ref) => {
    const user = await userOf();
    const denied = {
      error: `Project \`${fullPath}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`,
    };
    const slash = fullPath.lastIndexOf('/');
    if (slash <= 0) return denied;
    const record = await findProjectRecordByFullPath(
      deps.db.kysely,
      fullPath.slice(0, slash),
      fullPath.slice(slash + 1),
    );
    if (!record || !canDownloadCode(await projectAccess(deps.db.kysely, user, record), record)) return denied;
    const repoPath = projectRepositoryPath(deps.config.dataDir, record);
    const name = ref ?? record.project.default_branch ?? '';
    const refs = [`refs/heads/${name}`, `refs/tags/${name}`];
    const resolved = name === '' ? new Map<string, string>() : await resolveRefs(repoPath, refs);
    const sha =
      resolved.get(refs[0]!) ?? resolved.get(refs[1]!) ?? (/^[0-9a-f]{40}$/.test(name) ? name : undefined);
    if (!sha) return { error: `Project \`${fullPath}\` reference \`${name}\` does not exist!` };
    const read: LocalFileReader = async (path) => {
      const file = await readFileAtCommit(repoPath, sha, path, maxBytes);
      return file && !file.tooLarge ? file.content.toString('utf8') : undefined;
    };
    return { read, open };
  };
  return open;
}
