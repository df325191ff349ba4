// v4's Event entity (lib/api/entities/event.rb): id, target_iid, push_data (PushEventPayload, from the
// push event's stored payload) instead of v3's title and data.
import { actionName } from '../api-v3/event.ts';
import { presentUserBasic } from './user.ts';
import { BLANK_SHA, EventAction } from '../../domain/types.ts';
import { commitTitle } from '../../domain/titles.ts';
import type { EventView } from '../../views/event-views.ts';

interface PushData {
  before?: string;
  after?: string;
  ref?: string;
  total_commits_count?: number;
  commits?: Array<{ message?: string }>;
}

function presentPushData(data: PushData) {
  const created = data.before === BLANK_SHA;
  const removed = data.after === BLANK_SHA;
  const ref = data.ref ?? '';
  const isTag = ref.startsWith('refs/tags/');
  const newest = data.commits?.at(-1)?.message;
  return {
    commit_count: data.total_commits_count ?? data.commits?.length ?? 0,
    action: created ? 'created' : removed ? 'removed' : 'pushed',
    ref_type: isTag ? 'tag' : 'branch',
    commit_from: created || data.before === undefined ? null : data.before,
    commit_to: removed || data.after === undefined ? null : data.after,
    ref: ref.replace(/^refs\/(heads|tags)\//, ''),
    commit_title: newest === undefined ? null : commitTitle(newest),
    ref_count: null,
  };
}

export function presentEvent(view: EventView, baseUrl: string) {
  const { event, author } = view;
  const data = event.data === null ? null : (JSON.parse(event.data) as Record<string, unknown>);
  return {
    id: event.id,
    project_id: event.project_id,
    action_name: actionName(event, data, view.imported),
    target_id: event.target_id,
    target_iid: view.targetIid,
    target_type: event.target_type,
    author_id: event.author_id,
    target_title: view.targetTitle ?? null,
    created_at: event.created_at,
    ...(view.note ? { note: view.note } : {}),
    ...(author ? { author: presentUserBasic(author, baseUrl) } : {}),
    ...(event.action === EventAction.Pushed && data ? { push_data: presentPushData(data as PushData) } : {}),
    author_username: author?.username ?? null,
    imported: false,
    imported_from: 'none',
  };
}
