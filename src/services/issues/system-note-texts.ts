// The words of GitLab 8.13's system notes that take more than a template: a title change marked up with
// the changed run of characters (SystemNoteService.change_title through Gitlab::Diff::InlineDiff and
// InlineDiffMarker in markdown mode), the task list items a description edit ticked or unticked
// (Taskable.get_updated_tasks) and a push's "Added N commits" (SystemNoteService.add_commits).
import { commitTitle } from '../../domain/titles.ts';

/** ERB::Util.html_escape, which the marker applies to the title before marking it. */
const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(chars: string[]): string {
  return chars.map((char) => HTML_ESCAPES[char] ?? char).join('');
}

function commonPrefixLength(a: string[], b: string[]): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/** The title with its changed run (between the common prefix and suffix) wrapped in `{-…-}` or `{+…+}`. */
function markChange(chars: string[], start: number, end: number, symbol: '-' | '+'): string {
  if (start > end) return escapeHtml(chars);
  return (
    escapeHtml(chars.slice(0, start)) +
    `{${symbol}${escapeHtml(chars.slice(start, end + 1))}${symbol}}` +
    escapeHtml(chars.slice(end + 1))
  );
}

/** `Changed title: **{-Old-} title** → **{+New+} title**`, by characters as Ruby counts them. */
export function titleChangeNote(oldTitle: string, newTitle: string): string {
  const before = Array.from(oldTitle);
  const after = Array.from(newTitle);
  const prefix = commonPrefixLength(before, after);
  const suffix = commonPrefixLength(before.slice(prefix).reverse(), after.slice(prefix).reverse());
  // InlineDiff leaves an empty old line unmarked (a title is never empty, so this is for completeness).
  const marked = before.length > 0;
  const oldMarked = marked ? markChange(before, prefix, before.length - suffix - 1, '-') : escapeHtml(before);
  const newMarked = marked ? markChange(after, prefix, after.length - suffix - 1, '+') : escapeHtml(after);
  return `Changed title: **${oldMarked}** → **${newMarked}**`;
}

/** Taskable::ITEM_PATTERN: an optional list marker, a checkbox, then whitespace and the item's text. */
const TASK_ITEM = /^(?:\s*[-+*]|(?:\d+\.))?\s*(\[\s\]|\[[xX]\])(\s.+)/gm;

interface TaskItem {
  source: string;
  complete: boolean;
}

function tasksOf(text: string | null): TaskItem[] {
  return [...(text ?? '').matchAll(TASK_ITEM)].map((match) => ({
    source: match[2].trim(),
    complete: /\[[xX]\]/.test(match[1]),
  }));
}

/**
 * `Marked the task **Fix bugs** as completed` (or `incomplete`) for each item whose checkbox a description
 * edit flipped: items are paired by position and count only when their text is unchanged.
 */
export function taskChangeNotes(oldDescription: string | null, newDescription: string | null): string[] {
  const before = tasksOf(oldDescription);
  return tasksOf(newDescription)
    .filter((task, index) => {
      const old = before[index];
      return old !== undefined && old.source === task.source && old.complete !== task.complete;
    })
    .map((task) => `Marked the task **${task.source}** as ${task.complete ? 'completed' : 'incomplete'}`);
}

/** Rack::Utils.escape_html of Rack 1.6 (GitLab 8.13's), which the commit list of a push note goes through. */
const RACK_ESCAPES: Record<string, string> = { ...HTML_ESCAPES, "'": '&#x27;', '/': '&#x2F;' };

function shortId(sha: string): string {
  return sha.slice(0, 8);
}

function pluralCommits(count: number): string {
  return count === 1 ? '1 commit' : `${count} commits`;
}

export interface CommitsAdded {
  /** The pushed commits that are in the MR's new version, oldest first. */
  added: Array<{ id: string; message: string }>;
  /** The pushed commits that are not (already in the target branch), oldest first. */
  existing: Array<{ id: string }>;
  /** The source branch's head before the push, when it had one. */
  oldrev: string | null;
  /** The target branch as the note names it (`namespace:branch` for an MR from a fork). */
  targetBranch: string;
  compareUrl: string;
}

/**
 * SystemNoteService.add_commits: `Added 2 commits:`, a line summing up the pushed commits already in the
 * target branch, one line per new commit (`* 1a2b3c4d - Title`), then the link to compare versions.
 */
export function commitsAddedNote(push: CommitsAdded): string {
  const { added, existing } = push;
  let summary = '';
  if (existing.length > 0) {
    const ids =
      existing.length === 1
        ? shortId(existing[0]!.id)
        : push.oldrev
          ? `${shortId(push.oldrev)}...${shortId(existing.at(-1)!.id)}`
          : `${shortId(existing[0]!.id)}..${shortId(existing.at(-1)!.id)}`;
    summary = `* ${ids} - ${pluralCommits(existing.length)} from branch \`${push.targetBranch}\`\n`;
  }
  const lines = added.map(
    (commit) =>
      `* ${shortId(commit.id)} - ${[...commitTitle(commit.message)].map((c) => RACK_ESCAPES[c] ?? c).join('')}`,
  );
  return (
    `Added ${pluralCommits(added.length + existing.length)}:\n\n${summary}${lines.join('\n')}` +
    `\n\n[Compare with previous version](${push.compareUrl})`
  );
}
