// /admin/runners: the shared registration token (and its reset), every runner with its status, pause,
// resume, settings and removal, through the same services and policies as the API's /runners routes.
// Forms without script can only POST: pause, resume and remove are POSTs to /admin/runners/<id>/pause,
// /resume and /delete (8.13 used GET for pause/resume and DELETE for removal).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { ApiError, forbidden, unauthorized } from '../../../errors.ts';
import { optionalBoolean, optionalString, pathId, requestParams } from '../../../http/params.ts';
import { deleteRunnerRefusal, updateRunnerRefusal } from '../../../policies/ci.ts';
import {
  parseTagList,
  removeRunner,
  resetRunnerRegistrationToken,
  runnerRegistrationToken,
  runnerRegistrationTokenFixed,
  updateRunnerSettings,
  type RunnerSettings,
} from '../../../services/ci/runners.ts';
import {
  countRunnerList,
  listRunnerStatusPage,
  loadRunnerOr404,
  runnerCaller,
  runnerDetails,
  runnerProjectCount,
  runnerStatus,
} from '../../../views/runner-views.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import {
  AdminRunnerPage,
  AdminRunnersPage,
  RUNNER_SCOPES,
  type RunnerScopeFilter,
} from '../../../presenters/html/admin/runners.tsx';
import type { CiRunnerRow, UserRow } from '../../../db/types.ts';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { pageNumber } from '../paging.ts';
import { doneNotice, errorText } from '../form-errors.ts';

const RUNNERS_PER_PAGE = 20;

const DONE: Record<string, string> = {
  token: 'The registration token was reset.',
  paused: 'The runner was paused.',
  resumed: 'The runner was resumed.',
  removed: 'The runner was removed.',
  updated: 'The runner was updated.',
};

function viewerOf(request: FastifyRequest): UserRow {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
}

export function registerAdminRunners(admin: FastifyInstance, deps: Deps): void {
  const runnersPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    flash: Flash | null,
    status = 200,
  ) => {
    const word = optionalString(requestParams(request), 'scope') ?? '';
    const scope = (RUNNER_SCOPES as readonly string[]).includes(word)
      ? (word as RunnerScopeFilter)
      : undefined;
    const page = pageNumber(request);
    const offset = (page - 1) * RUNNERS_PER_PAGE;
    const [token, total, runners] = await Promise.all([
      runnerRegistrationToken(deps),
      countRunnerList(deps, { kind: 'all' }, scope),
      listRunnerStatusPage(deps, scope, { offset, limit: RUNNERS_PER_PAGE }),
    ]);
    return sendPage(
      reply,
      <AdminRunnersPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        token={token}
        tokenFixed={runnerRegistrationTokenFixed(deps)}
        externalUrl={deps.config.externalUrl}
        runners={runners}
        total={total}
        scope={scope}
        page={page}
        hasNext={offset + runners.length < total}
      />,
      status,
    );
  };

  admin.get('/admin/runners', async (request, reply) =>
    runnersPage(request, reply, doneNotice(request, DONE)),
  );

  admin.post('/admin/runners/reset_token', async (request, reply) => {
    try {
      await resetRunnerRegistrationToken(deps);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return runnersPage(request, reply, { kind: 'alert', text: errorText(error) }, error.status);
    }
    return reply.redirect('/admin/runners?done=token', 302);
  });

  /** The runner in the path, checked with the API's policy for this change. */
  const loadFor = async (
    request: FastifyRequest,
    refusalOf: (runner: CiRunnerRow, viewer: UserRow) => Promise<string | null>,
  ): Promise<CiRunnerRow> => {
    const viewer = viewerOf(request);
    const runner = await loadRunnerOr404(deps, pathId((request.params as { id: string }).id));
    const refusal = await refusalOf(runner, viewer);
    if (refusal) throw forbidden(refusal);
    return runner;
  };
  const mayUpdate = async (runner: CiRunnerRow, viewer: UserRow) =>
    updateRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));

  const runnerPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    runner: CiRunnerRow,
    flash: Flash | null,
    status = 200,
  ) =>
    sendPage(
      reply,
      <AdminRunnerPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        runner={await runnerDetails(deps, viewerOf(request), runner)}
        status={runnerStatus(runner)}
      />,
      status,
    );

  admin.get('/admin/runners/:id', async (request, reply) => {
    const runner = await loadFor(request, async () => null);
    return runnerPage(request, reply, runner, doneNotice(request, DONE));
  });

  admin.post('/admin/runners/:id', async (request, reply) => {
    const runner = await loadFor(request, mayUpdate);
    const params = requestParams(request);
    // Every field is on the form: an unticked box is not sent, so absent means off.
    const settings: RunnerSettings = {
      description: optionalString(params, 'runner[description]') ?? '',
      tagList: parseTagList(optionalString(params, 'runner[tag_list]') ?? ''),
      active: optionalBoolean(params, 'runner[active]') === true,
      runUntagged: optionalBoolean(params, 'runner[run_untagged]') === true,
      locked: optionalBoolean(params, 'runner[locked]') === true,
    };
    try {
      await updateRunnerSettings(deps, runner, settings);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return runnerPage(request, reply, runner, { kind: 'alert', text: errorText(error) }, 422);
    }
    return reply.redirect(`/admin/runners/${runner.id}?done=updated`, 302);
  });

  for (const [action, active] of [
    ['pause', false],
    ['resume', true],
  ] as const) {
    admin.post(`/admin/runners/:id/${action}`, async (request, reply) => {
      const runner = await loadFor(request, mayUpdate);
      await updateRunnerSettings(deps, runner, { active });
      return reply.redirect(`/admin/runners?done=${active ? 'resumed' : 'paused'}`, 302);
    });
  }

  admin.post('/admin/runners/:id/delete', async (request, reply) => {
    const runner = await loadFor(request, async (found, viewer) =>
      deleteRunnerRefusal(
        found,
        await runnerCaller(deps, viewer, found),
        await runnerProjectCount(deps, found.id),
      ),
    );
    await removeRunner(deps, runner);
    return reply.redirect('/admin/runners?done=removed', 302);
  });
}
