// Which names could name a ref at all: git's check-ref-format rules, and a length a ref file can have.
// A lookup of any other name has nothing to find, so it answers "absent" without running git (which
// would read `*`, `?` and `[` as patterns, or fail to start on an argument past the kernel's limit).

import { isOverlongName } from './name-limits.ts';

/** Characters no ref name holds: controls, space, `~ ^ : ? * [ \` (git check-ref-format rules 4, 5, 10). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/;

/** Whether `name` could be a branch (the part after refs/heads/) or a tag (after refs/tags/). */
export function isRefShortName(name: string): boolean {
  if (name === '' || name === '@' || FORBIDDEN.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.endsWith('.')) return false;
  // A ref is a file under the repository before it is ever packed: no path on Linux is longer.
  if (isOverlongName(name)) return false;
  // No empty component (leading, trailing or doubled slash), none starting with "." or ending in ".lock".
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/**
 * Whether `name` may be a branch, as `git check-ref-format --branch` judges it: a ref short name that does
 * not start with "-" and is not HEAD (git takes a lone "@" too).
 */
export function isBranchName(name: string): boolean {
  if (name === '@') return true;
  return isRefShortName(name) && !name.startsWith('-') && name !== 'HEAD';
}
