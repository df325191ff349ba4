// GitLab 8.13's …/compare (a form; `from` and `to` sent to it, by GET or by 8.13's POST, open the
// comparison) and …/compare/<from>...<to> (commits and diff), and the project's …/activity. Read
// through the same loader and policy as every project page: hidden projects answer 404 (or sign in).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { canDownloadCode } from '../../policies/git-access.ts';
import { compareForPage } from '../../views/repository-pages.ts';
import { branchNames } from '../../views/merge-request-pages.ts';
import { projectActivityPage } from '../../views/event-views.ts';
import { CompareIndexPage, ComparePage } from '../../presenters/html/compare.tsx';
import { ActivityPage } from '../../presenters/html/activity.tsx';
import { loadProjectHead } from './project-head.ts';
import { loadPageProject } from '../../http/loaders.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';
import { pageNumber } from './paging.ts';

const EVENTS_PER_PAGE = 20;

/** `/<ns>/<p>/compare/<from>...<to>` with each side encoded. */
function compareUrl(base: string, from: string, to: string): string {
  return `${base}/compare/${encodeURIComponent(from)}...${encodeURIComponent(to)}`;
}

export function registerComparePages(web: FastifyInstance, deps: Deps): void {
  /** Readable, and its code downloadable (8.13's authorize_download_code!). */
  const loadCode = async (request: FastifyRequest) => {
    const loaded = await loadPageProject(deps, request);
    if (!canDownloadCode(loaded.access, loaded)) throw notFound();
    return loaded;
  };

  const compareIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const loaded = await loadCode(request);
    const params = requestParams(request);
    const from = (optionalString(params, 'from') ?? '').trim();
    const to = (optionalString(params, 'to') ?? '').trim();
    if (from !== '' && to !== '') {
      return reply.redirect(compareUrl(`/${loaded.namespace.path}/${loaded.project.path}`, from, to), 302);
    }
    return sendPage(
      reply,
      <CompareIndexPage
        ctx={pageContext(deps, request, reply)}
        project={await loadProjectHead(deps, loaded)}
        from={from || (loaded.project.default_branch ?? 'master')}
        to={to}
      />,
    );
  };
  web.get('/:namespace/:project/compare', compareIndex);
  web.post('/:namespace/:project/compare', compareIndex);

  web.get('/:namespace/:project/compare/*', async (request, reply) => {
    const loaded = await loadCode(request);
    const rest = (request.params as { '*'?: string })['*'] ?? '';
    // Ref names cannot hold `..`, so the first `...` separates the two sides.
    const split = rest.indexOf('...');
    if (split <= 0 || split + 3 >= rest.length) throw notFound();
    const from = rest.slice(0, split);
    const to = rest.slice(split + 3);
    const [project, comparison, branches] = await Promise.all([
      loadProjectHead(deps, loaded),
      compareForPage(deps, loaded, from, to),
      branchNames(deps, loaded),
    ]);
    const base = `/${loaded.namespace.path}/${loaded.project.path}`;
    const offersMergeRequest =
      project.canOpenMergeRequest === true && branches.includes(from) && branches.includes(to) && from !== to;
    const query = new URLSearchParams({
      'merge_request[source_branch]': to,
      'merge_request[target_branch]': from,
    });
    return sendPage(
      reply,
      <ComparePage
        ctx={pageContext(deps, request, reply)}
        project={project}
        from={from}
        to={to}
        comparison={comparison}
        mergeRequestUrl={offersMergeRequest ? `${base}/merge_requests/new?${query}` : undefined}
      />,
      comparison ? 200 : 404,
    );
  });

  web.get('/:namespace/:project/activity', async (request, reply) => {
    const loaded = await loadPageProject(deps, request);
    const page = pageNumber(request);
    const [project, activity] = await Promise.all([
      loadProjectHead(deps, loaded),
      projectActivityPage(deps, request.viewer, loaded.project.id, {
        offset: (page - 1) * EVENTS_PER_PAGE,
        limit: EVENTS_PER_PAGE,
      }),
    ]);
    return sendPage(
      reply,
      <ActivityPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        events={activity.events.map((event) => ({ ...event, project_path: project.path_with_namespace }))}
        page={page}
        hasNext={activity.hasNext}
      />,
    );
  });
}
