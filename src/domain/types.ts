// Shared value types in GitLab's words (lib/gitlab/access.rb, visibility_level.rb, the Event model).

export const AccessLevel = {
  NoAccess: 0,
  Guest: 10,
  Reporter: 20,
  Developer: 30,
  Master: 40,
  Owner: 50,
} as const;
export type AccessLevel = (typeof AccessLevel)[keyof typeof AccessLevel];

export const Visibility = { Private: 0, Internal: 10, Public: 20 } as const;
export type Visibility = (typeof Visibility)[keyof typeof Visibility];

export type VisibilityName = 'private' | 'internal' | 'public';

/** Gitlab::VisibilityLevel's names by level: the words of messages, hook payloads and `?visibility=`. */
export const VISIBILITY_NAMES: Readonly<Record<number, VisibilityName>> = {
  [Visibility.Private]: 'private',
  [Visibility.Internal]: 'internal',
  [Visibility.Public]: 'public',
};

/** The level a visibility word names (case-insensitive), or undefined for any other word. */
export function visibilityLevel(name: string): Visibility | undefined {
  switch (name.trim().toLowerCase()) {
    case 'private':
      return Visibility.Private;
    case 'internal':
      return Visibility.Internal;
    case 'public':
      return Visibility.Public;
    default:
      return undefined;
  }
}

/** The name of a stored level; a level between the three counts as the one below it, as GitLab compares. */
export function visibilityName(level: number): VisibilityName {
  return level >= Visibility.Public ? 'public' : level >= Visibility.Internal ? 'internal' : 'private';
}

/** The all-zero object id: git's "no object" on either side of a ref change (created or deleted). */
export const BLANK_SHA = '0000000000000000000000000000000000000000';

export type UserState = 'active' | 'blocked' | 'ldap_blocked';

/** GitLab's Event action codes. */
export const EventAction = {
  Created: 1,
  Updated: 2,
  Closed: 3,
  Reopened: 4,
  Pushed: 5,
  Commented: 6,
  Merged: 7,
  Joined: 8,
  Left: 9,
  Destroyed: 10,
} as const;
export type EventAction = (typeof EventAction)[keyof typeof EventAction];

/** GitLab's Todo action codes. */
export const TodoAction = {
  Assigned: 1,
  Mentioned: 2,
  BuildFailed: 3,
  Marked: 4,
  ApprovalRequired: 5,
} as const;
export type TodoAction = (typeof TodoAction)[keyof typeof TodoAction];

/** The polymorphic type names of issues and merge requests (noteable_type, target_type, todos, events). */
export const ISSUE = 'Issue';
export const MERGE_REQUEST = 'MergeRequest';

/** Statuses of builds and pipelines (GitLab 8.13 had no `manual`: a manual job waits as `skipped`). */
/**
 * What made a pipeline (GitLab's `source`, `CI_PIPELINE_SOURCE`): a push, a trigger token, the API or a
 * page, a schedule, a merge request, an external commit status.
 */
export type PipelineSource =
  'push' | 'web' | 'trigger' | 'api' | 'schedule' | 'merge_request_event' | 'external';

export type CiStatus =
  | 'created'
  | 'pending'
  | 'running'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped'
  /** A `when: delayed` job waiting for its scheduled_at. */
  | 'scheduled';

/** When a job runs once the stages before it have finished. */
export type CiWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';

/** Ci::Runner#status: never contacted, paused, or online when it called within the last hour. */
export type RunnerStatus = 'not_connected' | 'paused' | 'online' | 'offline';
