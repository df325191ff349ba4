// A task box ticked on an issue's or merge request's page (8.13's task_list JavaScript, which sent the
// whole description back with the box changed): the description with that box (or, from the form without
// script, every box) set, made against the version the page was drawn from. The edit itself is the
// issue's or MR's update service, so 8.13's `Marked the task **x** as completed` note comes with it.
import { setTask, taskItems } from '../../lib/gfm-references.ts';
import { apiError, conflict } from '../../errors.ts';
import { STALE_DESCRIPTION } from './issues.ts';

/** One box (by its position among the description's tasks), or the set of ticked ones. */
export type TaskChange = { index: number; checked: boolean } | { checked: number[] };

/**
 * The new description, or a 409 when the description is no longer the version the page showed, or a
 * 400 when the box named is not there.
 */
export function tickedDescription(
  current: { description: string | null; updated_at: string },
  version: string,
  change: TaskChange,
): string {
  if (current.updated_at !== version) throw conflict(STALE_DESCRIPTION);
  const description = current.description ?? '';
  if ('index' in change) {
    const next = setTask(description, change.index, change.checked);
    if (next === undefined) throw apiError(400, '400 (Bad request) "task_index" is invalid');
    return next;
  }
  const ticked = new Set(change.checked);
  let next = description;
  taskItems(description).forEach((_, index) => {
    next = setTask(next, index, ticked.has(index)) ?? next;
  });
  return next;
}
