// The snippet pages at GitLab 8.13's paths. A project's: /<ns>/<p>/snippets (newest first), /new, /:id
// (highlighted like a file, with its notes), /:id/raw, /:id/edit, and the posts that create, update and
// delete; the snippets feature off or a hidden project is a 404 (a visitor is asked to sign in first).
// Personal ones: /snippets (8.13 sent the signed-in to /dashboard/snippets, visitors to
// /explore/snippets), /dashboard/snippets (the viewer's own, project ones too), /explore/snippets (public ones; internal too for the signed-in),
// /snippets/new, /snippets/:id, /raw, /edit and the same posts. Reads and writes are the API's: the same
// loaders and policies (a snippet the viewer may not read is a 404) and the snippet service.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  hiddenAsks,
  loadPageProject,
  loadPersonalSnippet,
  loadProjectSnippet,
  type LoadedProject,
} from '../../http/loaders.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { notFound } from '../../errors.ts';
import { projectFullPath } from '../../domain/paths.ts';
import {
  canCreateProjectSnippet,
  canReadProjectSnippets,
  canReadSnippet,
  canUpdateSnippet,
  projectSnippetListMinimum,
} from '../../policies/snippets.ts';
import {
  createSnippet,
  destroySnippet,
  editSnippet,
  snippetNoteable,
  type SnippetAttributes,
  snippetAwardable,
} from '../../services/snippets/snippets.ts';
import { mayAward } from '../../services/issues/award-emoji.ts';
import { viewerAwards } from '../../views/note-views.ts';
import { toggleAward } from './award-pages.ts';
import {
  findSnippetById,
  allSnippetsPage,
  snippetListPage,
  snippetVotes,
  snippetViews,
  type SnippetListFilter,
  type SnippetView,
} from '../../views/snippet-views.ts';
import { noteThread, pageReferences } from '../../views/issue-pages.ts';
import { highlightedRows } from '../../presenters/html/highlight.ts';
import {
  PersonalSnippetsPage,
  ProjectSnippetsPage,
  SnippetFormPage,
  SnippetPage,
  type SnippetFormValues,
  type SnippetItem,
} from '../../presenters/html/snippets.tsx';
import type { Flash } from '../../presenters/html/layout.tsx';
import { Visibility } from '../../domain/types.ts';
import type { SnippetRow } from '../../db/types.ts';
import { loadProjectHead } from './project-head.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';
import { pageNumber } from './paging.ts';
import { signedIn } from './page-params.ts';
import { errorTexts, isFormRefusal } from './form-errors.ts';
import type { CommentTargets } from './note-pages.ts';

const PER_PAGE = 20;

/** 8.13's default_snippet_visibility: a new snippet's form starts private. */
const NEW_FORM: SnippetFormValues = {
  title: '',
  file_name: '',
  content: '',
  description: '',
  visibility_level: Visibility.Private,
};

const projectSnippetsUrl = (loaded: LoadedProject) =>
  `/${loaded.namespace.path}/${loaded.project.path}/snippets`;

/** A snippet's page from the personal lists: a project snippet's lives under its project. */
const personalListUrl = (view: SnippetView) =>
  view.record === null
    ? `/snippets/${view.snippet.id}`
    : `/${projectFullPath(view.record)}/snippets/${view.snippet.id}`;

function snippetItem(view: SnippetView, url: string): SnippetItem {
  const { snippet, author } = view;
  return {
    id: snippet.id,
    title: snippet.title,
    file_name: snippet.file_name,
    description: snippet.description,
    visibility_level: snippet.visibility_level,
    created_at: snippet.created_at,
    updated_at: snippet.updated_at,
    author: author ? { id: author.id, username: author.username, name: author.name } : null,
    url,
  };
}

/** The form's `<scope>[…]` fields as the service's attributes (a level that is not a number: refused). */
function formInput(
  params: Params,
  scope: string,
): { values: SnippetFormValues; attributes: SnippetAttributes } {
  const text = (name: string) => optionalString(params, `${scope}[${name}]`) ?? '';
  const level = text('visibility_level');
  const values = {
    title: text('title').trim(),
    file_name: text('file_name').trim(),
    // A form sends a textarea's line breaks as CRLF (HTML's form encoding); the snippet keeps what was typed.
    content: text('content').replace(/\r\n/g, '\n'),
    description: text('description'),
    visibility_level: /^\d{1,2}$/.test(level) ? Number(level) : -1,
  };
  return {
    values,
    attributes: { ...values, description: values.description === '' ? null : values.description },
  };
}

