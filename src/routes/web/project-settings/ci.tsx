// The CI settings pages, through the services and policies of the API's variables, triggers and runners
// routes (admin_build for variables, triggers and pipelines settings; admin_project for runners, as
// /projects/:id/runners). Deletes are `POST …/delete` (HTML forms cannot DELETE).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { forbidden, notFound } from '../../../errors.ts';
import type { LoadedProject } from '../../../http/loaders.ts';
import { optionalString, pathId, requestParams } from '../../../http/params.ts';
import { enableRunnerRefusal } from '../../../policies/ci.ts';
import { resetRunnersToken, updatePipelinesSettings } from '../../../services/ci/pipelines-settings.ts';
import { createVariable, destroyVariable, updateVariable } from '../../../services/ci/ci-variables.ts';
import { createTrigger, deleteTrigger } from '../../../services/ci/triggers.ts';
import { disableRunnerForProject, enableRunnerForProject } from '../../../services/ci/runners.ts';
import { listVariablesPage, loadVariableOr404 } from '../../../views/ci-variable-views.ts';
import { listTriggersPage, loadTriggerOr404 } from '../../../views/trigger-views.ts';
import {
  findRunnerById,
  listRunnersPage,
  loadRunnerOr404,
  runnerAssignedTo,
  runnerCaller,
} from '../../../views/runner-views.ts';
import type { Flash } from '../../../presenters/html/layout.tsx';
import {
  PipelinesSettingsPage,
  RunnersPage,
  TriggersPage,
  VariablesPage,
  type PipelinesForm,
} from '../../../presenters/html/project-settings/ci.tsx';
import { pageContext } from '../web-session.ts';
import { sendPage } from '../render.ts';
import { attempt } from '../form-errors.ts';
import { checked, loadSettingsProject, noticeOf, redirectDone, settingsHead } from './settings-project.ts';

const DONE: Record<string, string> = {
  pipelines: 'CI/CD pipelines settings were saved.',
  variable: 'The variable was saved.',
  variable_removed: 'The variable was removed.',
  trigger: 'A trigger was added.',
  trigger_removed: 'The trigger was revoked.',
  runner_enabled: 'The runner was enabled for this project.',
  runner_disabled: 'The runner was disabled for this project.',
  token: 'The registration token was reset.',
};

/** The pages show one page of each list: more than this many variables or triggers is not a use we saw. */
const LIST_WINDOW = { offset: 0, limit: 100 };

const base = (loaded: LoadedProject) => `/${loaded.namespace.path}/${loaded.project.path}`;

