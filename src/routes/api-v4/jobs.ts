// v4's jobs (lib/api/ci/jobs.rb and job_artifacts.rb) over v3's builds views and services: a project's
// jobs (`scope[]` of statuses), one job as Ci::Job, its trace, its artifacts (the archive, one file of
// it, the newest successful job of a name on a ref), keep and delete artifacts; cancel, retry, play and
// erase. Who may read and act is as in v3: reporters read, developers act, a hidden project is 404.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramValueInvalid } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginateCapped } from '../../http/pagination.ts';
import { optionalString, optionalStringList, pathInteger, requestParams } from '../../http/params.ts';
import { sendArtifacts } from '../../http/artifacts-download.ts';
import { canReadBuilds, canUpdateBuilds } from '../../policies/ci.ts';
import { ALL_STATUSES } from '../../ci/status.ts';
import { cancelBuild } from '../../services/ci/builds.ts';
import {
  deleteArtifacts,
  eraseBuild,
  keepArtifacts,
  playBuild,
  retryBuild,
} from '../../services/ci/build-actions.ts';
import {
  artifactsOfJobOnRef,
  buildArtifacts,
  buildTrace,
  listJobsOf,
  loadBuildOr404,
  loadJob,
  projectBuildList,
} from '../../views/build-views.ts';
import { artifactsFile } from '../../views/ci-page-views.ts';
import type { CiStatus } from '../../domain/types.ts';
import { noContent, requireParams } from './conventions.ts';

/** `scope` / `scope[]`: statuses; any other value is Grape's 400 `scope does not have a valid value`. */
export function jobScopeOf(request: FastifyRequest): CiStatus[] | undefined {
  const scope = optionalStringList(requestParams(request), 'scope')?.filter((value) => value !== '');
  if (!scope || scope.length === 0) return undefined;
  if (!scope.every((value) => (ALL_STATUSES as readonly string[]).includes(value))) {
    throw paramValueInvalid('scope');
  }
  return scope as CiStatus[];
}

async function loadReadable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canReadBuilds(project.access, project.project)) throw forbidden();
  return project;
}

async function loadUpdatable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  const project = await loadProject(deps, request);
  if (!canUpdateBuilds(project.access, project.project)) throw forbidden();
  return project;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const jobOf = (request: FastifyRequest, project: LoadedProject) =>
    loadBuildOr404(deps, project, pathInteger(requestParams(request), 'job_id'));

  app.get('/projects/:id/jobs', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const list = projectBuildList(deps, { projectId: project.project.id, statuses: jobScopeOf(request) });
    const rows = await paginateCapped(request, reply, deps.config.externalUrl, list.count, list.page);
    return listJobsOf(deps, project, rows);
  });

  app.get('/projects/:id/jobs/:job_id', async (request) => {
    const project = await loadReadable(deps, request);
    return loadJob(deps, project, await jobOf(request, project));
  });

  app.get('/projects/:id/jobs/:job_id/trace', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const build = await jobOf(request, project);
    return reply.type('text/plain').send(await buildTrace(deps, build));
  });

  app.get('/projects/:id/jobs/:job_id/artifacts', async (request, reply) => {
    const project = await loadReadable(deps, request);
    return sendArtifacts(reply, await buildArtifacts(deps, await jobOf(request, project)));
  });

  // One file of the archive: the rest of the path names it (it may hold slashes).
  app.get('/projects/:id/jobs/:job_id/artifacts/*', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const build = await jobOf(request, project);
    const file = await artifactsFile(deps, build, (request.params as { '*': string })['*']);
    return reply
      .type('application/octet-stream')
      .header('Content-Length', String(file.size))
      .send(file.stream);
  });

  // `:ref_name` may hold slashes (feature/x): the path is read as one piece ending in /download.
  app.get('/projects/:id/jobs/artifacts/*', async (request, reply: FastifyReply) => {
    const match = /^(.+)\/download$/.exec((request.params as { '*': string })['*']);
    if (!match) return reply.callNotFound();
    const params = requestParams(request);
    requireParams(params, 'job');
    const project = await loadReadable(deps, request);
    return sendArtifacts(
      reply,
      await artifactsOfJobOnRef(deps, project, match[1]!, optionalString(params, 'job')),
    );
  });

  app.post('/projects/:id/jobs/:job_id/artifacts/keep', async (request) => {
    const project = await loadUpdatable(deps, request);
    return loadJob(deps, project, await keepArtifacts(deps, await jobOf(request, project)));
  });

  app.delete('/projects/:id/jobs/:job_id/artifacts', async (request, reply) => {
    const project = await loadUpdatable(deps, request);
    await deleteArtifacts(deps, await jobOf(request, project));
    return noContent(reply);
  });

  app.post('/projects/:id/jobs/:job_id/cancel', async (request, reply) => {
    const project = await loadUpdatable(deps, request);
    const build = await jobOf(request, project);
    return reply.code(201).send(await loadJob(deps, project, (await cancelBuild(deps, build.id)) ?? build));
  });

  app.post('/projects/:id/jobs/:job_id/retry', async (request, reply) => {
    const project = await loadUpdatable(deps, request);
    const build = await jobOf(request, project);
    const retried = await retryBuild(deps, project, build, requireViewer(request).id);
    return reply.code(201).send(await loadJob(deps, project, retried));
  });

  app.post('/projects/:id/jobs/:job_id/play', async (request) => {
    const project = await loadUpdatable(deps, request);
    const build = await jobOf(request, project);
    return loadJob(deps, project, await playBuild(deps, project, build, requireViewer(request).id));
  });

  app.post('/projects/:id/jobs/:job_id/erase', async (request, reply) => {
    const project = await loadUpdatable(deps, request);
    const build = await jobOf(request, project);
    return reply
      .code(201)
      .send(await loadJob(deps, project, await eraseBuild(deps, build, requireViewer(request).id)));
  });
}
