// The CI pages at GitLab 8.13's paths: /<ns>/<p>/pipelines (and one pipeline, its retry and cancel),
// /<ns>/<p>/builds (and one build with its live trace, raw trace, cancel, retry, play, erase, artifacts
// download, browse, single files and keep). Reads and acts through the API's own loaders, policies,
// views and services: the same 404 for a hidden project (a signed-out visitor is asked to sign in), the
// same 403 for a reporter pressing a developer's button, shown on the page it came from with the reason.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildPath, projectFullPath } from '../../domain/paths.ts';
import type { Deps } from '../../deps.ts';
import { ApiError, forbidden, notFound, paramInvalid } from '../../errors.ts';
import { loadPageProject, type LoadedProject } from '../../http/loaders.ts';
import { optionalInteger, optionalString, pathId, requestParams } from '../../http/params.ts';
import {
  canReadBuilds,
  canReadPipelines,
  canUpdateBuilds,
  canUpdatePipelines,
  isPlayable,
  isRetryable,
} from '../../policies/ci.ts';
import { isCompleted } from '../../ci/status.ts';
import { cancelBuild } from '../../services/ci/builds.ts';
import { eraseBuild, keepArtifacts, playBuild, retryBuild } from '../../services/ci/build-actions.ts';
import { cancelPipeline, retryPipeline } from '../../services/ci/pipeline-actions.ts';
import { loadProjectHead } from './project-head.ts';
import { buildArtifacts, buildTrace, loadBuildOr404 } from '../../views/build-views.ts';
import { loadPipelineOr404, type PipelineScope } from '../../views/pipeline-views.ts';
import {
  artifactsFile,
  listArtifactsDirectory,
  listBuildsPage,
  listPipelinesPage,
  loadFullBuild,
  loadPipelinePage,
  traceSince,
  traceTail,
} from '../../views/ci-page-views.ts';
import {
  ArtifactsPage,
  BUILD_SCOPES,
  BuildPage,
  BuildsPage,
  PIPELINE_SCOPES,
  PipelinePage,
  PipelinesPage,
} from '../../presenters/html/ci.tsx';
import { renderTrace } from '../../presenters/html/ansi.ts';
import type { Flash } from '../../presenters/html/layout.tsx';
import type { CiBuildRow, CiPipelineRow } from '../../db/types.ts';
import type { CiStatus } from '../../domain/types.ts';
import { pageContext } from './web-session.ts';
import { sendPage } from './render.ts';
import { securityHeaders } from './security-headers.ts';
import { contentDisposition, RAW_CSP } from './project-pages.tsx';

interface CiParams {
  namespace: string;
  project: string;
  id?: string;
  '*'?: string;
}

/** What the page says after an action went through (`?done=`). */
const DONE: Record<string, string> = {
  canceled: 'The build was canceled.',
  retried: 'The build was retried.',
  played: 'The manual build was started.',
  erased: 'The build was erased.',
  kept: 'The artifacts will be kept.',
  pipeline_retried: 'The failed builds of this pipeline were retried.',
  pipeline_canceled: 'The running builds of this pipeline were canceled.',
};

const BUILD_SCOPE_STATUSES: Record<string, CiStatus[]> = {
  pending: ['pending'],
  running: ['running'],
  finished: ['success', 'failed', 'canceled'],
};

function noticeOf(request: FastifyRequest): Flash | null {
  const done = optionalString(requestParams(request), 'done');
  return done && DONE[done] ? { kind: 'notice', text: DONE[done] } : null;
}

/** The scope of a list page: one of its tabs ('' for all); anything else is a 400. */
function scopeOf(request: FastifyRequest, scopes: Array<[string, string]>): string {
  const scope = optionalString(requestParams(request), 'scope') ?? '';
  if (!scopes.some(([name]) => name === scope)) throw paramInvalid('scope');
  return scope;
}

function pageOf(request: FastifyRequest): number {
  const page = optionalInteger(requestParams(request), 'page') ?? 1;
  if (page < 1 || page > 100_000) throw paramInvalid('page');
  return page;
}

/** The reason an ApiError gives, without GitLab's status prefix. */
function reasonOf(error: ApiError): string {
  const text = error.message
    .replace(/^\d{3} (Forbidden\s+- )?/, '')
    .replace(/^\(Bad request\) "(.*)" not given$/, '$1')
    .trim();
  return text === '' || text === 'Forbidden' ? 'You are not allowed to do this.' : text;
}

