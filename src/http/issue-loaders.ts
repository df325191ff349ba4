// Loading an issue named by `:issue_id` (a global id, as v3 paths take) within a project the caller
// reads: missing, in another project, or unreadable (issues off, confidential) all answer 404
// `404 Not found`, so a hidden issue is indistinguishable from none (8.13.12's find_project_issue).
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { recordNotFound } from '../errors.ts';
import { canReadIssue } from '../policies/issues.ts';
import { findIssueOfProject } from '../views/issue-views.ts';
import { loadProject, type LoadedProject } from './loaders.ts';
import { pathInteger } from './params.ts';
import type { IssueRow } from '../db/types.ts';

export interface LoadedIssue {
  project: LoadedProject;
  issue: IssueRow;
}

export async function loadIssue(
  deps: Deps,
  request: FastifyRequest,
  loaded?: LoadedProject,
  param = 'issue_id',
): Promise<LoadedIssue> {
  const project = loaded ?? (await loadProject(deps, request));
  const id = pathInteger(request.params as Record<string, unknown>, param);
  const issue = await findIssueOfProject(deps, project.project.id, id);
  if (!issue || !canReadIssue(request.viewer, project.access, project, issue)) throw recordNotFound();
  return { project, issue };
}
