// GitLab Flavored Markdown references as GitLab 8.13's reference filters found them (Issue, MergeRequest,
// User, Label, Milestone, Commit and CommitRange `reference_pattern`s): `#1`, `!1`, `@alice`, `~bug`,
// `~"two words"`, `~12`, `%v1.0`, `%"two words"`, `%3`, a SHA of 7–40 hex digits, `a...b`, and the
// cross-project forms `group/project#2`, `group/project!3`, `group/project@sha`. Only text outside code
// spans, code blocks and links counts (the filters' ignore_ancestor_query), so the page that renders a
// text and the services that act on its mentions (todos, cross-reference notes) read it alike: both walk
// markdown-it's tokens through `referenceRuns`. Task list items (`- [ ] x`) are found the same way.
import type MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { lazy } from './lazy.ts';

/** Gitlab::Regex::NAMESPACE_REGEX_STR: a user's, group's or project's path. */
const NAME = String.raw`(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_\-]|[a-zA-Z0-9_])(?<!\.git|\.atom)`;
const HEX = '[0-9a-fA-F]{7,40}';

/**
 * One pattern, its alternatives in the order 8.13's pipeline ran the filters (users, issues, merge
 * requests, commit ranges, commits, labels, milestones); a cross-project form starts earlier in the text
 * than the `@`, `#` or `!` it contains, so it wins where both could match.
 */
const REFERENCE = new RegExp(
  [
    String.raw`(?<xp>${NAME}/${NAME})(?:#(?<xissue>\d+)|!(?<xmr>\d+)|@(?<xrange>${HEX}\.{2,3}${HEX})\b|@(?<xcommit>${HEX})\b)`,
    String.raw`(?<![\w@])@(?<user>${NAME})`,
    String.raw`#(?<issue>\d+)\b`,
    String.raw`!(?<mr>\d+)\b`,
    String.raw`\b(?<range>${HEX}\.{2,3}${HEX})\b`,
    String.raw`\b(?<commit>${HEX})\b`,
    String.raw`~(?:(?<labelId>\d+)(?!\S\w)\b|"(?<labelQuoted>[^"]+)"|(?<labelName>[A-Za-z0-9_\-?.&]+))`,
    String.raw`%(?:(?<milestoneIid>\d+)(?!\S\w)\b|"(?<milestoneQuoted>[^"]+)"|(?<milestoneName>[^"\s]+\b))`,
  ].join('|'),
  'g',
);

export type Reference =
  | { kind: 'issue' | 'merge_request'; project: string | null; iid: number }
  | { kind: 'user'; name: string }
  | { kind: 'label'; id: number | null; name: string | null }
  | { kind: 'milestone'; iid: number | null; name: string | null }
  | { kind: 'commit'; project: string | null; sha: string }
  | { kind: 'commit_range'; project: string | null; from: string; to: string; notation: '..' | '...' };

/** The largest number a reference may name (8.13's reference_valid?: a database integer). */
const MAX_INT = 2_147_483_647;

/** The reference a match names, or undefined when it names nothing (`#0`, a number too large). */
function referenceOf(groups: Record<string, string | undefined>): Reference | undefined {
  const number = (text: string) => {
    const value = Number(text);
    return value > 0 && value <= MAX_INT ? value : undefined;
  };
  const project = groups.xp?.toLowerCase() ?? null;
  const issue = groups.xissue ?? groups.issue;
  if (issue !== undefined) {
    const iid = number(issue);
    return iid === undefined ? undefined : { kind: 'issue', project, iid };
  }
  const mr = groups.xmr ?? groups.mr;
  if (mr !== undefined) {
    const iid = number(mr);
    return iid === undefined ? undefined : { kind: 'merge_request', project, iid };
  }
  const range = groups.xrange ?? groups.range;
  if (range !== undefined) {
    const [from, notation, to] = range.toLowerCase().split(/(\.{2,3})/) as [string, '..' | '...', string];
    return { kind: 'commit_range', project, from, to, notation };
  }
  const commit = groups.xcommit ?? groups.commit;
  if (commit !== undefined) return { kind: 'commit', project, sha: commit.toLowerCase() };
  if (groups.user !== undefined) return { kind: 'user', name: groups.user.toLowerCase() };
  if (groups.labelId !== undefined) {
    const id = number(groups.labelId);
    return id === undefined ? undefined : { kind: 'label', id, name: null };
  }
  const label = groups.labelQuoted ?? groups.labelName;
  if (label !== undefined) return { kind: 'label', id: null, name: label };
  if (groups.milestoneIid !== undefined) {
    const iid = number(groups.milestoneIid);
    return iid === undefined ? undefined : { kind: 'milestone', iid, name: null };
  }
  const milestone = groups.milestoneQuoted ?? groups.milestoneName;
  if (milestone !== undefined) return { kind: 'milestone', iid: null, name: milestone };
  return undefined;
}

