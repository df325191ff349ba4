// Moving one ref with compare-and-swap (`git update-ref` with the expected old value, under git's own ref
// lock): if anything else moved the ref since it was read — a `git push`, another API write — nothing
// changes and the caller learns it lost. Creations expect the ref to be absent.
import { runGit } from './exec.ts';
import { BLANK_SHA } from '../domain/types.ts';
import { MAX_NEW_REF_NAME_LENGTH, MAX_REF_COMPONENT_BYTES } from './name-limits.ts';

/** Points `ref` at `after` if it still holds `before` (BLANK_SHA: absent; after BLANK_SHA: deletes it). */
export async function compareAndSwapRef(
  repoPath: string,
  ref: string,
  before: string,
  after: string,
): Promise<boolean> {
  const command = after === BLANK_SHA ? `delete ${ref}\0${before}\0` : `update ${ref}\0${after}\0${before}\0`;
  const result = await runGit(['update-ref', '--stdin', '-z'], { cwd: repoPath, input: command });
  return result.code === 0;
}

/** Whether `refs/<name>` is a name git accepts (GitLab's GitRefValidator) and fits GitLab's 255 characters. */
export async function isValidRefName(name: string): Promise<boolean> {
  if (name === '' || name.length > MAX_NEW_REF_NAME_LENGTH || /[\0\n]/.test(name)) return false;
  if (name.split('/').some((part) => Buffer.byteLength(part) > MAX_REF_COMPONENT_BYTES)) return false;
  const result = await runGit(['check-ref-format', `refs/${name}`]);
  return result.code === 0;
}
