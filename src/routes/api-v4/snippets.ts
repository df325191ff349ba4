// v4's snippets (lib/api/project_snippets.rb, lib/api/snippets.rb): a project's under
// /projects/:id/snippets (the snippets feature off is a 403; list needs a signed-in caller; create for
// reporters and up with title, visibility, file_name and content — `code` accepted for it; edit and
// delete for the author, masters and administrators; raw) and personal ones under /snippets (the
// caller's own, the public list, one, create, edit and delete by the author, raw; /snippets/all for administrators). Entity: v4's Snippet.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireAdmin, requireViewer } from '../../http/auth.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { optionalOneOf, optionalString, requestParams, type Params } from '../../http/params.ts';
import {
  loadPersonalSnippet,
  loadProject,
  loadProjectSnippet,
  type LoadedProject,
} from '../../http/loaders.ts';
import { apiError, forbidden, grapeError, paramValueInvalid } from '../../errors.ts';
import {
  canCreateProjectSnippet,
  canReadProjectSnippets,
  projectSnippetListMinimum,
} from '../../policies/snippets.ts';
import {
  createSnippet,
  destroySnippet,
  editSnippet,
  type SnippetAttributes,
} from '../../services/snippets/snippets.ts';
import {
  allSnippetsPage,
  countSnippetList,
  snippetListPage,
  snippetViews,
  type SnippetListFilter,
} from '../../views/snippet-views.ts';
import { presentSnippetV4 } from '../../presenters/api-v4/snippet.ts';
import { Visibility, visibilityLevel } from '../../domain/types.ts';
import type { SnippetRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

/** Routes that anonymous callers may use (public snippets of public projects, public personal ones). */
const PUBLIC = { config: { public: true } };
const VISIBILITIES = ['private', 'internal', 'public'] as const;
const EDITABLE = ['title', 'file_name', 'content', 'visibility', 'description'];

/** `content` (or `code`, v3's name), title, file_name, description and visibility by name. */
function snippetAttributes(params: Params): SnippetAttributes {
  const visibility = optionalOneOf(params, 'visibility', VISIBILITIES, () => paramValueInvalid('visibility'));
  return {
    title: optionalString(params, 'title'),
    file_name: optionalString(params, 'file_name'),
    content: optionalString(params, 'content') ?? optionalString(params, 'code'),
    description: optionalString(params, 'description'),
    visibility_level: visibility === undefined ? undefined : visibilityLevel(visibility),
  };
}

/** An edit names at least one attribute (Grape's at_least_one_of). */
function requireOneAttribute(params: Params): void {
  if (!EDITABLE.some((name) => params[name] !== undefined) && params.code === undefined) {
    throw apiError(400, `${EDITABLE.join(', ')} are missing, at least one parameter must be provided`);
  }
}

/**
 * Today's create takes `files` ([{file_path, content}]) instead of `content` and `file_name` (never
 * both). A Labrador snippet holds one file, so `files` names exactly one; more is a 400 that says so.
 */
function withFiles(params: Params): Params {
  const files = params.files;
  if (files === undefined) return params;
  if (params.content !== undefined || params.code !== undefined) {
    throw grapeError(400, 'files, content are mutually exclusive');
  }
  if (!Array.isArray(files) || files.length === 0) throw grapeError(400, 'files is invalid');
  if (files.length > 1) {
    throw grapeError(400, `files holds ${files.length} files: a snippet here holds one file`);
  }
  const file: unknown = files[0];
  if (file === null || typeof file !== 'object' || Array.isArray(file)) {
    throw grapeError(400, 'files is invalid');
  }
  const { file_path: path, content } = file as Params;
  // Grape's words: absent is `is missing`, blank (allow_blank: false) `is empty`.
  const problems = (['file_path', 'content'] as const).flatMap((name) => {
    const value = (file as Params)[name];
    if (value === undefined || value === null) return [`files[0][${name}] is missing`];
    if (typeof value !== 'string') return [`files[0][${name}] is invalid`];
    return value.trim() === '' ? [`files[0][${name}] is empty`] : [];
  });
  if (problems.length > 0) throw grapeError(400, problems.join(', '));
  return { ...params, files: undefined, file_name: path, content };
}

function withCode(params: Params): Params {
  return params.content === undefined && params.code !== undefined
    ? { ...params, content: params.code }
    : params;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = async (snippet: SnippetRow, project: LoadedProject | null) => {
    const [view] = await snippetViews(deps, [snippet], project);
    return presentSnippetV4(view!, baseUrl);
  };
  const list = (
    request: FastifyRequest,
    reply: FastifyReply,
    filter: SnippetListFilter,
    project: LoadedProject | null,
  ) =>
    paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countSnippetList(deps, filter, cap),
      async (page) =>
        (await snippetListPage(deps, filter, project, page)).map((view) => presentSnippetV4(view, baseUrl)),
    );
  const raw = (reply: FastifyReply, snippet: SnippetRow) => reply.type('text/plain').send(snippet.content);

  /** The project, its snippets feature available to the caller (else 403, as check_snippets_enabled). */
  const loadSnippetsProject = async (request: FastifyRequest) => {
    const project = await loadProject(deps, request);
    if (!canReadProjectSnippets(project.access, project)) throw forbidden();
    return project;
  };
  const loadSnippet = async (request: FastifyRequest) => {
    const project = await loadSnippetsProject(request);
    return { project, snippet: await loadProjectSnippet(deps, request, project, 'snippet_id', 'Snippet') };
  };

  app.get('/projects/:id/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    const project = await loadSnippetsProject(request);
    const minimumVisibility = projectSnippetListMinimum(viewer, project.access);
    return list(request, reply, { projectId: project.project.id, minimumVisibility }, project);
  });

  app.get('/projects/:id/snippets/:snippet_id', PUBLIC, async (request) => {
    const { project, snippet } = await loadSnippet(request);
    return present(snippet, project);
  });

  app.get('/projects/:id/snippets/:snippet_id/raw', PUBLIC, async (request, reply) => {
    const { snippet } = await loadSnippet(request);
    return raw(reply, snippet);
  });

  app.post('/projects/:id/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = withCode(withFiles(requestParams(request)));
    requireParams(params, 'title', 'visibility', 'file_name', 'content');
    const project = await loadSnippetsProject(request);
    if (!canCreateProjectSnippet(project.access, project)) throw forbidden();
    const snippet = await createSnippet(deps, viewer, project, snippetAttributes(params));
    return reply.status(201).send(await present(snippet, project));
  });

  app.put('/projects/:id/snippets/:snippet_id', async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requireOneAttribute(params);
    const { project, snippet } = await loadSnippet(request);
    const edited = await editSnippet(deps, viewer, project.access, snippet, snippetAttributes(params), true);
    return present(edited, project);
  });

  app.delete('/projects/:id/snippets/:snippet_id', async (request, reply) => {
    const viewer = requireViewer(request);
    const { project, snippet } = await loadSnippet(request);
    await destroySnippet(deps, viewer, project.access, snippet, true);
    return noContent(reply);
  });

  app.get('/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    return list(request, reply, { personal: true, authorId: viewer.id }, null);
  });

  app.get('/snippets/public', async (request, reply) => {
    requireViewer(request);
    return list(request, reply, { personal: true, visibility: Visibility.Public }, null);
  });

  // Every snippet of the instance, project and personal, newest first: administrators only (403).
  app.get('/snippets/all', async (request, reply) => {
    requireAdmin(request);
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countSnippetList(deps, {}, cap),
      async (page) => (await allSnippetsPage(deps, page)).map((view) => presentSnippetV4(view, baseUrl)),
    );
  });

  app.get('/snippets/:id', PUBLIC, async (request) =>
    present(await loadPersonalSnippet(deps, request), null),
  );

  app.get('/snippets/:id/raw', PUBLIC, async (request, reply) =>
    raw(reply, await loadPersonalSnippet(deps, request)),
  );

  app.post('/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    const params = withCode(withFiles(requestParams(request)));
    requireParams(params, 'title', 'content');
    const attributes = snippetAttributes(params);
    const snippet = await createSnippet(deps, viewer, null, {
      ...attributes,
      file_name: attributes.file_name ?? '',
      visibility_level: attributes.visibility_level ?? Visibility.Internal,
    });
    return reply.status(201).send(await present(snippet, null));
  });

  app.put('/snippets/:id', async (request) => {
    const viewer = requireViewer(request);
    const params = requestParams(request);
    requireOneAttribute(params);
    const snippet = await loadPersonalSnippet(deps, request);
    return present(await editSnippet(deps, viewer, null, snippet, snippetAttributes(params)), null);
  });

  app.delete('/snippets/:id', async (request, reply) => {
    const viewer = requireViewer(request);
    await destroySnippet(deps, viewer, null, await loadPersonalSnippet(deps, request));
    return noContent(reply);
  });
}
