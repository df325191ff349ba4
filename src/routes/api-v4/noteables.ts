// What v4's notes, discussions, award emoji and todos routes hang under: an issue or a merge request
// addressed by its iid in the project (`issues/:issue_iid`, `merge_requests/:merge_request_iid`), read
// with the same loaders and rules as every other surface (a hidden project, issue or merge request is a
// 404; merge requests the caller may not read are a 403).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  loadIssueByIid,
  loadMergeRequestByIid,
  loadMergeRequestProject,
  loadProject,
  loadProjectSnippet,
  type LoadedProject,
} from '../../http/loaders.ts';
import { canReadProjectSnippets } from '../../policies/snippets.ts';
import { snippetAwardable, snippetNoteable } from '../../services/snippets/snippets.ts';
import { forbidden } from '../../errors.ts';
import { issueNoteable, noteableKey, type Noteable } from '../../services/issues/notes.ts';
import { mergeRequestNoteable } from '../../services/merge-requests/collaboration.ts';
import { issueAwardable, mergeRequestAwardable, type Awardable } from '../../services/issues/award-emoji.ts';
import { issueIssuable, type Issuable } from '../../services/issues/issues.ts';
import { mergeRequestIssuable } from '../../services/merge-requests/collaboration.ts';
import type { NoteableKey } from '../../db/repositories/notes.ts';

/** What a v4 path names notes and awards under (an issue, a merge request, a snippet), read-checked. */
export interface LoadedNoteParent {
  project: LoadedProject;
  type: 'Issue' | 'MergeRequest' | 'Snippet';
  id: number;
  /** The issue's or merge request's iid; null for a snippet. */
  iid: number | null;
  key: NoteableKey;
  awardable: Awardable;
  /** What a new note on it needs (read on demand: a merge request's hook parts cost a read). */
  noteable(): Promise<Noteable>;
}

/** An issue or merge request a v4 path names, read-checked. */
export interface LoadedNoteable extends LoadedNoteParent {
  type: 'Issue' | 'MergeRequest';
  iid: number;
  issuable: Issuable;
}

export const NOTEABLE_PARENTS: Array<{
  base: string;
  load(deps: Deps, request: FastifyRequest): Promise<LoadedNoteable>;
}> = [
  {
    base: '/projects/:id/issues/:issue_iid',
    async load(deps, request) {
      const project = await loadProject(deps, request);
      const issue = await loadIssueByIid(deps, request, project);
      const noteable = issueNoteable(deps, project, issue);
      return {
        project,
        type: 'Issue',
        id: issue.id,
        iid: issue.iid,
        key: noteableKey(noteable),
        awardable: issueAwardable(issue),
        issuable: issueIssuable(issue),
        noteable: async () => noteable,
      };
    },
  },
  {
    base: '/projects/:id/merge_requests/:merge_request_iid',
    async load(deps, request) {
      const { project } = await loadMergeRequestProject(deps, request);
      const mr = await loadMergeRequestByIid(deps, request, project);
      return {
        project,
        type: 'MergeRequest',
        id: mr.id,
        iid: mr.iid,
        key: { type: 'MergeRequest', id: mr.id },
        awardable: mergeRequestAwardable(mr),
        issuable: mergeRequestIssuable(mr),
        noteable: () => mergeRequestNoteable(deps, project, mr),
      };
    },
  },
];

/** Every parent of v4's notes and award emoji: the issuables, and a project's snippets by id. */
export const NOTE_PARENTS: Array<{
  base: string;
  load(deps: Deps, request: FastifyRequest): Promise<LoadedNoteParent>;
}> = [
  ...NOTEABLE_PARENTS,
  {
    base: '/projects/:id/snippets/:snippet_id',
    async load(deps, request) {
      const project = await loadProject(deps, request);
      if (!canReadProjectSnippets(project.access, project)) throw forbidden();
      const snippet = await loadProjectSnippet(deps, request, project, 'snippet_id', 'Snippet');
      const noteable = snippetNoteable(deps, project, snippet);
      return {
        project,
        type: 'Snippet',
        id: snippet.id,
        iid: null,
        key: { type: 'Snippet', id: snippet.id },
        awardable: snippetAwardable(snippet),
        noteable: async () => noteable,
      };
    },
  },
];
