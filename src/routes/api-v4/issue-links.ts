// v4's issue links (lib/api/issue_links.rb): an issue's linked issues (RelatedIssue: the Issue entity with
// issue_link_id, link_type and the link's times, oldest first, only issues the caller may read), one
// link and create (201) / delete (200, the link) in the IssueLink entity (source_issue, target_issue,
// link_type). Issues are addressed by iid in their project: the target by `target_project_id` (an id
// or path) and `target_issue_iid`. Linking and unlinking need a reporter of both issues' projects.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import {
  loadIssueByIid,
  loadProject,
  readableProjectByIdParam,
  type LoadedProject,
} from '../../http/loaders.ts';
import { optionalOneOf, pathInteger, requestParams, type Params } from '../../http/params.ts';
import { apiError, notFound, paramValueInvalid, recordNotFound } from '../../errors.ts';
import { AccessLevel } from '../../domain/types.ts';
import type { ProjectAccess } from '../../policies/access.ts';
import { canReadIssue } from '../../policies/issues.ts';
import { createIssueLink, destroyIssueLink, type LinkType } from '../../services/issues/issue-links.ts';
import { findIssueByIid } from '../../views/issue-views.ts';
import { findLinkOfIssue, readableIssuesByIds, relatedIssues } from '../../views/issue-link-views.ts';
import { issueClosings } from '../../views/issuable-closings.ts';
import { presentIssueV4 } from '../../presenters/api-v4/issue.ts';
import type { IssueLinkRow, UserRow } from '../../db/types.ts';
import { requireParams } from './conventions.ts';

const LINK_TYPES = ['relates_to', 'blocks', 'is_blocked_by'] as const;

/** admin_issue_link on both sides (GitLab's IssueLinks::CreateService asks it of each issue). */
const mayLink = (access: ProjectAccess) => access.admin || access.level >= AccessLevel.Reporter;
const noPermission = () =>
  apiError(403, "Couldn't link issues. You must have at least the Reporter role in both projects.");

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const base = '/projects/:id/issues/:issue_iid/links';

  const presentLink = async (viewer: UserRow, link: IssueLinkRow) => {
    const issues = await readableIssuesByIds(deps, viewer, [link.source_id, link.target_id]);
    const source = issues.get(link.source_id);
    const target = issues.get(link.target_id);
    if (!source || !target) throw recordNotFound();
    const closings = await issueClosings(deps, [source.issue, target.issue]);
    return {
      source_issue: presentIssueV4(source.view, closings.get(source.issue.id), baseUrl),
      target_issue: presentIssueV4(target.view, closings.get(target.issue.id), baseUrl),
      link_type: link.link_type,
    };
  };

  /** The issue of the path and one of its links whose other issue the caller may read. */
  const loadLink = async (request: FastifyRequest, viewer: UserRow, loaded: LoadedProject) => {
    const issue = await loadIssueByIid(deps, request, loaded);
    const link = await findLinkOfIssue(
      deps,
      issue.id,
      pathInteger(request.params as Params, 'issue_link_id'),
    );
    if (!link) throw recordNotFound();
    const issues = await readableIssuesByIds(deps, viewer, [link.source_id, link.target_id]);
    const source = issues.get(link.source_id);
    const target = issues.get(link.target_id);
    if (!source || !target) throw recordNotFound();
    return { link, source, target };
  };

  app.get(base, async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const issue = await loadIssueByIid(deps, request, loaded);
    const related = await relatedIssues(deps, viewer, issue);
    const closings = await issueClosings(
      deps,
      related.map((entry) => entry.view.issue),
    );
    return related.map((entry) => ({
      ...presentIssueV4(entry.view, closings.get(entry.view.issue.id), baseUrl),
      issue_link_id: entry.link.id,
      link_type: entry.linkType,
      link_created_at: entry.link.created_at,
      link_updated_at: entry.link.updated_at,
    }));
  });

  app.get(`${base}/:issue_link_id`, async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const { link } = await loadLink(request, viewer, loaded);
    return presentLink(viewer, link);
  });

  app.post(base, async (request, reply) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requireParams(params, 'target_project_id', 'target_issue_iid');
    const linkType: LinkType =
      optionalOneOf(params, 'link_type', LINK_TYPES, () => paramValueInvalid('link_type')) ?? 'relates_to';
    const iid = String(params.target_issue_iid);
    if (!/^\d{1,10}$/.test(iid)) throw paramValueInvalid('target_issue_iid');
    const loaded = await loadProject(deps, request);
    const source = await loadIssueByIid(deps, request, loaded);
    const targetProject = await readableProjectByIdParam(deps, viewer, params.target_project_id);
    if (!targetProject) throw notFound('Project');
    const target = await findIssueByIid(deps, targetProject.project.id, Number(iid));
    if (!target || !canReadIssue(viewer, targetProject.access, targetProject, target)) throw recordNotFound();
    if (!mayLink(loaded.access) || !mayLink(targetProject.access)) throw noPermission();
    const link = await createIssueLink(
      deps,
      viewer,
      { issue: source, record: loaded },
      { issue: target, record: targetProject },
      linkType,
    );
    return reply.status(201).send(await presentLink(viewer, link));
  });

  app.delete(`${base}/:issue_link_id`, async (request) => {
    const viewer = requireViewer(request);
    const loaded = await loadProject(deps, request);
    const { link, source, target } = await loadLink(request, viewer, loaded);
    if (!mayLink(source.access) || !mayLink(target.access)) throw noPermission();
    const presented = await presentLink(viewer, link);
    await destroyIssueLink(
      deps,
      viewer,
      link,
      { issue: source.issue, record: source.view.record },
      { issue: target.issue, record: target.view.record },
    );
    return presented;
  });
}