export function registerCiPages(web: FastifyInstance, deps: Deps): void {
  const load = (request: FastifyRequest): Promise<LoadedProject> => loadPageProject(deps, request);
  const head = (loaded: LoadedProject) => loadProjectHead(deps, loaded);
  const idOf = (request: FastifyRequest) => pathId((request.params as CiParams).id);

  const loadForPipelines = async (request: FastifyRequest) => {
    const loaded = await load(request);
    if (!canReadPipelines(loaded.access, loaded.project)) throw forbidden();
    return loaded;
  };
  const loadForBuilds = async (request: FastifyRequest) => {
    const loaded = await load(request);
    if (!canReadBuilds(loaded.access, loaded.project)) throw forbidden();
    return loaded;
  };
  const loadBuildOf = async (request: FastifyRequest) => {
    const loaded = await loadForBuilds(request);
    return { loaded, build: await loadBuildOr404(deps, loaded, idOf(request)) };
  };

  // Pipelines.

  web.get('/:namespace/:project/pipelines', async (request, reply) => {
    const scope = scopeOf(request, PIPELINE_SCOPES);
    const page = pageOf(request);
    const loaded = await loadForPipelines(request);
    const [project, list] = await Promise.all([
      head(loaded),
      listPipelinesPage(deps, loaded, (scope || undefined) as PipelineScope | undefined, page),
    ]);
    return sendPage(
      reply,
      <PipelinesPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        scope={scope}
        pipelines={list.pipelines}
        page={page}
        hasNext={list.hasNext}
      />,
    );
  });

  const showPipeline = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    pipeline: CiPipelineRow,
    flash: Flash | null,
    status = 200,
  ) => {
    const [project, view] = await Promise.all([head(loaded), loadPipelinePage(deps, loaded, pipeline)]);
    const may = canUpdatePipelines(loaded.access, loaded.project);
    const jobs = view.stages.flatMap((stage) => stage.jobs);
    return sendPage(
      reply,
      <PipelinePage
        ctx={pageContext(deps, request, reply)}
        project={project}
        pipeline={view.pipeline}
        stages={view.stages}
        commit={view.commit}
        live={!isCompleted(pipeline.status) || jobs.some((job) => !isCompleted(job.status as CiStatus))}
        actions={{
          retry: may && jobs.some((job) => job.type === 'build' && job.status === 'failed'),
          cancel: may && jobs.some((job) => job.status === 'pending' || job.status === 'running'),
        }}
        flash={flash}
      />,
      status,
    );
  };

  web.get('/:namespace/:project/pipelines/:id', async (request, reply) => {
    const loaded = await loadForPipelines(request);
    const id = idOf(request);
    if (id === undefined) throw notFound();
    const pipeline = await loadPipelineOr404(deps, loaded, id);
    return showPipeline(request, reply, loaded, pipeline, noticeOf(request));
  });

  const pipelineAction = (
    name: 'retry' | 'cancel',
    act: (loaded: LoadedProject, pipeline: CiPipelineRow, userId: number) => Promise<unknown>,
  ) =>
    web.post(`/:namespace/:project/pipelines/:id/${name}`, async (request, reply) => {
      const loaded = await loadForPipelines(request);
      const id = idOf(request);
      if (id === undefined) throw notFound();
      const pipeline = await loadPipelineOr404(deps, loaded, id);
      if (!canUpdatePipelines(loaded.access, loaded.project) || !request.viewer) {
        const text = `You are not allowed to ${name} this pipeline.`;
        return showPipeline(request, reply, loaded, pipeline, { kind: 'alert', text }, 403);
      }
      try {
        await act(loaded, pipeline, request.viewer.id);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        const flash: Flash = { kind: 'alert', text: reasonOf(error) };
        return showPipeline(request, reply, loaded, pipeline, flash, error.status);
      }
      const url = `/${loaded.namespace.path}/${loaded.project.path}/pipelines/${pipeline.id}`;
      return reply.redirect(`${url}?done=pipeline_${name === 'retry' ? 'retried' : 'canceled'}`, 302);
    });
  pipelineAction('retry', (loaded, pipeline, userId) => retryPipeline(deps, loaded, pipeline, userId));
  pipelineAction('cancel', (_loaded, pipeline) => cancelPipeline(deps, pipeline));

  // Builds.

  web.get('/:namespace/:project/builds', async (request, reply) => {
    const scope = scopeOf(request, BUILD_SCOPES);
    const page = pageOf(request);
    const loaded = await loadForBuilds(request);
    const [project, list] = await Promise.all([
      head(loaded),
      listBuildsPage(deps, loaded, BUILD_SCOPE_STATUSES[scope], page),
    ]);
    return sendPage(
      reply,
      <BuildsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        scope={scope}
        builds={list.builds}
        page={page}
        hasNext={list.hasNext}
      />,
    );
  });

  const showBuild = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    build: CiBuildRow,
    flash: Flash | null,
    status = 200,
  ) => {
    const [project, presented, tail] = await Promise.all([
      head(loaded),
      loadFullBuild(deps, loaded, build),
      traceTail(deps, build),
    ]);
    const may = canUpdateBuilds(loaded.access, loaded.project) && request.viewer !== null;
    const finished = isCompleted(build.status);
    const rendered = renderTrace(tail.text);
    return sendPage(
      reply,
      <BuildPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        build={presented}
        erased={build.erased_at !== null}
        artifactsExpireAt={presented.artifacts_file ? build.artifacts_expire_at : null}
        browsable={presented.artifacts_file !== null && build.artifacts_metadata !== null}
        trace={{
          html: rendered.html,
          state: rendered.state,
          start: tail.start,
          end: tail.end,
          length: tail.length,
          complete: finished && tail.end >= tail.length,
        }}
        actions={{
          cancel: may && ['created', 'pending', 'running'].includes(build.status),
          retry: may && isRetryable(build, loaded.project),
          play: may && isPlayable(build, loaded.project),
          erase: may && finished && build.erased_at === null,
          keep: may && presented.artifacts_file !== null && build.artifacts_expire_at !== null,
        }}
        flash={flash}
      />,
      status,
    );
  };

  web.get('/:namespace/:project/builds/:id', async (request, reply) => {
    const { loaded, build } = await loadBuildOf(request);
    return showBuild(request, reply, loaded, build, noticeOf(request));
  });

  /** The trace after `offset`, rendered: what an open build page appends (build-trace.ts polls it). */
  web.get('/:namespace/:project/builds/:id/trace.json', async (request, reply) => {
    const params = requestParams(request);
    const offset = optionalInteger(params, 'offset') ?? 0;
    if (offset < 0) throw paramInvalid('offset');
    const state = optionalString(params, 'state') ?? '';
    const { build } = await loadBuildOf(request);
    const piece = await traceSince(deps, build, offset);
    // A trace read again from its start (it was replaced) starts unstyled.
    const rendered = renderTrace(piece.text, piece.start === offset ? state : '');
    return reply.header('cache-control', 'no-store').send({
      id: build.id,
      status: build.status,
      start: piece.start,
      offset: piece.end,
      state: rendered.state,
      html: rendered.html.value,
      more: piece.more,
      complete: isCompleted(build.status) && piece.end >= piece.length,
    });
  });

  web.get('/:namespace/:project/builds/:id/raw', async (request, reply) => {
    const { build } = await loadBuildOf(request);
    const trace = await buildTrace(deps, build);
    securityHeaders(reply, RAW_CSP);
    return reply.type('text/plain; charset=utf-8').send(trace);
  });

  web.get('/:namespace/:project/builds/:id/artifacts/download', async (request, reply) => {
    const { build } = await loadBuildOf(request);
    const artifacts = await buildArtifacts(deps, build);
    securityHeaders(reply, RAW_CSP);
    return reply
      .type('application/octet-stream')
      .header('content-disposition', contentDisposition('attachment', artifacts.filename))
      .header('content-length', String(artifacts.size))
      .send(artifacts.stream);
  });

  const browse = async (request: FastifyRequest, reply: FastifyReply, dir: string) => {
    const { loaded, build } = await loadBuildOf(request);
    const [project, listing] = await Promise.all([head(loaded), listArtifactsDirectory(deps, build, dir)]);
    return sendPage(
      reply,
      <ArtifactsPage
        ctx={pageContext(deps, request, reply)}
        project={project}
        build={{ id: build.id, name: build.name }}
        dir={listing.dir}
        dirs={listing.dirs}
        files={listing.files}
      />,
    );
  };
  web.get('/:namespace/:project/builds/:id/artifacts/browse', (request, reply) => browse(request, reply, ''));
  web.get('/:namespace/:project/builds/:id/artifacts/browse/*', (request, reply) =>
    browse(request, reply, (request.params as CiParams)['*'] ?? ''),
  );

  web.get('/:namespace/:project/builds/:id/artifacts/file/*', async (request, reply) => {
    const path = (request.params as CiParams)['*'] ?? '';
    const { build } = await loadBuildOf(request);
    const file = await artifactsFile(deps, build, path);
    securityHeaders(reply, RAW_CSP);
    return reply
      .type('application/octet-stream')
      .header('content-disposition', contentDisposition('attachment', path.slice(path.lastIndexOf('/') + 1)))
      .header('content-length', String(file.size))
      .send(file.stream);
  });

  const buildAction = (
    name: string,
    done: string,
    act: (loaded: LoadedProject, build: CiBuildRow, userId: number) => Promise<CiBuildRow>,
  ) =>
    web.post(`/:namespace/:project/builds/:id/${name}`, async (request, reply) => {
      const { loaded, build } = await loadBuildOf(request);
      if (!canUpdateBuilds(loaded.access, loaded.project) || !request.viewer) {
        const text = `You are not allowed to ${name.replace('artifacts/', '')} this build.`;
        return showBuild(request, reply, loaded, build, { kind: 'alert', text }, 403);
      }
      let after: CiBuildRow;
      try {
        after = await act(loaded, build, request.viewer.id);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        const flash: Flash = { kind: 'alert', text: reasonOf(error) };
        return showBuild(request, reply, loaded, build, flash, error.status);
      }
      return reply.redirect(`${buildPath(projectFullPath(loaded), after.id)}?done=${done}`, 302);
    });
  buildAction('cancel', 'canceled', async (_loaded, build) => (await cancelBuild(deps, build.id)) ?? build);
  buildAction('retry', 'retried', (loaded, build, userId) => retryBuild(deps, loaded, build, userId));
  buildAction('play', 'played', (loaded, build, userId) => playBuild(deps, loaded, build, userId));
  buildAction('erase', 'erased', (_loaded, build, userId) => eraseBuild(deps, build, userId));
  buildAction('artifacts/keep', 'kept', (_loaded, build) => keepArtifacts(deps, build));
}
