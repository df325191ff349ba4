// POST /markdown (lib/api/markdown.rb): `text` rendered as HTML, 201 `{"html": …}`, by the renderer the
// pages use for descriptions and comments. With `project` (its full path, readable by the caller, else
// 404) and `gfm`, references (#1, !2, @user, ~label…) link as they do on that project's pages.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { loadProject } from '../../http/loaders.ts';
import { optionalBoolean, presentString, requestParams } from '../../http/params.ts';
import { renderCommentMarkdown } from '../../presenters/html/markdown.ts';
import { resolveReferences } from '../../views/reference-views.ts';
import { requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  app.post('/markdown', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'text');
    const text = String(params.text);
    const gfm = optionalBoolean(params, 'gfm') === true;
    const path = presentString(params, 'project');
    const project = path === undefined ? undefined : await loadProject(deps, request, path);
    const references =
      project && gfm
        ? (
            await resolveReferences(
              {
                db: deps.db.kysely,
                dataDir: deps.config.dataDir,
                viewer: request.viewer,
                record: project,
                access: project.access,
              },
              [text],
            )
          ).resolved
        : undefined;
    return reply.status(201).send({ html: renderCommentMarkdown(text, { references }).value });
  });
}
