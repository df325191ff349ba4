// Diff as v4 shows it (a commit's diff, a compare's diffs): Labrador never collapses a diff or marks a
// file as generated, so both flags are false.
import type { FileDiff } from '../../git/diffs.ts';

export function presentDiff(diff: FileDiff) {
  return {
    diff: diff.diff,
    collapsed: false,
    too_large: diff.tooLarge,
    new_path: diff.newPath,
    old_path: diff.oldPath,
    a_mode: diff.aMode,
    b_mode: diff.bMode,
    new_file: diff.newFile,
    renamed_file: diff.renamedFile,
    deleted_file: diff.deletedFile,
    generated_file: false,
  };
}