function formValuesOf(snippet: SnippetRow): SnippetFormValues {
  return {
    title: snippet.title,
    file_name: snippet.file_name,
    content: snippet.content,
    description: snippet.description ?? '',
    visibility_level: snippet.visibility_level,
  };
}

/** The rows of the code table; cached by content, so an edit is never shown stale. */
function snippetRows(snippet: SnippetRow) {
  const digest = crypto.createHash('sha1').update(snippet.content).digest('hex');
  return highlightedRows(`snippet:${digest}`, snippet.file_name, snippet.content);
}

const sendRaw = (reply: FastifyReply, snippet: SnippetRow) =>
  reply.type('text/plain; charset=utf-8').send(snippet.content);

/** Registers the snippet pages; answers how the notes route reaches a project snippet. */
export function registerSnippetPages(web: FastifyInstance, deps: Deps): CommentTargets {
  registerPersonalSnippetPages(web, deps);

  const loadSnippetsProject = (request: FastifyRequest): Promise<LoadedProject> =>
    loadPageProject(deps, request, (loaded) => canReadProjectSnippets(loaded.access, loaded));
  const loadPageSnippet = async (request: FastifyRequest) => {
    const loaded = await loadSnippetsProject(request);
    const snippet = await hiddenAsks(request, () => loadProjectSnippet(deps, request, loaded, 'id'));
    return { loaded, snippet };
  };
  const itemOf = async (loaded: LoadedProject, snippet: SnippetRow) => {
    const [view] = await snippetViews(deps, [snippet], loaded);
    return snippetItem(view!, `${projectSnippetsUrl(loaded)}/${snippet.id}`);
  };

  const showSnippet = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    snippet: SnippetRow,
    options: { flash?: Flash; comment?: string; status?: number } = {},
  ) => {
    const viewer = request.viewer;
    const [project, item, { notes: threadNotes, ...noteCounts }, votes, given] = await Promise.all([
      loadProjectHead(deps, loaded),
      itemOf(loaded, snippet),
      noteThread(deps, 'Snippet', snippet.id),
      snippetVotes(deps, snippet.id),
      viewerAwards(deps, 'Snippet', snippet.id, viewer?.id),
    ]);
    const { references, notes } = await pageReferences(
      deps,
      viewer,
      loaded,
      loaded.access,
      snippet.description,
      threadNotes,
    );
    return sendPage(
      reply,
      <SnippetPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        snippet={item}
        rows={snippetRows(snippet)}
        size={Buffer.byteLength(snippet.content)}
        canUpdate={viewer !== null && canUpdateSnippet(viewer, snippet, loaded.access)}
        discussion={{ ...noteCounts, notes, references, comment: options.comment }}
        awards={{
          ...votes,
          given: given.map((award) => award.name),
          canVote: viewer !== null && mayAward(viewer, snippetAwardable(snippet), 'thumbsup'),
        }}
        flash={options.flash}
      />,
      options.status,
    );
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    snippet: SnippetRow | null,
    values: SnippetFormValues,
    errors: string[] = [],
  ) => {
    const [project, item] = await Promise.all([
      loadProjectHead(deps, loaded),
      snippet ? itemOf(loaded, snippet) : null,
    ]);
    return sendPage(
      reply,
      <SnippetFormPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        snippet={item}
        values={values}
        errors={errors}
      />,
      errors.length > 0 ? 422 : 200,
    );
  };

  web.get('/:namespace/:project/snippets', async (request, reply) => {
    const page = pageNumber(request);
    const loaded = await loadSnippetsProject(request);
    const filter: SnippetListFilter = {
      projectId: loaded.project.id,
      minimumVisibility: projectSnippetListMinimum(request.viewer, loaded.access),
    };
    const [project, views] = await Promise.all([
      loadProjectHead(deps, loaded),
      snippetListPage(deps, filter, loaded, { limit: PER_PAGE + 1, offset: (page - 1) * PER_PAGE }),
    ]);
    const base = projectSnippetsUrl(loaded);
    return sendPage(
      reply,
      <ProjectSnippetsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        snippets={views.slice(0, PER_PAGE).map((view) => snippetItem(view, `${base}/${view.snippet.id}`))}
        page={page}
        hasNext={views.length > PER_PAGE}
        canCreate={request.viewer !== null && canCreateProjectSnippet(loaded.access, loaded)}
      />,
    );
  });

  web.get('/:namespace/:project/snippets/new', async (request, reply) => {
    const loaded = await loadSnippetsProject(request);
    signedIn(request);
    if (!canCreateProjectSnippet(loaded.access, loaded)) throw notFound();
    return showForm(request, reply, loaded, null, NEW_FORM);
  });

  web.post('/:namespace/:project/snippets', async (request, reply) => {
    const loaded = await loadSnippetsProject(request);
    const viewer = signedIn(request);
    if (!canCreateProjectSnippet(loaded.access, loaded)) throw notFound();
    const { values, attributes } = formInput(requestParams(request), 'project_snippet');
    try {
      const snippet = await createSnippet(deps, viewer, loaded, attributes);
      return reply.redirect(`${projectSnippetsUrl(loaded)}/${snippet.id}`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, null, values, errorTexts(error));
    }
  });

  web.get('/:namespace/:project/snippets/:id', async (request, reply) => {
    const { loaded, snippet } = await loadPageSnippet(request);
    return showSnippet(request, reply, loaded, snippet);
  });

  // 8.13's toggle_award_emoji: a second press takes the viewer's award back.
  web.post('/:namespace/:project/snippets/:id/toggle_award_emoji', async (request, reply) => {
    const { loaded, snippet } = await loadPageSnippet(request);
    const name = optionalString(requestParams(request), 'name') ?? '';
    await toggleAward(deps, signedIn(request), snippetAwardable(snippet), name);
    return reply.redirect(`${projectSnippetsUrl(loaded)}/${snippet.id}`, 302);
  });

  web.get('/:namespace/:project/snippets/:id/raw', async (request, reply) => {
    const { snippet } = await loadPageSnippet(request);
    return sendRaw(reply, snippet);
  });

  web.get('/:namespace/:project/snippets/:id/edit', async (request, reply) => {
    const { loaded, snippet } = await loadPageSnippet(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, loaded.access)) throw notFound();
    return showForm(request, reply, loaded, snippet, formValuesOf(snippet));
  });

  web.post('/:namespace/:project/snippets/:id', async (request, reply) => {
    const { loaded, snippet } = await loadPageSnippet(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, loaded.access)) throw notFound();
    const { values, attributes } = formInput(requestParams(request), 'project_snippet');
    try {
      await editSnippet(deps, viewer, loaded.access, snippet, attributes);
      return reply.redirect(`${projectSnippetsUrl(loaded)}/${snippet.id}`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, loaded, snippet, values, errorTexts(error));
    }
  });

  // 8.13's admin_project_snippet: the author, an administrator, or the project's masters.
  web.post('/:namespace/:project/snippets/:id/delete', async (request, reply) => {
    const { loaded, snippet } = await loadPageSnippet(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, loaded.access, true)) throw notFound();
    await destroySnippet(deps, viewer, loaded.access, snippet, true);
    return reply.redirect(projectSnippetsUrl(loaded), 302);
  });

  return {
    project: loadSnippetsProject,
    async find(request, reply, loaded, viewer, id) {
      const snippet = await findSnippetById(deps, id);
      if (
        !snippet ||
        snippet.project_id !== loaded.project.id ||
        !canReadSnippet(viewer, snippet, loaded.access)
      ) {
        throw notFound();
      }
      return {
        url: `${projectSnippetsUrl(loaded)}/${snippet.id}`,
        noteable: async () => snippetNoteable(deps, loaded, snippet),
        showAgain: (flash, status, comment) =>
          showSnippet(request, reply, loaded, snippet, { flash, status, comment }),
      };
    },
  };
}