export function registerCiSettings(web: FastifyInstance, deps: Deps): void {
  // Pipelines settings (8.13's /pipelines/settings: the CI pages own /pipelines and /pipelines/:id).
  const pipelinesPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    typed?: PipelinesForm,
    status = 200,
  ) => {
    const { project } = loaded;
    const form = typed ?? {
      timeoutMinutes: String(Math.round(project.build_timeout / 60)),
      coverageRegex: project.build_coverage_regex ?? '',
      publicBuilds: project.public_builds === 1,
    };
    return sendPage(
      reply,
      <PipelinesSettingsPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={await settingsHead(deps, loaded)}
        form={form}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/pipelines/settings', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    return pipelinesPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/pipelines/settings', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const params = requestParams(request);
    const form: PipelinesForm = {
      timeoutMinutes: (optionalString(params, 'build_timeout_in_minutes') ?? '').trim(),
      coverageRegex: optionalString(params, 'build_coverage_regex') ?? '',
      publicBuilds: checked(params, 'public_builds'),
    };
    const minutes = /^\d{1,9}$/.test(form.timeoutMinutes) ? Number(form.timeoutMinutes) : Number.NaN;
    const result = await attempt(
      () =>
        updatePipelinesSettings(deps, loaded.project.id, {
          buildTimeoutMinutes: minutes,
          coverageRegex: form.coverageRegex,
          publicBuilds: form.publicBuilds,
        }),
      (flash) => pipelinesPage(request, reply, loaded, flash, form, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/pipelines/settings`, 'pipelines');
  });

  // Secret variables.
  const variablesPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    flash: Flash | null,
    typed?: { key: string; value: string },
    status = 200,
  ) => {
    const [project, variables] = await Promise.all([
      settingsHead(deps, loaded),
      listVariablesPage(deps, loaded.project.id, LIST_WINDOW),
    ]);
    return sendPage(
      reply,
      <VariablesPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        variables={variables}
        typed={typed}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/variables', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    return variablesPage(request, reply, loaded, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/variables', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const params = requestParams(request);
    const typed = {
      key: (optionalString(params, 'variable[key]') ?? '').trim(),
      value: optionalString(params, 'variable[value]') ?? '',
    };
    const result = await attempt(
      () => createVariable(deps, loaded.project.id, typed.key, typed.value),
      (flash) => variablesPage(request, reply, loaded, flash, typed, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/variables`, 'variable');
  });
  web.post('/:namespace/:project/variables/:key', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const variable = await loadVariableOr404(
      deps,
      loaded.project.id,
      (request.params as { key: string }).key,
    );
    await updateVariable(deps, variable, optionalString(requestParams(request), 'variable[value]') ?? '');
    return redirectDone(reply, `${base(loaded)}/variables`, 'variable');
  });
  web.post('/:namespace/:project/variables/:key/delete', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const variable = await loadVariableOr404(
      deps,
      loaded.project.id,
      (request.params as { key: string }).key,
    );
    await destroyVariable(deps, variable);
    return redirectDone(reply, `${base(loaded)}/variables`, 'variable_removed');
  });

  // Triggers.
  web.get('/:namespace/:project/triggers', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const [project, triggers] = await Promise.all([
      settingsHead(deps, loaded),
      listTriggersPage(deps, loaded.project.id, LIST_WINDOW),
    ]);
    return sendPage(
      reply,
      <TriggersPage
        ctx={pageContext(deps, request, reply)}
        flash={noticeOf(request, DONE)}
        project={project}
        triggers={triggers}
        triggerUrl={`${deps.config.externalUrl}/api/v3/projects/${loaded.project.id}/trigger/builds`}
      />,
    );
  });
  web.post('/:namespace/:project/triggers', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    await createTrigger(deps, loaded.project.id);
    return redirectDone(reply, `${base(loaded)}/triggers`, 'trigger');
  });
  web.post('/:namespace/:project/triggers/:token/delete', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request, 'builds');
    const token = (request.params as { token: string }).token;
    const trigger = await loadTriggerOr404(deps, loaded.project.id, token);
    await deleteTrigger(deps, trigger);
    return redirectDone(reply, `${base(loaded)}/triggers`, 'trigger_removed');
  });

  // Runners.
  const runnersPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: LoadedProject,
    viewerId: number,
    flash: Flash | null,
    status = 200,
  ) => {
    const [project, enabled, mine] = await Promise.all([
      settingsHead(deps, loaded),
      listRunnersPage(deps, { kind: 'project', projectId: loaded.project.id }, undefined, LIST_WINDOW),
      listRunnersPage(deps, { kind: 'user', userId: viewerId }, undefined, LIST_WINDOW),
    ]);
    const enabledIds = new Set(enabled.map((runner) => runner.id));
    return sendPage(
      reply,
      <RunnersPage
        ctx={pageContext(deps, request, reply)}
        flash={flash}
        project={project}
        runnersUrl={`${deps.config.externalUrl}/ci`}
        enabled={enabled}
        available={mine.filter((runner) => !enabledIds.has(runner.id))}
      />,
      status,
    );
  };
  web.get('/:namespace/:project/runners', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    return runnersPage(request, reply, loaded, viewer.id, noticeOf(request, DONE));
  });
  web.post('/:namespace/:project/runners/reset_token', async (request, reply) => {
    const { loaded } = await loadSettingsProject(deps, request);
    await resetRunnersToken(deps, loaded.project.id);
    return redirectDone(reply, `${base(loaded)}/runners`, 'token');
  });
  web.post('/:namespace/:project/runners', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const result = await attempt(
      async () => {
        const runner = await loadRunnerOr404(
          deps,
          pathId(optionalString(requestParams(request), 'runner_id')),
        );
        const refusal = enableRunnerRefusal(runner, await runnerCaller(deps, viewer, runner));
        if (refusal) throw forbidden(refusal);
        await enableRunnerForProject(deps, runner, loaded.project.id);
      },
      (flash) => runnersPage(request, reply, loaded, viewer.id, flash, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/runners`, 'runner_enabled');
  });
  web.post('/:namespace/:project/runners/:runner_id/disable', async (request, reply) => {
    const { loaded, viewer } = await loadSettingsProject(deps, request);
    const result = await attempt(
      async () => {
        const id = pathId((request.params as { runner_id: string }).runner_id);
        const runner = id === undefined ? undefined : await findRunnerById(deps, id);
        if (!runner || !(await runnerAssignedTo(deps, runner.id, loaded.project.id))) {
          throw notFound('Runner');
        }
        await disableRunnerForProject(deps, runner, loaded.project.id);
      },
      (flash) => runnersPage(request, reply, loaded, viewer.id, flash, 422),
    );
    if (!result.ok) return result.reply;
    return redirectDone(reply, `${base(loaded)}/runners`, 'runner_disabled');
  });
}
