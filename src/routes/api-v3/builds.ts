// Builds of a project (GitLab 8.13's lib/api/builds.rb): lists of a project's and a commit's builds,
// one build, its artifacts (by id, or the newest successful build of a job on a ref) and trace; cancel,
// retry, play, erase and keep artifacts. Reporters read (and anyone who may read a public or internal
// project while its `public_builds` is on); developers act; a hidden project is 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { apiError, forbidden } from '../../errors.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { optionalString, optionalStringList, pathId, pathInteger, requestParams } from '../../http/params.ts';
import { requireViewer } from '../../http/auth.ts';
import { sendArtifacts } from '../../http/artifacts-download.ts';
import { canReadBuilds, canUpdateBuilds } from '../../policies/ci.ts';
import { ALL_STATUSES } from '../../ci/status.ts';
import { cancelBuild } from '../../services/ci/builds.ts';
import { eraseBuild, keepArtifacts, playBuild, retryBuild } from '../../services/ci/build-actions.ts';
import {
  artifactsOfJobOnRef,
  buildArtifacts,
  buildTrace,
  commitBuildList,
  loadBuildOr404,
  listBuildsOf,
  loadBuild,
  projectBuildList,
  type BuildList,
} from '../../views/build-views.ts';
import type { CiStatus } from '../../domain/types.ts';

/** `scope` as one status or a list of them; any other value is a 400, as GitLab answered it. */
function scopeOf(request: FastifyRequest): CiStatus[] | undefined {
  const scope = optionalStringList(requestParams(request), 'scope')?.filter((value) => value !== '');
  if (!scope || scope.length === 0) return undefined;
  if (!scope.every((value) => (ALL_STATUSES as readonly string[]).includes(value))) {
    throw apiError(400, 'Scope contains invalid value(s)');
  }
  return scope as CiStatus[];
}

async function loadProjectForBuildReads(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canReadBuilds(project.access, project.project)) throw forbidden();
  return project;
}

async function loadProjectForBuildUpdates(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canUpdateBuilds(project.access, project.project)) throw forbidden();
  return project;
}

const buildIdOf = (request: FastifyRequest) => pathId((request.params as { build_id: string }).build_id);

export function register(app: FastifyInstance, deps: Deps): void {
  async function sendList(
    request: FastifyRequest,
    reply: FastifyReply,
    project: LoadedProject,
    list: BuildList,
  ) {
    const rows = await paginateCapped(request, reply, deps.config.externalUrl, list.count, list.page);
    return listBuildsOf(deps, project, rows);
  }

  app.get('/projects/:id/builds', async (request, reply) => {
    const project = await loadProjectForBuildReads(deps, request);
    const statuses = scopeOf(request);
    return sendList(
      request,
      reply,
      project,
      projectBuildList(deps, { projectId: project.project.id, statuses }),
    );
  });

  app.get('/projects/:id/repository/commits/:sha/builds', async (request, reply) => {
    const project = await loadProjectForBuildReads(deps, request);
    const statuses = scopeOf(request);
    const sha = (request.params as { sha: string }).sha;
    return sendList(request, reply, project, await commitBuildList(deps, project, sha, statuses));
  });

  app.get('/projects/:id/builds/:build_id', async (request) => {
    const project = await loadProjectForBuildReads(deps, request);
    return loadBuild(deps, project, await loadBuildOr404(deps, project, buildIdOf(request)));
  });

  app.get('/projects/:id/builds/:build_id/artifacts', async (request, reply) => {
    const project = await loadProjectForBuildReads(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    return sendArtifacts(reply, await buildArtifacts(deps, build));
  });

  // `:ref_name` may hold slashes (feature/x), so the rest of the path is read as one piece.
  app.get('/projects/:id/builds/artifacts/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const match = /^(.+)\/download$/.exec(rest);
    if (!match) return reply.callNotFound();
    const project = await loadProjectForBuildReads(deps, request);
    const job = optionalString(requestParams(request), 'job');
    return sendArtifacts(reply, await artifactsOfJobOnRef(deps, project, match[1]!, job));
  });

  app.get('/projects/:id/builds/:build_id/trace', async (request, reply) => {
    const project = await loadProjectForBuildReads(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    const trace = await buildTrace(deps, build);
    return reply
      .type('text/plain')
      .header('Content-Disposition', `infile; filename="${build.id}.log"`)
      .send(trace);
  });

  app.post('/projects/:id/builds/:build_id/cancel', async (request, reply) => {
    const project = await loadProjectForBuildUpdates(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    const after = (await cancelBuild(deps, build.id)) ?? build;
    return reply.code(201).send(await loadBuild(deps, project, after, 'action'));
  });

  app.post('/projects/:id/builds/:build_id/retry', async (request, reply) => {
    const project = await loadProjectForBuildUpdates(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    const retried = await retryBuild(deps, project, build, requireViewer(request).id);
    return reply.code(201).send(await loadBuild(deps, project, retried, 'action'));
  });

  app.post('/projects/:id/builds/:build_id/play', async (request) => {
    const id = pathInteger(requestParams(request), 'build_id');
    const project = await loadProjectForBuildUpdates(deps, request);
    const build = await loadBuildOr404(deps, project, id);
    const played = await playBuild(deps, project, build, requireViewer(request).id);
    // The spec shows a played build as "started"; it is stored (and later read) as pending, as GitLab did.
    return { ...(await loadBuild(deps, project, played, 'action')), status: 'started' };
  });

  app.post('/projects/:id/builds/:build_id/erase', async (request, reply) => {
    const project = await loadProjectForBuildUpdates(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    const erased = await eraseBuild(deps, build, requireViewer(request).id);
    return reply.code(201).send(await loadBuild(deps, project, erased, 'erased'));
  });

  app.post('/projects/:id/builds/:build_id/artifacts/keep', async (request) => {
    const project = await loadProjectForBuildUpdates(deps, request);
    const build = await loadBuildOr404(deps, project, buildIdOf(request));
    return loadBuild(deps, project, await keepArtifacts(deps, build), 'erased');
  });
}