function registerPersonalSnippetPages(web: FastifyInstance, deps: Deps): void {
  const loadPage = (request: FastifyRequest) => hiddenAsks(request, () => loadPersonalSnippet(deps, request));
  const itemOf = async (snippet: SnippetRow) => {
    const [view] = await snippetViews(deps, [snippet], null);
    return snippetItem(view!, `/snippets/${snippet.id}`);
  };

  const showList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    tab: 'yours' | 'explore',
    filter: SnippetListFilter,
  ) => {
    const page = pageNumber(request);
    const window = { limit: PER_PAGE + 1, offset: (page - 1) * PER_PAGE };
    // Yours are all you wrote, personal and in projects (8.13's `by_user`), on snippets_author.
    const views =
      tab === 'yours'
        ? await allSnippetsPage(deps, window, { authorId: filter.authorId })
        : await snippetListPage(deps, filter, null, window);
    return sendPage(
      reply,
      <PersonalSnippetsPage
        ctx={pageContext(deps, request, reply)}
        tab={tab}
        snippets={views.slice(0, PER_PAGE).map((view) => snippetItem(view, personalListUrl(view)))}
        page={page}
        hasNext={views.length > PER_PAGE}
      />,
    );
  };

  const showForm = async (
    request: FastifyRequest,
    reply: FastifyReply,
    snippet: SnippetRow | null,
    values: SnippetFormValues,
    errors: string[] = [],
  ) =>
    sendPage(
      reply,
      <SnippetFormPage
        ctx={pageContext(deps, request, reply)}
        project={null}
        snippet={snippet ? await itemOf(snippet) : null}
        values={values}
        errors={errors}
      />,
      errors.length > 0 ? 422 : 200,
    );

  web.get('/snippets', async (request, reply) =>
    reply.redirect(request.viewer ? '/dashboard/snippets' : '/explore/snippets', 302),
  );

  web.get('/dashboard/snippets', async (request, reply) => {
    const viewer = signedIn(request);
    return showList(request, reply, 'yours', { authorId: viewer.id });
  });

  // 8.13: the signed-in see public and internal personal snippets, visitors the public ones.
  web.get('/explore/snippets', async (request, reply) =>
    showList(request, reply, 'explore', {
      personal: true,
      visibilities: request.viewer ? [Visibility.Public, Visibility.Internal] : [Visibility.Public],
    }),
  );

  web.get('/snippets/new', async (request, reply) => {
    signedIn(request);
    return showForm(request, reply, null, NEW_FORM);
  });

  web.post('/snippets', async (request, reply) => {
    const viewer = signedIn(request);
    const { values, attributes } = formInput(requestParams(request), 'personal_snippet');
    try {
      const snippet = await createSnippet(deps, viewer, null, attributes);
      return reply.redirect(`/snippets/${snippet.id}`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, null, values, errorTexts(error));
    }
  });

  web.get('/snippets/:id', async (request, reply) => {
    const snippet = await loadPage(request);
    const viewer = request.viewer;
    return sendPage(
      reply,
      <SnippetPage
        ctx={pageContext(deps, request, reply)}
        project={null}
        snippet={await itemOf(snippet)}
        rows={snippetRows(snippet)}
        size={Buffer.byteLength(snippet.content)}
        canUpdate={viewer !== null && canUpdateSnippet(viewer, snippet, null)}
      />,
    );
  });

  web.get('/snippets/:id/raw', async (request, reply) => sendRaw(reply, await loadPage(request)));

  web.get('/snippets/:id/edit', async (request, reply) => {
    const snippet = await loadPage(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, null)) throw notFound();
    return showForm(request, reply, snippet, formValuesOf(snippet));
  });

  web.post('/snippets/:id', async (request, reply) => {
    const snippet = await loadPage(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, null)) throw notFound();
    const { values, attributes } = formInput(requestParams(request), 'personal_snippet');
    try {
      await editSnippet(deps, viewer, null, snippet, attributes);
      return reply.redirect(`/snippets/${snippet.id}`, 302);
    } catch (error) {
      if (!isFormRefusal(error)) throw error;
      return showForm(request, reply, snippet, values, errorTexts(error));
    }
  });

  web.post('/snippets/:id/delete', async (request, reply) => {
    const snippet = await loadPage(request);
    const viewer = signedIn(request);
    if (!canUpdateSnippet(viewer, snippet, null)) throw notFound();
    await destroySnippet(deps, viewer, null, snippet);
    return reply.redirect('/dashboard/snippets', 302);
  });
}
