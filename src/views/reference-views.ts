// What the references of a set of Markdown texts name, for one reader, in one batch (8.13's reference
// filters and their RequestStore caches, and the redactor that left a reference plain text where the
// reader may not see its target): every text is read first, then a fixed number of statements (projects
// by path and the reader's access to them, issues, merge requests, namespaces, labels, milestones) and
// one `git cat-file` per referenced repository, however many texts and references there are. A target the
// reader may not see (a confidential issue, a private project, a private group) is left out of the map,
// so it stays text. The same resolution tells services whom a text mentions (todos) and what it
// cross-references (system notes), read with the author as the reader.
import {
  findIssuesByProjectIids,
  findLabelsByIdsOrTitles,
  findMergeRequestsByProjectIids,
  findMilestonesByIidsOrTitles,
  findNamespacesByPaths,
  findProjectRecordsByPaths,
  groupIdsWithMember,
} from '../db/repositories/references.ts';
import { projectAccessMany, type ProjectAccess } from '../policies/access.ts';
import { canReadIssue } from '../policies/issues.ts';
import { canReadMergeRequests } from '../policies/merge-requests.ts';
import { readCommits } from '../git/commits.ts';
import { projectRepositoryPath } from '../git/repository.ts';
import { projectFullPath } from '../domain/paths.ts';
import { AccessLevel, Visibility } from '../domain/types.ts';
import { commitTitle } from '../domain/titles.ts';
import { today } from '../lib/clock.ts';
import { markdownReferences, referenceKey, type Reference } from '../lib/gfm-references.ts';
import type {
  Executor,
  IssueRow,
  LabelRow,
  MergeRequestRow,
  MilestoneRow,
  ProjectRecord,
  UserRow,
} from '../db/types.ts';

/** Bounds of one batch: a text naming more stays text past them (8.13 had none; a page must stay cheap). */
const MAX_PROJECTS = 50;
const MAX_PER_KIND = 1000;

/** What a resolved reference links to; the presenter makes the HTML. */
export type ResolvedReference =
  | {
      kind: 'issue' | 'merge_request' | 'commit' | 'commit_range' | 'user' | 'group' | 'all' | 'milestone';
      url: string;
      title: string;
      /** The link's text when it is not the reference as written (a commit's short id, a milestone's title). */
      text?: string;
    }
  | { kind: 'label'; url: string; title: string; name: string; color: string };

/** The references of the texts of one page, resolved for its reader, keyed by referenceKey. */
export interface ReferenceMap {
  resolved: Map<string, ResolvedReference>;
  /** Issues and merge requests found, by key, for the services' todos and cross-references. */
  issues: Map<string, IssueRow>;
  mergeRequests: Map<string, MergeRequestRow>;
  /** The projects the issues and merge requests are in, by id. */
  projects: Map<number, ProjectRecord>;
  /** Users named by `@username`, by id. */
  users: Set<number>;
  /** Groups named by `@group`, by id, and whether `@all` was written. */
  groups: Set<number>;
  all: boolean;
}

const EMPTY_MAP = (): ReferenceMap => ({
  resolved: new Map(),
  issues: new Map(),
  mergeRequests: new Map(),
  projects: new Map(),
  users: new Set(),
  groups: new Set(),
  all: false,
});

/** download_code: the repository's commits are readable (reporters and up, or a non-private project). */
function canReadCode(access: ProjectAccess, record: ProjectRecord): boolean {
  return (
    access.canRead &&
    (access.level >= AccessLevel.Reporter || record.project.visibility_level !== Visibility.Private)
  );
}

function canSeeGroup(viewer: UserRow | null, visibility: number, isMember: boolean): boolean {
  if (visibility === Visibility.Public) return true;
  if (!viewer) return false;
  if (viewer.admin === 1 || isMember) return true;
  return visibility === Visibility.Internal && viewer.external !== 1;
}

export interface ReferenceScope {
  db: Executor;
  dataDir: string;
  viewer: UserRow | null;
  /** The project the texts are in, and the reader's access to it. */
  record: ProjectRecord;
  access: ProjectAccess;
}

/** The references the texts make, resolved for the reader. */
export async function resolveReferences(
  scope: ReferenceScope,
  texts: Array<string | null>,
): Promise<ReferenceMap> {
  const references = new Map<string, Reference>();
  for (const text of texts)
    for (const reference of markdownReferences(text)) references.set(referenceKey(reference), reference);
  if (references.size === 0) return EMPTY_MAP();
  return resolveReferenceSet(scope, [...references.values()]);
}

