// Build and pipeline hooks (`build_events`, `pipeline_events`): the payload is built in the transaction of
// the status change and goes to the outbox with it. Which of the two the project's hooks want is read once
// per transaction, so a project without CI hooks pays one small read and builds no payload.
import { findUserById, usersByIds } from '../../db/repositories/users.ts';
import { projectHookSwitchesOn } from '../../db/repositories/project-hooks.ts';
import { pipelineRows } from '../../db/repositories/builds.ts';
import { runnersByIds } from '../../db/repositories/runners.ts';
import { presentBuildHook, presentPipelineHook } from '../../presenters/hooks/ci-hook-payloads.ts';
import { enqueueProjectHooks } from '../hooks/hook-outbox.ts';
import { mailPipelineFinished } from '../mail/pipeline-mails.ts';
import type { Config } from '../../config.ts';
import type {
  CiBuildRow,
  CiPipelineRow,
  Executor,
  ProjectHookScope,
  ProjectRecord,
  UserRow,
} from '../../db/types.ts';

/** What of the configuration a CI transaction reads: link bases and whether mail is on. */
export type CiSettings = Pick<Config, 'externalUrl' | 'mail'>;

/** What every CI status change in one transaction shares. */
export interface CiTransaction {
  trx: Executor;
  at: string;
  baseUrl: string;
  /** Whether a finished pipeline records its mail (LABRADOR_SMTP_URL is set). */
  mailOn: boolean;
  record: ProjectRecord;
  hooks: Set<ProjectHookScope>;
  /** Users read in this transaction (build users, the namespace owner). */
  users: Map<number, UserRow | null>;
}

export async function openCiTransaction(
  trx: Executor,
  settings: CiSettings,
  record: ProjectRecord,
  at: string,
): Promise<CiTransaction> {
  const hooks = await projectHookSwitchesOn(trx, record.project.id, [
    'build_events',
    'pipeline_events',
    'deployment_events',
  ]);
  const mailOn = settings.mail.smtpUrl !== undefined;
  return { trx, at, baseUrl: settings.externalUrl, mailOn, record, hooks, users: new Map() };
}

async function user(ctx: CiTransaction, id: number | null): Promise<UserRow | null> {
  if (id === null) return null;
  if (!ctx.users.has(id)) ctx.users.set(id, (await findUserById(ctx.trx, id)) ?? null);
  return ctx.users.get(id)!;
}

export async function announceBuild(
  ctx: CiTransaction,
  pipeline: CiPipelineRow,
  build: CiBuildRow,
): Promise<void> {
  if (!ctx.hooks.has('build_events')) return;
  const { namespace } = ctx.record;
  const owner = namespace.type === 'Group' ? null : await user(ctx, namespace.owner_id);
  const payload = presentBuildHook({
    baseUrl: ctx.baseUrl,
    record: ctx.record,
    owner,
    pipeline,
    build,
    user: await user(ctx, build.user_id),
    now: ctx.at,
  });
  await enqueueProjectHooks(ctx.trx, ctx.record.project.id, 'build_events', payload);
}

export async function announcePipeline(ctx: CiTransaction, pipeline: CiPipelineRow): Promise<void> {
  if (ctx.mailOn) await mailPipelineFinished(ctx.trx, pipeline, ctx.at);
  if (!ctx.hooks.has('pipeline_events')) return;
  const rows = await pipelineRows(ctx.trx, pipeline.id);
  const userIds = rows.map((row) => row.user_id).filter((id): id is number => id !== null);
  const runnerIds = rows.map((row) => row.runner_id).filter((id): id is number => id !== null);
  const users = await usersByIds(ctx.trx, userIds);
  const runners = await runnersByIds(ctx.trx, runnerIds);
  const payload = presentPipelineHook({
    baseUrl: ctx.baseUrl,
    record: ctx.record,
    pipeline,
    user: await user(ctx, pipeline.user_id),
    rows,
    users,
    runners,
  });
  await enqueueProjectHooks(ctx.trx, ctx.record.project.id, 'pipeline_events', payload);
}
