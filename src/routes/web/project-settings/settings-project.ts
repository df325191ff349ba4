// What every project settings page starts with: the project through the API's loader and policy (a hidden
// project is 404, or sign-in for a signed-out visitor; a reader without the right is 403, as the API
// answers), its presented head for the frame, and the notice a redirect after a change asks for.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { forbidden, unauthorized } from '../../../errors.ts';
import { loadPageProject, type LoadedProject } from '../../../http/loaders.ts';
import { optionalString, requestParams } from '../../../http/params.ts';
import { canAdminProject, isProjectOwner } from '../../../policies/access.ts';
import { canAdminBuilds } from '../../../policies/ci.ts';
import { loadProjectView } from '../../../views/project-views.ts';
import { presentProjects } from '../../../presenters/api-v3/project.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import type { SettingsProject } from '../../../presenters/html/project-settings/settings-frame.tsx';
import type { UserRow } from '../../../db/types.ts';

/** Who may use a settings page: masters (admin_project), owners, or masters while builds are on. */
export type SettingsRule = 'master' | 'owner' | 'builds';

export interface SettingsRequestParams {
  namespace: string;
  project: string;
}

function allowed(rule: SettingsRule, loaded: LoadedProject): boolean {
  if (rule === 'owner') return isProjectOwner(loaded.access);
  if (rule === 'builds') return canAdminBuilds(loaded.access, loaded);
  return canAdminProject(loaded.access);
}

export interface LoadedSettings {
  loaded: LoadedProject;
  viewer: UserRow;
}

/** The project of a settings page, through the same loader and policies as the API's routes. */
export async function loadSettingsProject(
  deps: Deps,
  request: FastifyRequest,
  rule: SettingsRule = 'master',
): Promise<LoadedSettings> {
  const loaded = await loadPageProject(deps, request);
  if (!request.viewer) throw unauthorized();
  if (!allowed(rule, loaded)) throw forbidden();
  return { loaded, viewer: request.viewer };
}

/** The project as the frame shows it, with what the viewer may do (the API's presented project). */
export async function settingsHead(deps: Deps, loaded: LoadedProject) {
  const view = await loadProjectView(deps, loaded, loaded.access);
  const presented = presentProjects([view], deps.config, { runnersToken: true })[0]!;
  return {
    ...presented,
    settings: true,
    owner: isProjectOwner(loaded.access),
    builds: canAdminBuilds(loaded.access, loaded),
  } satisfies SettingsProject;
}

/** `?done=<word>` after a redirect: the page's message for it, if it has one. */
export function noticeOf(request: FastifyRequest, messages: Record<string, string>): Flash | null {
  const done = optionalString(requestParams(request), 'done');
  return done && Object.hasOwn(messages, done) ? { kind: 'notice', text: messages[done] } : null;
}

/** After a change: back to the page (GET), with the notice word. */
export function redirectDone(reply: FastifyReply, url: string, done: string): FastifyReply {
  return reply.redirect(`${url}?done=${encodeURIComponent(done)}`, 302);
}

/** An HTML checkbox sends its value when checked and nothing otherwise. */
export function checked(params: Record<string, unknown>, name: string): boolean {
  const value = params[name];
  return value !== undefined && value !== '' && value !== '0';
}
