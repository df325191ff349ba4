// A project's wiki pages at GitLab 8.13's paths: /<ns>/<p>/wikis (to the home page), /wikis/pages (all
// pages, paged, each with its last edit), /wikis/git_access (clone instructions), /wikis/<slug> (the page
// rendered, `?version_id=` an older version; a missing page is the new-page form for who may write, 8.13's
// "Empty page" for others), /wikis/<slug>/edit, /wikis/<slug>/history and /wikis/new. Writes are the
// Rails forms 8.13 posted: POST /wikis creates, POST /wikis/<slug> updates (`_method=put`, or none) or
// deletes (`_method=delete`), all through the wiki service the API uses, so hooks fire the same way.
// Who reads the project reads its wiki (when the wiki is on); developers write, edit and see history
// (8.13's create_wiki); masters delete (admin_wiki). Anything else is a 404, a visitor asked to sign in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { canAdminWiki, canCreateWiki, canReadWiki } from '../../policies/wikis.ts';
import { createWikiPage, deleteWikiPage, updateWikiPage } from '../../services/wikis/wiki-pages.ts';
import { listWikiPages, loadWikiPage, wikiPageHistory } from '../../views/wiki-views.ts';
import { renderWikiContent } from '../../presenters/html/markdown.ts';
import {
  WikiEmptyPage,
  WikiFormPage,
  WikiGitAccessPage,
  WikiHistoryPage,
  WikiPagesPage,
  WikiShowPage,
  type WikiFormValues,
} from '../../presenters/html/wikis.tsx';
import { projectFullPath, wikiPagePath } from '../../domain/paths.ts';
import type { WikiFormat } from '../../git/wiki-pages.ts';
import { loadProjectHead } from './project-head.ts';
import { pageContext } from './web-session.ts';
import { positiveInteger, signedIn } from './page-params.ts';
import { doneNotice, errorTexts, isFormRefusal } from './form-errors.ts';
import { sendPage } from './render.ts';

const PER_PAGE = 20;
const FORMATS: readonly WikiFormat[] = ['markdown', 'rdoc', 'asciidoc', 'org'];
const NOTICES = {
  updated: 'Wiki was successfully updated.',
  deleted: 'Page was successfully deleted',
};

/** `?page=`: 1 for anything that is not a page number (capped, as every paged page here is). */
function pageNumber(request: FastifyRequest): number {
  return Math.min(positiveInteger(optionalString(requestParams(request), 'page')) ?? 1, 100_000);
}

function formValues(params: Params, fallback: WikiFormValues): WikiFormValues {
  const format = optionalString(params, 'wiki[format]');
  return {
    title: optionalString(params, 'wiki[title]') ?? fallback.title,
    format:
      format !== undefined && (FORMATS as readonly string[]).includes(format) ? format : fallback.format,
    content: optionalString(params, 'wiki[content]') ?? fallback.content,
    message: optionalString(params, 'wiki[message]') ?? fallback.message,
    lastCommitId: optionalString(params, 'wiki[last_commit_sha]') ?? fallback.lastCommitId,
  };
}

const BLANK: WikiFormValues = { title: '', format: 'markdown', content: '', message: '', lastCommitId: '' };

