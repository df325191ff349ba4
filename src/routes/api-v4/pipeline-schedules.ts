// v4's pipeline schedules (lib/api/ci/pipeline_schedules.rb): whoever reads pipelines lists (scope
// active/inactive) and shows them with their newest pipeline and variables; developers create (the
// caller owns it) and play them (201, a pipeline now, source `schedule`, as the caller); the owner or a
// master changes one (rescheduled from now), its variables (by key) and its owner, and deletes it (204).
// `…/pipelines` lists the pipelines a schedule ran. A bad cron or zone answers 400 with GitLab's shape.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { forbidden, paramValueInvalid } from '../../errors.ts';
import { requireViewer } from '../../http/auth.ts';
import { loadProject, type LoadedProject } from '../../http/loaders.ts';
import { paginate } from '../../http/pagination.ts';
import {
  optionalBoolean,
  optionalOneOf,
  optionalString,
  pathInteger,
  requestParams,
  type Params,
} from '../../http/params.ts';
import { canAdminPipelineSchedule, canCreatePipelineSchedules, canReadPipelines } from '../../policies/ci.ts';
import {
  addScheduleVariable,
  changePipelineSchedule,
  changeScheduleVariable,
  createPipelineSchedule,
  deletePipelineSchedule,
  deleteScheduleVariable,
  playPipelineSchedule,
  type ScheduleFields,
} from '../../services/ci/pipeline-schedules.ts';
import {
  countScheduledPipelines,
  countScheduleList,
  listSchedulesWithOwners,
  loadScheduleOr404,
  loadScheduleVariableOr404,
  scheduledPipelines,
  scheduleDetails,
} from '../../views/pipeline-schedule-views.ts';
import {
  presentPipelineSchedule,
  presentPipelineScheduleDetails,
  presentScheduleVariable,
} from '../../presenters/api-v4/pipeline-schedule.ts';
import { presentPipelineBasic } from '../../presenters/api-v4/pipeline.ts';
import type { CiPipelineScheduleRow } from '../../db/types.ts';
import { noContent, requireParams } from './conventions.ts';

async function loadReadable(deps: Deps, request: FastifyRequest): Promise<LoadedProject> {
  requireViewer(request);
  const project = await loadProject(deps, request);
  if (!canReadPipelines(project.access, project.project)) throw forbidden();
  return project;
}