/** A reference's key in a resolved map: the same reference written twice is looked up once. */
export function referenceKey(reference: Reference): string {
  switch (reference.kind) {
    case 'issue':
      return `#${reference.project ?? ''}#${reference.iid}`;
    case 'merge_request':
      return `!${reference.project ?? ''}!${reference.iid}`;
    case 'user':
      return `@${reference.name}`;
    case 'label':
      return reference.id !== null ? `~${reference.id}` : `~"${reference.name}"`;
    case 'milestone':
      return reference.iid !== null ? `%${reference.iid}` : `%"${reference.name}"`;
    case 'commit':
      return `@${reference.project ?? ''}@${reference.sha}`;
    case 'commit_range':
      return `@${reference.project ?? ''}@${reference.from}${reference.notation}${reference.to}`;
  }
}

export interface ReferenceMatch {
  reference: Reference;
  /** The text as written (`#1`, `group/project#2`). */
  text: string;
  index: number;
}

/** The references in a run of plain text, in order. */
export function referencesInText(text: string): ReferenceMatch[] {
  const found: ReferenceMatch[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const reference = referenceOf(match.groups ?? {});
    if (reference) found.push({ reference, text: match[0], index: match.index });
  }
  return found;
}

/**
 * Calls `visit` with each text token of an inline token's children that is outside a link (the image's
 * alt text and code spans are other tokens): the runs a reference may be found in.
 */
export function referenceRuns(children: Token[], visit: (token: Token, position: number) => void): void {
  let linkDepth = 0;
  for (let position = 0; position < children.length; position++) {
    const token = children[position]!;
    if (token.type === 'link_open') linkDepth++;
    else if (token.type === 'link_close') linkDepth = Math.max(0, linkDepth - 1);
    else if (token.type === 'text' && linkDepth === 0) visit(token, position);
  }
}

const loadMarkdownIt = lazy<typeof MarkdownIt>('markdown-it');
let parser: MarkdownIt | undefined;

/** A parser configured as the page's renderer (raw HTML off, bare URLs linked), for reading only. */
function markdownParser(): MarkdownIt {
  if (parser) return parser;
  const MarkdownItClass = loadMarkdownIt();
  parser = new MarkdownItClass({ html: false, linkify: true, typographer: false });
  return parser;
}

/** Every reference a Markdown text makes where the page would link it, in order. */
export function markdownReferences(text: string | null | undefined): Reference[] {
  if (!text) return [];
  const found: Reference[] = [];
  for (const block of markdownParser().parse(text, {})) {
    if (block.type !== 'inline' || !block.children) continue;
    referenceRuns(block.children, (token) => {
      for (const match of referencesInText(token.content)) found.push(match.reference);
    });
  }
  return found;
}

/** `[ ]` or `[x]` opening a list item's first paragraph: a task list item. */
const TASK_MARKER = /^\[([ xX])\] /;

/** The task list items of a Markdown text, in order: the source line each box is on, and its state. */
export function taskItems(text: string): Array<{ line: number; checked: boolean }> {
  const tokens = markdownParser().parse(text, {});
  const items: Array<{ line: number; checked: boolean }> = [];
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i]!;
    if (
      inline.type !== 'inline' ||
      tokens[i - 1]!.type !== 'paragraph_open' ||
      tokens[i - 2]!.type !== 'list_item_open'
    )
      continue;
    const match = TASK_MARKER.exec(inline.content);
    const first = inline.children?.[0];
    if (!match || !first || first.type !== 'text' || !first.content.startsWith(match[0])) continue;
    const line = tokens[i - 1]!.map?.[0];
    if (line !== undefined) items.push({ line, checked: match[1] !== ' ' });
  }
  return items;
}

/**
 * The text with its `index`th task box (as taskItems counts them) ticked or cleared, or undefined when
 * there is no such task. Only that box's characters change; line endings are kept.
 */
export function setTask(text: string, index: number, checked: boolean): string | undefined {
  const item = taskItems(text)[index];
  if (!item) return undefined;
  const lines = text.split(/(?<=\n)/);
  const line = lines[item.line];
  if (line === undefined) return undefined;
  const replaced = line.replace(/\[[ xX]\]/, checked ? '[x]' : '[ ]');
  if (replaced === line && item.checked !== checked) return undefined;
  lines[item.line] = replaced;
  return lines.join('');
}