export function registerWikiPages(web: FastifyInstance, deps: Deps): void {
  const readable = (request: FastifyRequest) =>
    loadPageProject(deps, request, (loaded) => canReadWiki(loaded.access, loaded));
  const writable = (request: FastifyRequest) =>
    loadPageProject(
      deps,
      request,
      (loaded) => request.viewer !== null && canCreateWiki(loaded.access, loaded),
    );
  const wikiBase = (loaded: LoadedProject) => `/${projectFullPath(loaded)}/wikis`;
  const pageUrl = (loaded: LoadedProject, slug: string, done?: keyof typeof NOTICES) =>
    `${wikiPagePath(projectFullPath(loaded), slug)}${done ? `?done=${done}` : ''}`;

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    slug: string | undefined,
    values: WikiFormValues,
    errors: string[] = [],
  ) =>
    sendPage(
      reply,
      <WikiFormPage
        ctx={pageContext(deps, request, reply)}
        project={await loadProjectHead(deps, loaded)}
        slug={slug}
        values={values}
        errors={errors}
      />,
    );

  /** The page, or (missing) the new-page form with its slug as title, or 8.13's empty page. */
  const show = async (request: FastifyRequest, reply: FastifyReply, slug: string) => {
    const loaded = await readable(request);
    const version = optionalString(requestParams(request), 'version_id');
    const [project, page] = await Promise.all([
      loadProjectHead(deps, loaded),
      loadWikiPage(deps, loaded, slug, version),
    ]);
    const ctx = pageContext(deps, request, reply);
    if (!page) {
      // An unknown version of a page is not a page to write.
      if (version !== undefined && version !== '') throw notFound();
      if (request.viewer && canCreateWiki(loaded.access, loaded)) {
        const title = slug === 'new' ? '' : slug;
        return sendPage(
          reply,
          <WikiFormPage ctx={ctx} project={project} values={{ ...BLANK, title }} errors={[]} />,
        );
      }
      // 8.13 rendered its empty page as a page (200): the Wiki tab of a wiki without pages leads here.
      return sendPage(reply, <WikiEmptyPage ctx={ctx} project={project} />);
    }
    const html = renderWikiContent(page.format, page.content, {
      wikiPath: wikiBase(loaded),
      slug: page.slug,
    });
    return sendPage(
      reply,
      <WikiShowPage
        ctx={ctx}
        project={project}
        page={{
          slug: page.slug,
          title: page.title,
          format: page.format,
          html,
          commit: page.commit,
          historical: page.historical,
        }}
        may={{
          canCreate: request.viewer !== null && canCreateWiki(loaded.access, loaded),
          canAdmin: request.viewer !== null && canAdminWiki(loaded.access, loaded),
        }}
        flash={doneNotice(request, NOTICES)}
      />,
    );
  };

  const edit = async (request: FastifyRequest, reply: FastifyReply, slug: string) => {
    const loaded = await writable(request);
    const page = await loadWikiPage(deps, loaded, slug);
    if (!page) throw notFound();
    return showForm(request, reply, loaded, page.slug, {
      title: page.title,
      format: page.format,
      content: page.content,
      message: '',
      lastCommitId: page.lastCommitId,
    });
  };

  const history = async (request: FastifyRequest, reply: FastifyReply, slug: string) => {
    const loaded = await writable(request);
    const number = pageNumber(request);
    const [project, found] = await Promise.all([
      loadProjectHead(deps, loaded),
      wikiPageHistory(deps, loaded, slug, { offset: (number - 1) * PER_PAGE, limit: PER_PAGE + 1 }),
    ]);
    if (!found) throw notFound();
    return sendPage(
      reply,
      <WikiHistoryPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        page={found.page}
        versions={found.commits.slice(0, PER_PAGE).map((commit) => ({
          id: commit.id,
          authorName: commit.authorName,
          message: commit.message.trim(),
          authoredDate: commit.authoredDate,
        }))}
        pageNumber={number}
        hasNext={found.commits.length > PER_PAGE}
      />,
    );
  };

  web.get('/:namespace/:project/wikis', async (request, reply) => {
    const loaded = await readable(request);
    return reply.redirect(pageUrl(loaded, 'home'), 302);
  });

  web.get('/:namespace/:project/wikis/pages', async (request, reply) => {
    const loaded = await readable(request);
    const number = pageNumber(request);
    const [project, list] = await Promise.all([
      loadProjectHead(deps, loaded),
      listWikiPages(
        deps,
        loaded,
        { page: number, perPage: PER_PAGE, offset: (number - 1) * PER_PAGE, limit: PER_PAGE },
        { lastCommit: true },
      ),
    ]);
    return sendPage(
      reply,
      <WikiPagesPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        pages={list.pages.map((page) => ({
          slug: page.slug,
          title: page.title,
          format: page.format,
          lastEdited: page.lastCommit?.authoredDate ?? null,
        }))}
        total={list.total}
        pageNumber={number}
        hasNext={list.total > number * PER_PAGE}
      />,
    );
  });

  web.get('/:namespace/:project/wikis/git_access', async (request, reply) => {
    const loaded = await readable(request);
    const project = await loadProjectHead(deps, loaded);
    return sendPage(
      reply,
      <WikiGitAccessPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        httpUrl={project.http_url_to_repo.replace(/\.git$/, '.wiki.git')}
        sshUrl={project.ssh_url_to_repo.replace(/\.git$/, '.wiki.git')}
      />,
    );
  });

  web.get('/:namespace/:project/wikis/*', async (request, reply) => {
    const rest = (request.params as { '*'?: string })['*'] ?? '';
    const match = /^(.+)\/(edit|history)$/.exec(rest);
    if (match)
      return match[2] === 'edit' ? edit(request, reply, match[1]!) : history(request, reply, match[1]!);
    if (rest === '') throw notFound();
    return show(request, reply, rest);
  });

  web.post('/:namespace/:project/wikis', async (request, reply) => {
    const loaded = await writable(request);
    const viewer = signedIn(request);
    const params = requestParams(request);
    const values = formValues(params, BLANK);
    try {
      const page = await createWikiPage(deps, loaded, viewer, {
        title: values.title,
        content: values.content,
        format: values.format as WikiFormat,
        message: values.message,
      });
      return reply.redirect(pageUrl(loaded, page.slug, 'updated'), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, undefined, values, errorTexts(error));
    }
  });

  // 8.13's PUT and DELETE /wikis/<slug>, as its Rails forms sent them: a POST with `_method`.
  web.post('/:namespace/:project/wikis/*', async (request, reply) => {
    const slug = (request.params as { '*'?: string })['*'] ?? '';
    if (slug === '') throw notFound();
    const params = requestParams(request);
    const method = (optionalString(params, '_method') ?? 'put').toLowerCase();
    if (method === 'delete') {
      const loaded = await loadPageProject(
        deps,
        request,
        (project) => request.viewer !== null && canAdminWiki(project.access, project),
      );
      await deleteWikiPage(deps, loaded, signedIn(request), slug);
      return reply.redirect(pageUrl(loaded, 'home', 'deleted'), 302);
    }
    if (method !== 'put' && method !== 'patch') throw notFound();
    const loaded = await writable(request);
    const viewer = signedIn(request);
    const current = await loadWikiPage(deps, loaded, slug);
    if (!current) throw notFound();
    const values = formValues(params, {
      title: current.title,
      format: current.format,
      content: current.content,
      message: '',
      lastCommitId: '',
    });
    // The title field shows the page's title: only a changed one renames (a slug's directory stays).
    const renamed = values.title.trim() !== current.title;
    try {
      const page = await updateWikiPage(deps, loaded, viewer, current.slug, {
        title: renamed ? renamedTitle(current.slug, values.title) : undefined,
        content: values.content,
        format: values.format as WikiFormat,
        message: values.message,
        lastCommitId: values.lastCommitId,
      });
      return reply.redirect(pageUrl(loaded, page.slug, 'updated'), 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, current.slug, values, errorTexts(error));
    }
  });
}

/**
 * A new title for a page under a directory keeps the directory (8.13's form held the title only), unless
 * the title names a path of its own.
 */
function renamedTitle(slug: string, title: string): string {
  const slash = slug.lastIndexOf('/');
  if (slash === -1 || title.includes('/')) return title;
  return `${slug.slice(0, slash)}/${title}`;
}
