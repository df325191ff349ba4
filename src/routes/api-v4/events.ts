// v4's events (lib/api/events.rb): the caller's own (GET /events), a project's, a user's (GET
// /users/:id/events; limited to projects the caller can see), paginated, in v4's Event entity: v3's
// routes with v4's presenter and v4's filters (EventsHelpers: action, target_type, before, after, sort),
// which the events repository applies in SQL on the list's index walk.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { EventFilter } from '../../db/repositories/events.ts';
import { EventAction } from '../../domain/types.ts';
import { grapeError } from '../../errors.ts';
import { optionalString, requestParams } from '../../http/params.ts';
import { presentEvent } from '../../presenters/api-v4/event.ts';
import { registerEventLists } from '../api-v3/events.ts';

/** GitLab's Event.actions and their codes; `expired` and `approved` are valid words nothing here records. */
const ACTIONS: Readonly<Record<string, number>> = {
  created: EventAction.Created,
  updated: EventAction.Updated,
  closed: EventAction.Closed,
  reopened: EventAction.Reopened,
  pushed: EventAction.Pushed,
  commented: EventAction.Commented,
  merged: EventAction.Merged,
  joined: EventAction.Joined,
  left: EventAction.Left,
  destroyed: EventAction.Destroyed,
  expired: 11,
  approved: 12,
};

/** GitLab's Event.target_types (read case-insensitively) and the target_type each stores. */
const TARGET_TYPES: Readonly<Record<string, string>> = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
};

/** A `YYYY-MM-DD` day that exists, as that text; else undefined. */
function calendarDay(text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const day = new Date(`${text}T00:00:00.000Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? undefined : text;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * v4's event filters, or 400 with Grape's words for each bad one joined by ", " (`action does not have
 * a valid value`, `before is invalid`). `before`: created before that day (UTC); `after`: created after
 * that day ended, as EventsFinder's beginning_of_day / end_of_day.
 */
function readEventFilter(request: FastifyRequest): EventFilter {
  const params = requestParams(request);
  const problems: string[] = [];
  const filter: EventFilter = { order: 'desc' };
  const action = optionalString(params, 'action');
  if (action !== undefined) {
    if (Object.hasOwn(ACTIONS, action)) filter.action = ACTIONS[action];
    else problems.push('action does not have a valid value');
  }
  const targetType = optionalString(params, 'target_type')?.toLowerCase();
  if (targetType !== undefined) {
    if (Object.hasOwn(TARGET_TYPES, targetType)) filter.targetType = TARGET_TYPES[targetType];
    else problems.push('target_type does not have a valid value');
  }
  for (const name of ['before', 'after'] as const) {
    const text = optionalString(params, name);
    if (text === undefined) continue;
    const day = calendarDay(text);
    if (day === undefined) problems.push(`${name} is invalid`);
    else if (name === 'before') filter.createdBefore = day;
    else filter.createdFrom = nextDay(day);
  }
  const sort = optionalString(params, 'sort');
  if (sort === 'asc' || sort === 'desc') filter.order = sort;
  else if (sort !== undefined) problems.push('sort does not have a valid value');
  if (problems.length > 0) throw grapeError(400, problems.join(', '));
  return filter;
}

export function register(app: FastifyInstance, deps: Deps): void {
  const baseUrl = deps.config.externalUrl;
  registerEventLists(
    app,
    deps,
    (view) => presentEvent(view, baseUrl),
    [
      { path: '/events', own: true },
      { path: '/users/:id/events', own: false },
    ],
    readEventFilter,
  );
}
