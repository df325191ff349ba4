// A CI status as the pages show it (a symbol and the word, coloured by class), and the pipeline status
// line of the commit and branch pages.
import { pipelinePath } from '../../domain/paths.ts';
import type { CiStatus } from '../../domain/types.ts';

export const pipelineUrl = (project: { path_with_namespace: string }, id: number) =>
  pipelinePath(project.path_with_namespace, id);

/** The symbol beside each status (the word is always there too, for readers and screen readers). */
const STATUS_ICONS: Record<CiStatus, string> = {
  created: '◌',
  pending: '◔',
  running: '◑',
  success: '✓',
  failed: '✗',
  canceled: '⊘',
  skipped: '»',
  scheduled: '◷',
};

export function CiStatusBadge(props: { status: string; href?: string }) {
  const status = props.status as CiStatus;
  const body = (
    <>
      <span aria-hidden="true">{STATUS_ICONS[status] ?? '•'}</span> {props.status}
    </>
  );
  const cls = `ci-status ci-${props.status}`;
  return props.href ? (
    <a class={cls} href={props.href}>
      {body}
    </a>
  ) : (
    <span class={cls}>{body}</span>
  );
}

/** The pipeline status of a commit or branch, linked to the pipeline. */
export function PipelineStatusLink(props: {
  project: { path_with_namespace: string };
  pipeline: { id: number; status: string };
}) {
  return (
    <span>
      Pipeline{' '}
      <CiStatusBadge status={props.pipeline.status} href={pipelineUrl(props.project, props.pipeline.id)} />{' '}
      <a href={pipelineUrl(props.project, props.pipeline.id)}>#{props.pipeline.id}</a>
    </span>
  );
}
