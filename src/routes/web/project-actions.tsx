// The project page's Star and Fork buttons at GitLab 8.13's paths: POST …/toggle_star (a second press
// takes the star back), GET …/forks/new (pick a namespace) and POST …/forks (`namespace_key`), which
// forks through the API's fork service and opens the fork. Who may not read the project gets 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadPageProject, loadTargetNamespace, type LoadedProject } from '../../http/loaders.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { ApiError, forbidden } from '../../errors.ts';
import { canForkProject } from '../../policies/access.ts';
import { starProject, unstarProject } from '../../services/projects/stars.ts';
import { forkProject } from '../../services/projects/forks.ts';
import { listNamespacesPage } from '../../views/namespace-views.ts';
import { presentNamespace } from '../../presenters/api-v3/group.ts';
import { ForkPage } from '../../presenters/html/repository-forms.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { UserRow } from '../../db/types.ts';
import { loadProjectHead } from './project-head.ts';
import { pageContext } from './web-session.ts';
import { signedIn } from './page-params.ts';
import { sendPage } from './render.ts';
import { errorText } from './form-errors.ts';

/** Stars the project, or takes the viewer's star back when it is already there (8.13's toggle_star). */
async function toggleStar(deps: Deps, viewer: UserRow, projectId: number): Promise<void> {
  try {
    await starProject(deps, viewer, projectId);
  } catch (error) {
    // The star service's 304: already starred.
    if (!(error instanceof ApiError && error.status === 304)) throw error;
    try {
      await unstarProject(deps, viewer, projectId);
    } catch (again) {
      // Taken back by another tab in between: the star is gone, as asked.
      if (!(again instanceof ApiError && again.status === 304)) throw again;
    }
  }
}

export function registerProjectActions(web: FastifyInstance, deps: Deps): void {
  const load = (request: FastifyRequest): Promise<LoadedProject> => loadPageProject(deps, request);
  const projectUrl = (loaded: LoadedProject) => `/${loaded.namespace.path}/${loaded.project.path}`;

  web.post('/:namespace/:project/toggle_star', async (request, reply) => {
    const loaded = await load(request);
    await toggleStar(deps, signedIn(request), loaded.project.id);
    return reply.redirect(projectUrl(loaded), 302);
  });

  const showForkPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    viewer: UserRow,
    flash: Flash | null = null,
    status = 200,
  ) => {
    const [project, namespaces] = await Promise.all([
      loadProjectHead(deps, loaded),
      listNamespacesPage(deps, viewer, undefined, { offset: 0, limit: 100 }).then((rows) =>
        rows.map(presentNamespace),
      ),
    ]);
    // 8.13 offered every namespace the user manages except the project's own.
    const targets = namespaces
      .filter((namespace) => namespace.id !== loaded.namespace.id)
      .map((namespace) => ({ id: namespace.id, path: namespace.path, kind: namespace.kind }));
    return sendPage(
      reply,
      <ForkPage ctx={pageContext(deps, request, reply)} project={project} targets={targets} flash={flash} />,
      status,
    );
  };

  /** The project, and the signed-in viewer who may fork it (else 403, as 8.13's fork_project ability). */
  const loadForkable = async (request: FastifyRequest) => {
    const loaded = await load(request);
    const viewer = signedIn(request);
    if (!canForkProject(viewer, loaded, loaded.access)) throw forbidden();
    return { loaded, viewer };
  };

  web.get('/:namespace/:project/forks/new', async (request, reply) => {
    const { loaded, viewer } = await loadForkable(request);
    return showForkPage(request, reply, loaded, viewer);
  });

  web.post('/:namespace/:project/forks', async (request, reply) => {
    const { loaded, viewer } = await loadForkable(request);
    const key = optionalString(requestParams(request), 'namespace_key');
    try {
      const target = await loadTargetNamespace(deps, viewer, key);
      await forkProject(deps, viewer, loaded, loaded.access, target);
      // A fork keeps the source's path.
      return reply.redirect(`/${target.path}/${loaded.project.path}?done=forked`, 302);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      const text = `The project could not be forked: ${errorText(error)}`;
      return showForkPage(request, reply, loaded, viewer, { kind: 'alert', text }, 422);
    }
  });
}
