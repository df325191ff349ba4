// One file's diff: RepoDiff (compare), and the same fields in Gitlab::Git::Diff#to_hash order with
// too_large (the list GET …/commits/:sha/diff answered, which GitLab serialized without an entity).
import type { FileDiff } from '../../git/diffs.ts';

export function presentRepoDiff(diff: FileDiff) {
  return {
    old_path: diff.oldPath,
    new_path: diff.newPath,
    a_mode: diff.aMode,
    b_mode: diff.bMode,
    diff: diff.diff,
    new_file: diff.newFile,
    renamed_file: diff.renamedFile,
    deleted_file: diff.deletedFile,
  };
}

export function presentCommitDiff(diff: FileDiff) {
  return {
    diff: diff.diff,
    new_path: diff.newPath,
    old_path: diff.oldPath,
    a_mode: diff.aMode,
    b_mode: diff.bMode,
    new_file: diff.newFile,
    renamed_file: diff.renamedFile,
    deleted_file: diff.deletedFile,
    too_large: diff.tooLarge,
  };
}
