// The task boxes' post (presenters/html/discussion.tsx's Description, assets/task-list.ts): one box from
// script (`task_index`, `checked`) or every ticked box from the form (`task[]`), with the version of the
// description the page was drawn from (`lock_version`). Script asks for JSON and gets the new version.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { optionalString, optionalStringList, type Params } from '../../http/params.ts';
import { ApiError } from '../../errors.ts';
import type { TaskChange } from '../../services/issues/tasks.ts';

export function taskChange(params: Params): { version: string; change: TaskChange } {
  const version = optionalString(params, 'lock_version') ?? '';
  const index = optionalString(params, 'task_index');
  if (index !== undefined) {
    const position = /^\d{1,6}$/.test(index) ? Number(index) : -1;
    return { version, change: { index: position, checked: optionalString(params, 'checked') === '1' } };
  }
  const ticked = (optionalStringList(params, 'task') ?? [])
    .filter((value) => /^\d{1,6}$/.test(value))
    .map(Number);
  return { version, change: { checked: ticked } };
}

export function wantsJson(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('application/json');
}

/** Script's answer: the new version, or the refusal as JSON with its status. */
export function sendTaskAnswer(reply: FastifyReply, result: { updated_at: string } | ApiError) {
  if (result instanceof ApiError) return reply.code(result.status).send(result.body);
  return reply.send({ lock_version: result.updated_at });
}