/** The editable fields given (PUT), or all of them with GitLab's defaults (POST). */
function scheduleFields(params: Params): Partial<ScheduleFields> {
  const fields: Partial<ScheduleFields> = {};
  for (const name of ['description', 'ref', 'cron', 'cron_timezone'] as const) {
    const value = optionalString(params, name);
    if (value !== undefined) fields[name] = value;
  }
  const active = optionalBoolean(params, 'active');
  if (active !== undefined) fields.active = active;
  return fields;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  const scheduleOf = (request: FastifyRequest, project: LoadedProject) =>
    loadScheduleOr404(deps, project.project.id, pathInteger(requestParams(request), 'schedule_id'));
  /** The schedule, when the caller may change it (403 otherwise). */
  const administered = async (request: FastifyRequest) => {
    const project = await loadReadable(deps, request);
    const schedule = await scheduleOf(request, project);
    if (!canAdminPipelineSchedule(project.access, project, schedule, requireViewer(request).id)) {
      throw forbidden();
    }
    return { project, schedule };
  };
  const details = async (project: LoadedProject, schedule: CiPipelineScheduleRow) =>
    presentPipelineScheduleDetails(await scheduleDetails(deps, schedule), project, baseUrl);

  app.get('/projects/:id/pipeline_schedules', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const scope = optionalOneOf(requestParams(request), 'scope', ['active', 'inactive'], () =>
      paramValueInvalid('scope'),
    );
    const active = scope === undefined ? undefined : scope === 'active';
    const rows = await paginate(
      request,
      reply,
      baseUrl,
      () => countScheduleList(deps, project.project.id, active),
      (page) => listSchedulesWithOwners(deps, project.project.id, active, page),
    );
    return rows.map(({ schedule, owner }) => presentPipelineSchedule(schedule, owner, baseUrl));
  });

  app.get('/projects/:id/pipeline_schedules/:schedule_id', async (request) => {
    const project = await loadReadable(deps, request);
    return details(project, await scheduleOf(request, project));
  });

  app.get('/projects/:id/pipeline_schedules/:schedule_id/pipelines', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const schedule = await scheduleOf(request, project);
    const sort =
      optionalOneOf(requestParams(request), 'sort', ['asc', 'desc'], () => paramValueInvalid('sort')) ??
      'asc';
    const pipelines = await paginate(
      request,
      reply,
      baseUrl,
      () => countScheduledPipelines(deps, schedule.id),
      (page) => scheduledPipelines(deps, schedule.id, sort, page),
    );
    return pipelines.map((pipeline) => presentPipelineBasic(pipeline, project, baseUrl));
  });

  app.post('/projects/:id/pipeline_schedules', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'description', 'ref', 'cron');
    const project = await loadReadable(deps, request);
    if (!canCreatePipelineSchedules(project.access, project)) throw forbidden();
    const given = scheduleFields(params);
    const schedule = await createPipelineSchedule(deps, project.project.id, requireViewer(request).id, {
      description: given.description!,
      ref: given.ref!,
      cron: given.cron!,
      cron_timezone: given.cron_timezone ?? 'UTC',
      active: given.active ?? true,
    });
    return reply.status(201).send(await details(project, schedule));
  });

  app.put('/projects/:id/pipeline_schedules/:schedule_id', async (request) => {
    const { project, schedule } = await administered(request);
    const changed = await changePipelineSchedule(deps, schedule, scheduleFields(requestParams(request)));
    return details(project, changed);
  });

  app.post('/projects/:id/pipeline_schedules/:schedule_id/take_ownership', async (request, reply) => {
    const { project, schedule } = await administered(request);
    const viewerId = requireViewer(request).id;
    // Already the owner: 200, as GitLab answers.
    if (schedule.owner_id === viewerId) return details(project, schedule);
    const changed = await changePipelineSchedule(deps, schedule, { owner_id: viewerId });
    return reply.status(201).send(await details(project, changed));
  });

  app.delete('/projects/:id/pipeline_schedules/:schedule_id', async (request, reply) => {
    const { schedule } = await administered(request);
    await deletePipelineSchedule(deps, schedule);
    return noContent(reply);
  });

  app.post('/projects/:id/pipeline_schedules/:schedule_id/play', async (request, reply) => {
    const project = await loadReadable(deps, request);
    const schedule = await scheduleOf(request, project);
    if (!canCreatePipelineSchedules(project.access, project)) throw forbidden();
    await playPipelineSchedule(deps, project, schedule, requireViewer(request).id);
    return reply.status(201).send({ message: '201 Created' });
  });

  app.post('/projects/:id/pipeline_schedules/:schedule_id/variables', async (request, reply) => {
    const params = requestParams(request);
    requireParams(params, 'key', 'value');
    const { schedule } = await administered(request);
    const variable = await addScheduleVariable(deps, schedule, {
      key: optionalString(params, 'key')!,
      value: optionalString(params, 'value')!,
      variable_type: optionalString(params, 'variable_type'),
    });
    return reply.status(201).send(presentScheduleVariable(variable));
  });

  app.put('/projects/:id/pipeline_schedules/:schedule_id/variables/:key', async (request) => {
    const params = requestParams(request);
    const { schedule } = await administered(request);
    const variable = await loadScheduleVariableOr404(deps, schedule, optionalString(params, 'key')!);
    const value = optionalString(params, 'value');
    const variableType = optionalString(params, 'variable_type');
    const changed = await changeScheduleVariable(deps, variable, {
      ...(value === undefined ? {} : { value }),
      ...(variableType === undefined ? {} : { variable_type: variableType }),
    });
    return presentScheduleVariable(changed);
  });

  app.delete('/projects/:id/pipeline_schedules/:schedule_id/variables/:key', async (request, reply) => {
    const { schedule } = await administered(request);
    const variable = await loadScheduleVariableOr404(
      deps,
      schedule,
      optionalString(requestParams(request), 'key')!,
    );
    await deleteScheduleVariable(deps, variable);
    return reply.status(202).send(presentScheduleVariable(variable));
  });
}
