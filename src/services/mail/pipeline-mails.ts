// The mail about a finished pipeline, to the person who ran it (the pusher, the trigger's or schedule's
// owner, who pressed Run), with GitLab 8.13's pipeline_failed_email / pipeline_success_email subject,
// headers and text. Who gets it follows today's GitLab: a failed pipeline at every level but `disabled`
// and `mention`, a successful one only at `custom` with `success_pipeline` on (`custom` decides the
// failed one by `failed_pipeline`). The CI transaction records the event; the worker expands it.
import type { Deps } from '../../deps.ts';
import { findPipeline } from '../../db/repositories/pipelines.ts';
import { pipelineRows } from '../../db/repositories/builds.ts';
import { findProjectRecordById } from '../../db/repositories/projects.ts';
import { findUserById } from '../../db/repositories/users.ts';
import { accessRowsOfUsers, settingsFor } from '../../db/repositories/notification-settings.ts';
import { projectAccessFromRows } from '../../policies/access.ts';
import { canReadBuilds } from '../../policies/ci.ts';
import { buildPath, commitWebUrl, pipelinePath, projectFullPath, projectUrls } from '../../domain/paths.ts';
import { readTraceRange, traceLength, tracePath } from '../../storage/traces.ts';
import { effectiveSetting } from './recipients.ts';
import { queueMails, recordMailEventWhileOn } from './mail-outbox.ts';
import type { CiBuildRow, CiPipelineRow, Executor } from '../../db/types.ts';

interface PipelineMailEvent {
  kind: 'pipeline';
  pipelineId: number;
  status: 'failed' | 'success';
}

/** In the CI transaction of a status change: a pipeline that just failed or succeeded may cause mail. */
export async function mailPipelineFinished(
  trx: Executor,
  pipeline: CiPipelineRow,
  at: string,
): Promise<void> {
  if (pipeline.status !== 'failed' && pipeline.status !== 'success') return;
  if (pipeline.user_id === null) return;
  const event: PipelineMailEvent = { kind: 'pipeline', pipelineId: pipeline.id, status: pipeline.status };
  await recordMailEventWhileOn(trx, event, at);
}

export function isPipelineMailEvent(payload: { kind?: unknown }): boolean {
  return payload.kind === 'pipeline';
}

/** 8.13 showed each failed build's last 10 trace lines (at most 4 KiB read from the end). */
async function traceTail(deps: Deps, build: CiBuildRow): Promise<string> {
  const file = tracePath(deps.config.dataDir, build);
  const length = await traceLength(file);
  if (length === 0) return '';
  const start = Math.max(0, length - 4096);
  const text = (await readTraceRange(file, start, 4096)).toString('utf8');
  // eslint-disable-next-line no-control-regex -- the terminal's colour codes
  const plain = text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r/g, '');
  return plain.trimEnd().split('\n').slice(-10).join('\n');
}

/** The newest build of each name (a retried one replaces the one before it). */
function latestBuilds(rows: CiBuildRow[]): CiBuildRow[] {
  const byName = new Map<string, CiBuildRow>();
  for (const row of rows) if ((byName.get(row.name)?.id ?? 0) < row.id) byName.set(row.name, row);
  return [...byName.values()].sort((a, b) => a.id - b.id);
}

export async function expandPipelineMail(
  trx: Executor,
  deps: Deps,
  eventId: number,
  payloadJson: string,
): Promise<number> {
  const event = JSON.parse(payloadJson) as PipelineMailEvent;
  const pipeline = await findPipeline(trx, event.pipelineId);
  if (!pipeline || pipeline.user_id === null) return 0;
  const [record, user] = await Promise.all([
    findProjectRecordById(trx, pipeline.project_id),
    findUserById(trx, pipeline.user_id),
  ]);
  if (!record || !user || user.state !== 'active') return 0;
  const projectId = record.project.id;
  const groupId = record.namespace.type === 'Group' ? record.namespace.id : null;
  const [settings, accessRows] = await Promise.all([
    settingsFor(trx, [user.id], projectId, groupId),
    accessRowsOfUsers(trx, [user.id], projectId, groupId),
  ]);
  const { level, events } = effectiveSetting(settings, user.id, projectId, groupId);
  const wanted =
    level === 'custom'
      ? events.has(event.status === 'failed' ? 'failed_pipeline' : 'success_pipeline')
      : event.status === 'failed' && level !== 'disabled' && level !== 'mention';
  if (!wanted || !canReadBuilds(projectAccessFromRows(user, record, accessRows), record.project)) return 0;

  const base = deps.config.externalUrl;
  const fullPath = projectFullPath(record);
  const shortSha = pipeline.sha.slice(0, 8);
  const said = event.status === 'failed' ? 'failed' : 'succeeded';
  const pipelineUrl = `${base}${pipelinePath(fullPath, pipeline.id)}`;
  const paragraphs = [
    `Your pipeline has ${said}.`,
    [
      `Project: ${record.project.name} ( ${projectUrls(base, record).webUrl} )`,
      `Branch: ${pipeline.ref} ( ${base}/${fullPath}/commits/${encodeURIComponent(pipeline.ref)} )`,
    ].join('\n'),
    [
      `Commit: ${shortSha} ( ${commitWebUrl(base, record, pipeline.sha)} )`,
      `Commit Message: ${truncate(pipeline.commit_message ?? '', 50)}`,
      `Commit Author: ${pipeline.commit_author_name ?? ''}`,
    ].join('\n'),
  ];
  if (event.status === 'failed') {
    const failed = latestBuilds(await pipelineRows(trx, pipeline.id)).filter(
      (row) => row.status === 'failed',
    );
    const noun = failed.length === 1 ? 'build' : 'builds';
    paragraphs.push(`Pipeline #${pipeline.id} ( ${pipelineUrl} ) had ${failed.length} failed ${noun}.`);
    for (const build of failed) {
      const lines = [
        `Build #${build.id} ( ${base}${buildPath(fullPath, build.id)} )`,
        `Stage: ${build.stage ?? ''}`,
        `Name: ${build.name}`,
      ];
      const tail = await traceTail(deps, build);
      if (tail) lines.push(`Trace: ${tail}`);
      paragraphs.push(lines.join('\n'));
    }
  } else {
    paragraphs.push(`Pipeline #${pipeline.id} ( ${pipelineUrl} ) successfully completed.`);
  }
  return queueMails(trx, deps, `event-${eventId}`, [user], () => ({
    subject: `${record.project.name} | Pipeline #${pipeline.id} has ${said} for ${pipeline.ref} | ${shortSha}`,
    paragraphs,
    url: pipelineUrl,
    headers: {
      'X-GitLab-Project': record.project.name,
      'X-GitLab-Project-Path': fullPath,
      'X-GitLab-Pipeline-Id': String(pipeline.id),
      'X-GitLab-Pipeline-Ref': pipeline.ref,
      'X-GitLab-Pipeline-Status': pipeline.status,
    },
  }));
}

/** Rails' String#truncate: at most `length` characters, the last three `...` when cut. */
function truncate(text: string, length: number): string {
  const line = text.trim();
  return line.length <= length ? line : `${line.slice(0, length - 3)}...`;
}
