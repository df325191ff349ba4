// Project snippets (GitLab 8.13's lib/api/project_snippets.rb with its policies): signed-in callers only;
// the list and one (newest first, what SnippetsFinder#by_project shows the caller), create (reporters
// and up; title, file_name, code and visibility_level required), edit (the author or an administrator),
// delete (the same; any failure is `404 Snippet Not Found`, a success the snippet's columns) and raw.
// The project's snippets feature off hides them (404).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { requireViewer } from '../../http/auth.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { optionalString, requestParams, type Params } from '../../http/params.ts';
import { loadProject, loadProjectSnippet } from '../../http/loaders.ts';
import { badRequest, forbidden, notFound, recordNotFound } from '../../errors.ts';
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
import { countSnippetList, snippetListPage, snippetViews } from '../../views/snippet-views.ts';
import { presentProjectSnippet, presentSnippetColumns } from '../../presenters/api-v3/snippet.ts';
import type { SnippetRow } from '../../db/types.ts';
import type { LoadedProject } from '../../http/loaders.ts';

/** visibility_level as Rails cast it: an integer, else a value the model refuses. */
function visibilityLevel(params: Params): number | undefined {
  const text = optionalString(params, 'visibility_level');
  if (text === undefined) return undefined;
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : -1;
}

/** attributes_for_keys [:title, :file_name, :visibility_level] and `code` as the content when present. */
function snippetAttributes(params: Params): SnippetAttributes {
  const code = optionalString(params, 'code');
  return {
    title: optionalString(params, 'title'),
    file_name: optionalString(params, 'file_name'),
    visibility_level: visibilityLevel(params),
    content: code === undefined || code.trim() === '' ? undefined : code,
  };
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const present = async (project: LoadedProject, snippet: SnippetRow) => {
    const [view] = await snippetViews(deps, [snippet], project);
    return presentProjectSnippet(view!, baseUrl);
  };
  const loadSnippet = async (request: FastifyRequest) => {
    requireViewer(request);
    const project = await loadProject(deps, request);
    return { project, snippet: await loadProjectSnippet(deps, request, project) };
  };

  app.get('/projects/:id/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    const project = await loadProject(deps, request);
    if (!canReadProjectSnippets(project.access, project)) throw recordNotFound();
    const filter = {
      projectId: project.project.id,
      minimumVisibility: projectSnippetListMinimum(viewer, project.access),
    };
    return paginateCapped(
      request,
      reply,
      baseUrl,
      (cap) => countSnippetList(deps, filter, cap),
      async (page) =>
        (await snippetListPage(deps, filter, project, page)).map((view) =>
          presentProjectSnippet(view, baseUrl),
        ),
    );
  });

  app.get('/projects/:id/snippets/:snippet_id', async (request) => {
    const { project, snippet } = await loadSnippet(request);
    return present(project, snippet);
  });

  app.post('/projects/:id/snippets', async (request, reply) => {
    const viewer = requireViewer(request);
    const project = await loadProject(deps, request);
    if (!canCreateProjectSnippet(project.access, project)) throw forbidden();
    const params = requestParams(request);
    for (const name of ['title', 'file_name', 'code', 'visibility_level']) {
      const value = params[name];
      if (value === undefined || value === null || String(value).trim() === '') throw badRequest(name);
    }
    const snippet = await createSnippet(deps, viewer, project, snippetAttributes(params));
    return reply.status(201).send(await present(project, snippet));
  });

  app.put('/projects/:id/snippets/:snippet_id', async (request) => {
    const viewer = requireViewer(request);
    const { project, snippet } = await loadSnippet(request);
    const edited = await editSnippet(
      deps,
      viewer,
      project.access,
      snippet,
      snippetAttributes(requestParams(request)),
    );
    return present(project, edited);
  });

  app.delete('/projects/:id/snippets/:snippet_id', async (request) => {
    const viewer = requireViewer(request);
    try {
      const { project, snippet } = await loadSnippet(request);
      await destroySnippet(deps, viewer, project.access, snippet);
      return presentSnippetColumns(snippet);
    } catch {
      throw notFound('Snippet');
    }
  });

  app.get('/projects/:id/snippets/:snippet_id/raw', async (request, reply) => {
    const { snippet } = await loadSnippet(request);
    return reply.type('text/plain').send(snippet.content);
  });
}
