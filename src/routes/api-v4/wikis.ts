// v4's project wikis (GitLab's lib/api/wikis.rb): the page list (`with_content`), one page by slug
// (`render_html`, `version`), create (201; `title`, `content`, `format`), edit (`title`, `content`,
// `format`, at least one; a new title renames the page) and delete (204). Reading needs read_wiki,
// writing create_wiki (developers and up), deleting admin_wiki (masters and up); a project whose wiki is
// off answers 403 to all of them. Unlike GitLab's, the list is paginated as every v4 list here is.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { parsePage, setPaginationHeaders } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { forbidden, grapeError, notFound, paramValueInvalid } from '../../errors.ts';
import { canAdminWiki, canCreateWiki, canReadWiki } from '../../policies/wikis.ts';
import { createWikiPage, deleteWikiPage, updateWikiPage } from '../../services/wikis/wiki-pages.ts';
import { listWikiPages, loadWikiPage, type WikiPageView } from '../../views/wiki-views.ts';
import { presentWikiPageBasicV4, presentWikiPageV4 } from '../../presenters/api-v4/wiki-page.ts';
import { projectFullPath } from '../../domain/paths.ts';
import type { WikiFormat } from '../../git/wiki-pages.ts';
import { noContent, requireParams } from './conventions.ts';

const FORMATS: readonly WikiFormat[] = ['markdown', 'rdoc', 'asciidoc', 'org'];

type SlugRequest = FastifyRequest<{ Params: { id: string; slug: string } }>;

async function loadWiki(
  deps: Deps,
  request: FastifyRequest,
  may: (loaded: LoadedProject) => boolean,
): Promise<LoadedProject> {
  const loaded = await loadProject(deps, request);
  if (!may(loaded)) throw forbidden();
  return loaded;
}

function formatParam(params: Params): WikiFormat | undefined {
  return optionalOneOf(params, 'format', FORMATS, () => paramValueInvalid('format'));
}

/** A text parameter as sent (Grape's `type: String`: a list or hash is refused). */
function text(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw paramValueInvalid(name);
  return String(value);
}

export function register(app: FastifyInstance, deps: Deps): void {
  const wikiPath = (loaded: LoadedProject) => `/${projectFullPath(loaded)}/wikis`;
  const present = (loaded: LoadedProject, page: WikiPageView, renderHtml = false) =>
    presentWikiPageV4(page, { renderHtml, wikiPath: wikiPath(loaded) });

  app.get('/projects/:id/wikis', async (request, reply) => {
    const loaded = await loadWiki(deps, request, (p) => canReadWiki(p.access, p));
    const withContent = optionalBoolean(requestParams(request), 'with_content') === true;
    const page = parsePage(request);
    const list = await listWikiPages(deps, loaded, page, { content: withContent });
    setPaginationHeaders(request, reply, deps.config.externalUrl, page, list.total);
    return list.pages.map((view) => (withContent ? present(loaded, view) : presentWikiPageBasicV4(view)));
  });

  app.get('/projects/:id/wikis/:slug', async (request: SlugRequest) => {
    const loaded = await loadWiki(deps, request, (p) => canReadWiki(p.access, p));
    const params = requestParams(request);
    const version = optionalString(params, 'version');
    const page = await loadWikiPage(deps, loaded, request.params.slug, version);
    if (!page) throw notFound('Wiki Page');
    return present(loaded, page, optionalBoolean(params, 'render_html') === true);
  });

  app.post('/projects/:id/wikis', async (request, reply) => {
    const actor = requireViewer(request);
    const loaded = await loadWiki(deps, request, (p) => canCreateWiki(p.access, p));
    const params = requestParams(request);
    requireParams(params, 'title', 'content');
    const written = await createWikiPage(deps, loaded, actor, {
      title: text(params, 'title'),
      content: text(params, 'content'),
      format: formatParam(params),
    });
    return reply.status(201).send(present(loaded, written));
  });

  app.put('/projects/:id/wikis/:slug', async (request: SlugRequest) => {
    const actor = requireViewer(request);
    const loaded = await loadWiki(deps, request, (p) => canCreateWiki(p.access, p));
    const params = requestParams(request);
    const input = {
      title: text(params, 'title'),
      content: text(params, 'content'),
      format: formatParam(params),
    };
    if (input.title === undefined && input.content === undefined && input.format === undefined) {
      throw grapeError(400, 'content, title, format are missing, at least one parameter must be provided');
    }
    const written = await updateWikiPage(deps, loaded, actor, request.params.slug, input);
    return present(loaded, written);
  });

  app.delete('/projects/:id/wikis/:slug', async (request: SlugRequest, reply) => {
    const actor = requireViewer(request);
    const loaded = await loadWiki(deps, request, (p) => canAdminWiki(p.access, p));
    await deleteWikiPage(deps, loaded, actor, request.params.slug);
    return noContent(reply);
  });
}
