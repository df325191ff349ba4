// v4's CI lint (lib/api/lint.rb): POST /ci/lint checks posted content (GitLab 13–15's instance-wide
// lint, with `status`); GET /projects/:id/ci/lint the project's .gitlab-ci.yml at content_ref (or sha,
// default: the default branch's head; read_code); POST /projects/:id/ci/lint posted content with local
// includes from the default branch (who may run pipelines). Static checks only: dry_run is not simulated.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, notFound } from '../../errors.ts';
import { loadProject, loadProjectRepository } from '../../http/loaders.ts';
import { optionalBoolean, optionalString, requestParams } from '../../http/params.ts';
import { canUpdatePipelines } from '../../policies/ci.ts';
import { lintCommit, lintContent, lintProjectFile } from '../../views/ci-lint-views.ts';
import { presentInstanceLint, presentLint } from '../../presenters/api-v4/ci-lint.ts';
import { requireParams } from './conventions.ts';

export function register(app: FastifyInstance, deps: Deps): void {
  // Anyone may lint content: it reads nothing of the instance.
  app.post('/ci/lint', { config: { public: true } }, async (request) => {
    const params = requestParams(request);
    requireParams(params, 'content');
    const view = await lintContent(deps, request.viewer, String(params.content));
    return presentInstanceLint(view, optionalBoolean(params, 'include_merged_yaml') ?? false);
  });

  app.get('/projects/:id/ci/lint', async (request) => {
    const project = await loadProjectRepository(deps, request);
    const params = requestParams(request);
    const ref = optionalString(params, 'content_ref') ?? optionalString(params, 'sha');
    if (!project.project.default_branch && ref === undefined) throw notFound('Repository');
    const sha = await lintCommit(deps, project, ref);
    if (!sha) throw notFound(ref === undefined ? 'Repository' : 'Commit');
    return presentLint(await lintProjectFile(deps, request.viewer, project, sha));
  });

  app.post('/projects/:id/ci/lint', async (request) => {
    const project = await loadProject(deps, request);
    if (!canUpdatePipelines(project.access, project.project)) throw forbidden();
    const params = requestParams(request);
    requireParams(params, 'content');
    const sha = await lintCommit(deps, project, undefined);
    return presentLint(
      await lintContent(
        deps,
        request.viewer,
        String(params.content),
        sha ? { record: project, sha } : undefined,
      ),
    );
  });
}