async function resolveReferenceSet(scope: ReferenceScope, references: Reference[]): Promise<ReferenceMap> {
  const { db, viewer, record } = scope;
  const result = EMPTY_MAP();
  const current = projectFullPath(record).toLowerCase();
  const projectOf = (reference: { project: string | null }) => reference.project ?? current;

  // Projects: the current one, then the others named, with the reader's access (two statements).
  const otherPaths = [
    ...new Set(
      references.flatMap((reference) =>
        'project' in reference && reference.project !== null && reference.project !== current
          ? [reference.project]
          : [],
      ),
    ),
  ].slice(0, MAX_PROJECTS);
  const others = await findProjectRecordsByPaths(db, otherPaths);
  const accesses = await projectAccessMany(db, viewer, others);
  const byPath = new Map<string, { record: ProjectRecord; access: ProjectAccess }>([
    [current, { record, access: scope.access }],
  ]);
  for (const other of others) {
    const access = accesses.get(other.project.id);
    if (access?.canRead) byPath.set(projectFullPath(other).toLowerCase(), { record: other, access });
  }
  const projectFor = (reference: { project: string | null }) => byPath.get(projectOf(reference));

  const of = <K extends Reference['kind']>(kind: K) =>
    references
      .filter((reference): reference is Reference & { kind: K } => reference.kind === kind)
      .slice(0, MAX_PER_KIND);
  const issueRefs = of('issue');
  const mrRefs = of('merge_request');
  const userRefs = of('user');
  const labelRefs = of('label');
  const milestoneRefs = of('milestone');
  const commitRefs = of('commit');
  const rangeRefs = of('commit_range');

  const pairs = (refs: Array<{ project: string | null; iid: number }>) =>
    refs.flatMap((reference) => {
      const found = projectFor(reference);
      return found ? [{ projectId: found.record.project.id, iid: reference.iid }] : [];
    });
  const names = userRefs.map((reference) => reference.name).filter((name) => name !== 'all');
  const labelIds = labelRefs.flatMap((reference) => (reference.id !== null ? [reference.id] : []));
  // `~bug.` at a sentence's end names `bug` when no label is called `bug.`.
  const labelTitles = labelRefs.flatMap((reference) =>
    reference.name !== null ? [reference.name, reference.name.replace(/[.?&]+$/, '')] : [],
  );
  const milestoneIids = milestoneRefs.flatMap((reference) => (reference.iid !== null ? [reference.iid] : []));
  const milestoneTitles = milestoneRefs.flatMap((reference) =>
    reference.name !== null ? [reference.name] : [],
  );
  const [issues, mergeRequests, namespaces, labels, milestones] = await Promise.all([
    findIssuesByProjectIids(db, pairs(issueRefs)),
    findMergeRequestsByProjectIids(db, pairs(mrRefs)),
    findNamespacesByPaths(db, [...new Set(names)]),
    findLabelsByIdsOrTitles(db, record.project.id, labelIds, [...new Set(labelTitles)].filter(Boolean)),
    findMilestonesByIidsOrTitles(db, record.project.id, milestoneIids, milestoneTitles),
  ]);
  const privateGroups = namespaces.filter(
    (row) => row.owner === null && row.namespace.visibility_level === Visibility.Private,
  );
  const memberOf =
    viewer && viewer.admin !== 1 && privateGroups.length > 0
      ? await groupIdsWithMember(
          db,
          viewer.id,
          privateGroups.map((row) => row.namespace.id),
          today(),
        )
      : new Set<number>();

  // Issues and merge requests the reader may see.
  const issueAt = new Map(issues.map((issue) => [`${issue.project_id}:${issue.iid}`, issue]));
  for (const reference of issueRefs) {
    const found = projectFor(reference);
    const issue = found && issueAt.get(`${found.record.project.id}:${reference.iid}`);
    if (!found || !issue || !canReadIssue(viewer, found.access, found.record, issue)) continue;
    const key = referenceKey(reference);
    result.issues.set(key, issue);
    result.projects.set(found.record.project.id, found.record);
    result.resolved.set(key, {
      kind: 'issue',
      url: `/${projectFullPath(found.record)}/issues/${issue.iid}`,
      title: issue.title,
    });
  }
  const mrAt = new Map(mergeRequests.map((mr) => [`${mr.target_project_id}:${mr.iid}`, mr]));
  for (const reference of mrRefs) {
    const found = projectFor(reference);
    const mr = found && mrAt.get(`${found.record.project.id}:${reference.iid}`);
    if (!found || !mr || !canReadMergeRequests(found.access, found.record)) continue;
    const key = referenceKey(reference);
    result.mergeRequests.set(key, mr);
    result.projects.set(found.record.project.id, found.record);
    result.resolved.set(key, {
      kind: 'merge_request',
      url: `/${projectFullPath(found.record)}/merge_requests/${mr.iid}`,
      title: mr.title,
    });
  }

  // Users, groups and @all.
  const namespaceAt = new Map(namespaces.map((row) => [row.namespace.path.toLowerCase(), row]));
  for (const reference of userRefs) {
    const key = referenceKey(reference);
    if (reference.name === 'all') {
      result.all = true;
      result.resolved.set(key, {
        kind: 'all',
        url: `/${projectFullPath(record)}`,
        title: 'All Project and Group Members',
      });
      continue;
    }
    const row = namespaceAt.get(reference.name);
    if (!row) continue;
    if (row.owner) {
      result.users.add(row.owner.id);
      result.resolved.set(key, { kind: 'user', url: `/${row.owner.username}`, title: row.owner.name });
    } else if (canSeeGroup(viewer, row.namespace.visibility_level, memberOf.has(row.namespace.id))) {
      result.groups.add(row.namespace.id);
      result.resolved.set(key, {
        kind: 'group',
        url: `/groups/${row.namespace.path}`,
        title: row.namespace.name,
      });
    }
  }

  // Labels and milestones of the current project (8.13 read labels with authorized_only: false).
  const base = `/${projectFullPath(record)}`;
  if (scope.access.canRead) {
    const labelById = new Map<number, LabelRow>(labels.map((label) => [label.id, label]));
    const labelByTitle = new Map<string, LabelRow>(labels.map((label) => [label.title, label]));
    for (const reference of labelRefs) {
      const label =
        reference.id !== null
          ? labelById.get(reference.id)
          : (labelByTitle.get(reference.name!) ?? labelByTitle.get(reference.name!.replace(/[.?&]+$/, '')));
      if (!label) continue;
      result.resolved.set(referenceKey(reference), {
        kind: 'label',
        url: `${base}/issues?label_name[]=${encodeURIComponent(label.title)}`,
        title: label.description ?? '',
        name: label.title,
        color: label.color,
      });
    }
    const milestoneByIid = new Map<number, MilestoneRow>(
      milestones.map((milestone) => [milestone.iid, milestone]),
    );
    const milestoneByTitle = new Map<string, MilestoneRow>(
      milestones.map((milestone) => [milestone.title, milestone]),
    );
    for (const reference of milestoneRefs) {
      const milestone =
        reference.iid !== null ? milestoneByIid.get(reference.iid) : milestoneByTitle.get(reference.name!);
      if (!milestone) continue;
      result.resolved.set(referenceKey(reference), {
        kind: 'milestone',
        url: `${base}/milestones/${milestone.iid}`,
        title: milestone.title,
        text: milestone.title,
      });
    }
  }

  // Commits and ranges: one `git cat-file --batch` per readable repository named.
  const shasByPath = new Map<string, Set<string>>();
  const want = (reference: { project: string | null }, sha: string) => {
    const found = projectFor(reference);
    if (!found || !canReadCode(found.access, found.record)) return;
    const path = projectOf(reference);
    shasByPath.set(path, (shasByPath.get(path) ?? new Set()).add(sha));
  };
  for (const reference of commitRefs) want(reference, reference.sha);
  for (const reference of rangeRefs) {
    want(reference, reference.from);
    want(reference, reference.to);
  }
  const commitsByPath = new Map(
    await Promise.all(
      [...shasByPath].map(async ([path, shas]) => {
        const found = byPath.get(path)!;
        const repoPath = projectRepositoryPath(scope.dataDir, found.record);
        const commits = await readCommits(repoPath, [...shas], {
          noneWithoutRepository: true,
          rememberedFor: `${found.record.project.id}:${found.record.project.created_at}`,
        }).catch(() => new Map());
        return [path, commits] as const;
      }),
    ),
  );
  for (const reference of commitRefs) {
    const commit = commitsByPath.get(projectOf(reference))?.get(reference.sha);
    if (!commit) continue;
    const found = projectFor(reference)!;
    const cross = reference.project !== null && reference.project !== current;
    result.resolved.set(referenceKey(reference), {
      kind: 'commit',
      url: `/${projectFullPath(found.record)}/commit/${commit.id}`,
      title: commitTitle(commit.message),
      text: `${cross ? `${projectFullPath(found.record)}@` : ''}${commit.id.slice(0, 8)}`,
    });
  }
  for (const reference of rangeRefs) {
    const commits = commitsByPath.get(projectOf(reference));
    const from = commits?.get(reference.from);
    const to = commits?.get(reference.to);
    if (!from || !to) continue;
    const found = projectFor(reference)!;
    result.resolved.set(referenceKey(reference), {
      kind: 'commit_range',
      url: `/${projectFullPath(found.record)}/compare/${from.id}${reference.notation}${to.id}`,
      title: '',
    });
  }
  return result;
}
