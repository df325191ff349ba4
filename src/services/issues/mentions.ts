// What a written text does to what it mentions, in the writing transaction (GitLab 8.13's
// Mentionable#create_cross_references! and TodoService#create_mention_todos): every issue and merge
// request it references that its author may see gets one `Mentioned in …` system note per mentioner
// (never on the mentioner itself, never twice: cross_reference_exists?), and every user it mentions who
// may read the target gets a pending `mentioned` todo (`@group`: the group's members; `@all`: the
// project's and its group's members), unless one for the same target, author and note is pending.
// References are read as the page reads them (views/reference-views.ts), with the author as the reader.
import type { Deps } from '../../deps.ts';
import {
  existingCrossReferences,
  memberUserIds,
  usersWithPendingMention,
} from '../../db/repositories/references.ts';
import { accessRowsOfUsers } from '../../db/repositories/notification-settings.ts';
import { usersByIds } from '../../db/repositories/users.ts';
import { insertTodo } from '../../db/repositories/todos.ts';
import { projectAccess, projectAccessFromRows } from '../../policies/access.ts';
import { canReadIssue } from '../../policies/issues.ts';
import { canReadMergeRequests } from '../../policies/merge-requests.ts';
import { resolveReferences } from '../../views/reference-views.ts';
import { crossReferenceNote } from '../../domain/cross-references.ts';
import { projectFullPath } from '../../domain/paths.ts';
import { ISSUE, MERGE_REQUEST, TodoAction } from '../../domain/types.ts';
import { today } from '../../lib/clock.ts';
import { addSystemNoteOn, type SystemNoteTarget } from './issue-activity.ts';
import type { Executor, IssueRow, MergeRequestRow, ProjectRecord, UserRow } from '../../db/types.ts';

/** Most users one text's `@all` or `@group` reaches with todos. */
const MAX_MENTIONED = 1000;

/** Who wrote the text: an issue or merge request (its description or one of its notes), or a commit. */
export type Mentioner =
  | { kind: 'issue'; row: IssueRow }
  | { kind: 'merge_request'; row: MergeRequestRow }
  | { kind: 'commit'; sha: string };

export interface Mention {
  author: UserRow;
  /** The project the text is in (references without a path are its). */
  record: ProjectRecord;
  mentioner: Mentioner;
  texts: Array<string | null>;
  /** Cross-reference notes are written (8.13: only when a mentionable field changed). */
  crossReference: boolean;
  /** Issues (by id) that get no cross-reference note: the ones the same commit closed. */
  without?: Set<number>;
  /** Mention todos are made about this issue or merge request, for this note (none for a commit). */
  todos?: { target: IssueRow | MergeRequestRow; targetType: 'Issue' | 'MergeRequest'; noteId: number | null };
  at: string;
}

function isMentioner(mentioner: Mentioner, type: string, id: number): boolean {
  if (mentioner.kind === 'issue') return type === ISSUE && mentioner.row.id === id;
  if (mentioner.kind === 'merge_request') return type === MERGE_REQUEST && mentioner.row.id === id;
  return false;
}

export async function recordMentions(trx: Executor, deps: Deps, mention: Mention): Promise<void> {
  const { author, record, mentioner, at } = mention;
  if (mention.texts.every((text) => !text)) return;
  const access = await projectAccess(trx, author, record);
  const map = await resolveReferences(
    { db: trx, dataDir: deps.config.dataDir, viewer: author, record, access },
    mention.texts,
  );

  if (mention.crossReference) {
    const mentionerPath = projectFullPath(record);
    const reference =
      mentioner.kind === 'commit'
        ? ({ kind: 'commit', sha: mentioner.sha } as const)
        : ({ kind: mentioner.kind, iid: mentioner.row.iid } as const);
    const notes: Array<{ target: SystemNoteTarget; body: string }> = [];
    const add = (type: 'Issue' | 'MergeRequest', id: number, projectId: number) => {
      if (isMentioner(mentioner, type, id)) return;
      const noted = map.projects.get(projectId);
      if (!noted) return;
      const body = crossReferenceNote(reference, mentionerPath, projectFullPath(noted));
      if (!notes.some((note) => note.target.type === type && note.target.id === id))
        notes.push({ target: { type, id, projectId }, body });
    };
    for (const issue of map.issues.values())
      if (!mention.without?.has(issue.id)) add(ISSUE, issue.id, issue.project_id);
    for (const mr of map.mergeRequests.values()) add(MERGE_REQUEST, mr.id, mr.target_project_id);
    const existing = await existingCrossReferences(
      trx,
      notes.map((note) => note.target),
      notes.map((note) => note.body),
    );
    const done = new Set(existing.map((row) => `${row.noteable_type}:${row.noteable_id}:${row.note}`));
    for (const note of notes) {
      if (done.has(`${note.target.type}:${note.target.id}:${note.body}`)) continue;
      await addSystemNoteOn(trx, note.target, author, note.body, at);
    }
  }

  const todos = mention.todos;
  if (!todos) return;
  const mentioned = new Set(map.users);
  const groupIds = [...map.groups];
  if (map.all && record.namespace.type === 'Group') groupIds.push(record.namespace.id);
  if (groupIds.length > 0 || map.all) {
    const members = await memberUserIds(
      trx,
      { projectIds: map.all ? [record.project.id] : [], groupIds },
      MAX_MENTIONED,
      today(),
    );
    for (const id of members) mentioned.add(id);
  }
  const ids = [...mentioned].slice(0, MAX_MENTIONED);
  if (ids.length === 0) return;
  const groupId = record.namespace.type === 'Group' ? record.namespace.id : null;
  const [users, rows, pending] = await Promise.all([
    usersByIds(trx, ids),
    accessRowsOfUsers(trx, ids, record.project.id, groupId),
    usersWithPendingMention(
      trx,
      { type: todos.targetType, id: todos.target.id },
      author.id,
      todos.noteId,
      ids,
    ),
  ]);
  for (const id of ids) {
    const user = users.get(id);
    if (!user || user.state !== 'active' || pending.has(id)) continue;
    const userAccess = projectAccessFromRows(
      user,
      record,
      rows.filter((row) => row.user_id === id),
    );
    const readable =
      todos.targetType === ISSUE
        ? canReadIssue(user, userAccess, record, todos.target as IssueRow)
        : canReadMergeRequests(userAccess, record);
    if (!readable) continue;
    await insertTodo(trx, {
      user_id: id,
      project_id: record.project.id,
      target_type: todos.targetType,
      target_id: todos.target.id,
      author_id: author.id,
      note_id: todos.noteId,
      action: TodoAction.Mentioned,
      state: 'pending',
      created_at: at,
      updated_at: at,
    });
  }
}
