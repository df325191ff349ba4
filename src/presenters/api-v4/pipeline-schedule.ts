// Entities::Ci::PipelineSchedule (lists) and PipelineScheduleDetails (one: with its newest pipeline as
// PipelineBasic and its variables as Entities::Ci::Variable), keys in GitLab's order.
import type {
  CiPipelineRow,
  CiPipelineScheduleRow,
  CiPipelineScheduleVariableRow,
  ProjectRecord,
  UserRow,
} from '../../db/types.ts';
import { presentPipelineBasic } from './pipeline.ts';
import { presentUserBasic } from './user.ts';

export function presentPipelineSchedule(
  schedule: CiPipelineScheduleRow,
  owner: UserRow | null,
  baseUrl: string,
) {
  return {
    id: schedule.id,
    description: schedule.description,
    ref: schedule.ref,
    cron: schedule.cron,
    cron_timezone: schedule.cron_timezone,
    next_run_at: schedule.next_run_at,
    active: schedule.active === 1,
    created_at: schedule.created_at,
    updated_at: schedule.updated_at,
    owner: owner ? presentUserBasic(owner, baseUrl) : null,
  };
}

export function presentScheduleVariable(variable: CiPipelineScheduleVariableRow) {
  return { variable_type: variable.variable_type, key: variable.key, value: variable.value };
}

export function presentPipelineScheduleDetails(
  details: {
    schedule: CiPipelineScheduleRow;
    owner: UserRow | null;
    lastPipeline: CiPipelineRow | null;
    variables: CiPipelineScheduleVariableRow[];
  },
  record: ProjectRecord,
  baseUrl: string,
) {
  return {
    ...presentPipelineSchedule(details.schedule, details.owner, baseUrl),
    last_pipeline: details.lastPipeline ? presentPipelineBasic(details.lastPipeline, record, baseUrl) : null,
    variables: details.variables.map(presentScheduleVariable),
  };
}
