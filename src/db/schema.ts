// The Kysely view of every table. Conventions that keep SQLite and PostgreSQL interchangeable:
// timestamps are ISO 8601 UTC text with milliseconds (they sort as text), booleans are integers 0/1,
// ids are 32-bit integers (serial on PostgreSQL, so they come back as numbers on both engines).
import type { Generated } from 'kysely';
import type { CiStatus, CiWhen, PipelineSource } from '../domain/types.ts';

export type Bool = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  /** The uploaded avatar's file name (migration 123), null when none. */
  avatar: string | null;
  encrypted_password: string;
  authentication_token: string;
  state: string;
  admin: Bool;
  external: Bool;
  can_create_group: Bool;
  projects_limit: number;
  bio: string | null;
  location: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  organization: string | null;
  theme_id: number;
  color_scheme_id: number;
  two_factor_enabled: Bool;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  current_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface IdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  extern_uid: string;
  created_at: string;
}

export interface KeysTable {
  id: Generated<number>;
  /** The owner of a personal key; null for deploy keys. */
  user_id: number | null;
  title: string;
  key: string;
  fingerprint: string;
  /** The unpadded base64 SHA-256 of the key blob (ssh-keygen's `SHA256:…`); null only for a blob-less text. */
  fingerprint_sha256: string | null;
  created_at: string;
  updated_at: string;
  /** 'DeployKey' for deploy keys, null for personal keys (GitLab's single-table inheritance). */
  type: string | null;
  /** Public deploy keys may be enabled on any project (administrators made them in GitLab). */
  public: Generated<Bool>;
}

export interface DeployKeysProjectsTable {
  id: Generated<number>;
  deploy_key_id: number;
  project_id: number;
  created_at: string;
  updated_at: string;
}

export interface EmailsTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  created_at: string;
}

/** Personal namespaces (type null, owner_id = the user) and groups (type 'Group'). */
export interface NamespacesTable {
  id: Generated<number>;
  name: string;
  path: string;
  owner_id: number | null;
  type: string | null;
  description: string;
  visibility_level: number;
  request_access_enabled: Bool;
  lfs_enabled: Bool;
  share_with_group_lock: Bool;
  /** A group's uploaded avatar's file name (migration 123), null when none. */
  avatar: string | null;
  created_at: string;
  updated_at: string;
}

/** Single-row application state (the shared runners token and the like), as key/value pairs. */
export interface SettingsTable {
  key: string;
  value: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  namespace_id: number;
  creator_id: number | null;
  name: string;
  path: string;
  description: string | null;
  /** null until the first push; presented as the repository HEAD ('master') meanwhile. */
  default_branch: string | null;
  visibility_level: number;
  archived: Bool;
  issues_enabled: Bool;
  merge_requests_enabled: Bool;
  wiki_enabled: Bool;
  builds_enabled: Bool;
  snippets_enabled: Bool;
  container_registry_enabled: Bool;
  shared_runners_enabled: Bool;
  public_builds: Bool;
  lfs_enabled: Bool;
  only_allow_merge_if_build_succeeds: Bool;
  request_access_enabled: Bool;
  runners_token: string;
  /** Counter cache kept by star/unstar in the same transaction as the users_star_projects row. */
  star_count: number;
  import_url: string | null;
  avatar: string | null;
  last_activity_at: string;
  created_at: string;
  updated_at: string;
  /** Seconds a build may run (GitLab's default: one hour). */
  build_timeout: Generated<number>;
  /** Runners may fetch into an existing checkout instead of cloning afresh. */
  build_allow_git_fetch: Generated<Bool>;
  /** Applied to a finished build's trace; the last match's first number is its coverage. */
  build_coverage_regex: Generated<string | null>;
  /** The project's topic names in order, a JSON array (migration 096). */
  topic_list: Generated<string>;
}

/** Project and group memberships: source_type 'Project' (source_id = projects.id) or 'Namespace' (groups). */
export interface MembersTable {
  id: Generated<number>;
  source_type: 'Project' | 'Namespace';
  source_id: number;
  user_id: number;
  access_level: number;
  /** YYYY-MM-DD; the membership stops counting on that day. */
  expires_at: string | null;
  notification_level: number | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A project shared with a group: the group's members get min(their level, group_access). */
export interface ProjectGroupLinksTable {
  id: Generated<number>;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface UsersStarProjectsTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  created_at: string;
  updated_at: string;
}

export interface ForkedProjectLinksTable {
  id: Generated<number>;
  forked_to_project_id: number;
  forked_from_project_id: number;
  created_at: string;
  updated_at: string;
}

/** Activity: action codes as GitLab's Event constants; data is JSON text. */
export interface EventsTable {
  id: Generated<number>;
  project_id: number | null;
  author_id: number;
  action: number;
  target_id: number | null;
  target_type: string | null;
  title: string | null;
  data: string | null;
  created_at: string;
  updated_at: string;
}

/** A protected-branch rule: an exact branch name or a pattern with `*` wildcards. */
export interface ProtectedBranchesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  developers_can_push: Bool;
  developers_can_merge: Bool;
  created_at: string;
  updated_at: string;
}

/** One git push: recorded before receive-pack runs, processed (events, hooks, CI) after. */
export interface PushesTable {
  id: Generated<number>;
  project_id: number;
  user_id: number | null;
  /** JSON `[{before, after, ref}]` as the client sent them. */
  changes: string;
  status: 'pending' | 'processed';
  /** JSON `[{before, after, ref}]` of the updates that really happened (once processed). */
  applied_changes: string | null;
  created_at: string;
  processed_at: string | null;
  /** GitLab's `ci.skip` push option: no pipelines (migration 117). */
  ci_skip: Generated<Bool>;
}

export interface ProjectHooksTable {
  id: Generated<number>;
  project_id: number;
  url: string;
  push_events: Bool;
  issues_events: Bool;
  confidential_issues_events: Bool;
  merge_requests_events: Bool;
  tag_push_events: Bool;
  note_events: Bool;
  build_events: Bool;
  pipeline_events: Bool;
  wiki_page_events: Bool;
  /** Today's deployment hooks (migration 122); v3 never shows it. */
  deployment_events: Generated<Bool>;
  enable_ssl_verification: Bool;
  created_at: string;
  updated_at: string;
}

export interface SystemHooksTable {
  id: Generated<number>;
  url: string;
  push_events: Bool;
  tag_push_events: Bool;
  enable_ssl_verification: Bool;
  created_at: string;
  updated_at: string;
}

export type HookKind = 'project' | 'system';
export type HookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The webhook outbox (one row per hook and event); see migrations/004-hooks.ts. */
export interface HookDeliveriesTable {
  id: Generated<number>;
  hook_kind: HookKind;
  hook_id: number;
  /** The X-Gitlab-Event header: "Push Hook", "System Hook", … */
  event: string;
  /** The JSON body, as sent. */
  payload: string;
  status: HookDeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface HookDeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  worker: string;
}

/** A project create's claim on a repository directory, from before the directory exists until it commits. */
export interface RepositoryCreationsTable {
  id: Generated<number>;
  token: string;
  /** Relative to the data dir: `repositories/<namespace>/<project>.git`. */
  disk_path: string;
  created_at: string;
}

/** A runner: shared (any project with shared runners on) or specific (assigned to projects). */
export interface CiRunnersTable {
  id: Generated<number>;
  token: string;
  description: string | null;
  is_shared: Bool;
  active: Bool;
  /** A locked specific runner cannot be enabled for other projects. */
  locked: Bool;
  /** Whether it takes builds that name no tags. */
  run_untagged: Bool;
  /** JSON array of tag names. */
  tag_list: string;
  name: string | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  contacted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CiRunnerProjectsTable {
  id: Generated<number>;
  runner_id: number;
  project_id: number;
  created_at: string;
  updated_at: string;
}

/** A project's build trigger (POST /projects/:id/trigger/builds with its token). */
/** A project's snippet (`ProjectSnippet`) or a user's own (`PersonalSnippet`, no project). */
export interface SnippetsTable {
  id: Generated<number>;
  title: string;
  content: string;
  description: string | null;
  author_id: number;
  project_id: number | null;
  file_name: string;
  type: 'ProjectSnippet' | 'PersonalSnippet';
  visibility_level: number;
  created_at: string;
  updated_at: string;
}

export interface CiPipelineSchedulesTable {
  id: Generated<number>;
  project_id: number;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  next_run_at: string;
  active: number;
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface CiPipelineScheduleVariablesTable {
  id: Generated<number>;
  pipeline_schedule_id: number;
  key: string;
  value: string;
  variable_type: string;
  created_at: string;
  updated_at: string;
}

/** Where a project deploys (migration 122): created on a job's first deployment or through the API. */
export interface EnvironmentsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  /** CI_ENVIRONMENT_SLUG: fixed at creation, kept through renames. */
  slug: string;
  external_url: string | null;
  /** The first segment of a name with a `/` (review/…), else null. */
  environment_type: string | null;
  /** `available` or `stopped`. */
  state: Generated<string>;
  /** production, staging, testing, development or other; null: guessed from the name. */
  tier: string | null;
  created_at: string;
  updated_at: string;
}

/** One deployment to an environment: by a job that succeeded, or through the v4 API. */
export interface DeploymentsTable {
  id: Generated<number>;
  project_id: number;
  environment_id: number;
  iid: number;
  ref: string;
  tag: Bool;
  sha: string;
  user_id: number | null;
  /** The job that deployed (null for an API deployment, or once the job is gone). */
  deployable_id: number | null;
  /** The manual job of the same pipeline that stops the environment. */
  on_stop: string | null;
  /** created, running, success, failed, canceled. */
  status: string;
  created_at: string;
  updated_at: string;
}

/** A pipeline's own variables (the API's and a schedule's), `env_var` or `file`. */
export interface CiPipelineVariablesTable {
  id: Generated<number>;
  pipeline_id: number;
  key: string;
  value: string;
  variable_type: string;
  created_at: string;
}

/** A job's report artifacts (junit, dotenv …), one per type; the archive stays on ci_builds. */
export interface CiJobArtifactsTable {
  id: Generated<number>;
  project_id: number;
  job_id: number;
  /** The runner's artifact_type (`junit`, `dotenv`, `cobertura` …). */
  file_type: string;
  /** `gzip`, `raw` or `zip`, as uploaded. */
  file_format: string;
  /** The stored file's (sanitized) name. */
  file: string;
  size: number;
  /** A dotenv report's variables, JSON [[key, value]…]; null for other types. */
  dotenv_variables: string | null;
  expire_at: string | null;
  created_at: string;
}

export interface CiTriggersTable {
  id: Generated<number>;
  project_id: number;
  token: string;
  /** v4's: what the trigger is for, and whose pipelines it runs (null: made through v3). */
  description: Generated<string | null>;
  owner_id: Generated<number | null>;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CiTriggerRequestsTable {
  id: Generated<number>;
  trigger_id: number;
  pipeline_id: number | null;
  /** JSON object {KEY: value}: variables the trigger call passed. */
  variables: string | null;
  created_at: string;
  updated_at: string;
}

/** A pipeline: the builds of one commit on one ref (GitLab's ci_commits). */
export interface CiPipelinesTable {
  id: Generated<number>;
  project_id: number;
  /** Branch or tag name (not refs/…). */
  ref: string;
  sha: string;
  before_sha: string | null;
  tag: Bool;
  status: CiStatus;
  /** Why the .gitlab-ci.yml was refused; the pipeline is failed and has no builds. */
  yaml_errors: string | null;
  /** What made it (migration 081); pipelines from before were all pushes, triggers or statuses. */
  source: Generated<PipelineSource>;
  /** The schedule that ran it (source `schedule`). */
  pipeline_schedule_id: Generated<number | null>;
  /** The merge request a `merge_request_event` pipeline ran for (migration 140). */
  merge_request_id: Generated<number | null>;
  /** JSON object of its CI_MERGE_REQUEST_* variables as they were when it was made. */
  merge_request_variables: Generated<string | null>;
  user_id: number | null;
  commit_message: string | null;
  commit_author_name: string | null;
  commit_author_email: string | null;
  /** `2016-01-11T11:13:33.000+01:00`: the commit's committer date in its own zone. */
  commit_committed_date: string | null;
  committed_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Seconds during which at least one build ran. */
  duration: number | null;
  created_at: string;
  updated_at: string;
}

export type CiBuildType = 'build' | 'external';

/** Builds and external commit statuses. A retry adds a row; the highest id per name in a pipeline counts. */
export interface CiBuildsTable {
  id: Generated<number>;
  project_id: number;
  pipeline_id: number;
  type: CiBuildType;
  name: string;
  stage: string | null;
  stage_idx: number | null;
  status: CiStatus;
  ref: string | null;
  tag: Bool;
  /** before_script and script lines joined with "\n". */
  commands: string | null;
  /** JSON object of the job's options. */
  options: string | null;
  /** JSON [{key, value, public}]. */
  yaml_variables: string | null;
  /** JSON array of runner tags. */
  tag_list: string;
  allow_failure: Bool;
  when: CiWhen;
  environment: string | null;
  coverage: number | null;
  /** The build's secret (20 chars): runner calls, artifact downloads, git over HTTP while running. */
  token: string | null;
  runner_id: number | null;
  user_id: number | null;
  trigger_request_id: number | null;
  erased_by_id: number | null;
  erased_at: string | null;
  /** File name of the artifacts archive as uploaded; null when there is none. */
  artifacts_file: string | null;
  artifacts_size: number | null;
  /** File name of the generated metadata (entries of the archive). */
  artifacts_metadata: string | null;
  artifacts_expire_at: string | null;
  description: string | null;
  target_url: string | null;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Why it failed, as the runner said (`script_failure`, `job_execution_timeout` …; migration 141). */
  failure_reason: Generated<string | null>;
  /** The script's exit code the runner reported. */
  exit_code: Generated<number | null>;
  /** A running job past this is failed with `job_execution_timeout`. */
  timeout_at: Generated<string | null>;
  /** A `when: delayed` job waiting as `scheduled` becomes pending then. */
  scheduled_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** Secret variables: handed to the project's builds, never shown in payloads or traces. */
export interface CiVariablesTable {
  id: Generated<number>;
  project_id: number;
  key: string;
  value: string | null;
  /** `env_var` or `file` (the job gets a path to a file holding the value). */
  variable_type: Generated<CiVariableType>;
  /** Given only to jobs of protected branches and tags. */
  protected: Generated<Bool>;
  /** Hidden in job logs; the value must be maskable. */
  masked: Generated<Bool>;
  environment_scope: Generated<string>;
  created_at: string;
  updated_at: string;
}

export type CiVariableType = 'env_var' | 'file';

/** Variables every job of a group's projects (group_id) or of the instance (group_id null) gets. */
export interface CiSharedVariablesTable {
  id: Generated<number>;
  group_id: number | null;
  key: string;
  value: string | null;
  variable_type: Generated<CiVariableType>;
  protected: Generated<Bool>;
  masked: Generated<Bool>;
  environment_scope: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Release notes of a tag (GitLab's releases: one per tag name). */
export interface ReleasesTable {
  id: Generated<number>;
  project_id: number;
  tag: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** A repository move not yet finished on disk (a transfer committed, its directories still to rename). */
export interface RepositoryMovesTable {
  id: Generated<number>;
  project_id: number;
  /** `<namespace path>/<project path>` before and after. */
  from_path: string;
  to_path: string;
  created_at: string;
}

/** A project's builds (type build) and pipelines, counted by triggers (migration 014). */
export interface CiListCountsTable {
  project_id: number;
  builds: Generated<number>;
  pipelines: Generated<number>;
}

/** Projects per visibility level and archived flag, kept by triggers (migration 018-project-counts). */
export interface ProjectCountsTable {
  visibility_level: number;
  archived: Bool;
  /** Project id modulo 16: concurrent creates move different rows. */
  shard: number;
  count: number;
}

/** Per-project counters that hand out iids (usage 'issues', 'milestones'; merge requests later). */
export interface InternalIdsTable {
  project_id: number;
  usage: string;
  last_value: number;
}

export interface IssuesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  author_id: number;
  assignee_id: number | null;
  updated_by_id: number | null;
  milestone_id: number | null;
  /** 'opened', 'reopened' or 'closed'. */
  state: string;
  /** 1 exactly when state is 'closed' (the lists' index key). */
  closed: Bool;
  confidential: Bool;
  /** YYYY-MM-DD. */
  due_date: string | null;
  moved_to_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface MilestonesTable {
  id: Generated<number>;
  /** A project's milestone; null for a group's (group_id). */
  project_id: number | null;
  group_id: Generated<number | null>;
  iid: number;
  title: string;
  description: string | null;
  due_date: string | null;
  /** 'active' or 'closed'. */
  state: string;
  created_at: string;
  updated_at: string;
  start_date: Generated<string | null>;
}

export interface LabelsTable {
  id: Generated<number>;
  /** A project's label; null for a group's (group_id). */
  project_id: number | null;
  group_id: Generated<number | null>;
  title: string;
  /** `#RGB` or `#RRGGBB`, as given. */
  color: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  /** v4's priority: null for none. */
  priority: Generated<number | null>;
}

export interface BoardsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  hide_backlog_list: Generated<number>;
  hide_closed_list: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** A board's list: 0 Backlog, 1 a label's (label_id and position set), 2 Done. */
export interface ListsTable {
  id: Generated<number>;
  board_id: number;
  label_id: number | null;
  list_type: number;
  position: number | null;
  created_at: string;
  updated_at: string;
}

export interface LabelLinksTable {
  id: Generated<number>;
  label_id: number;
  target_type: string;
  target_id: number;
  created_at: string;
}

export interface NotesTable {
  id: Generated<number>;
  project_id: number;
  /** 'Issue' (merge requests, snippets and commits later). */
  noteable_type: string;
  noteable_id: number | null;
  commit_id: string | null;
  author_id: number;
  note: string;
  system: Bool;
  attachment: string | null;
  line_code: string | null;
  updated_by_id: number | null;
  created_at: string;
  updated_at: string;
  /** The thread (40 hex digits); insertNote gives a new note a thread of its own unless told one. */
  discussion_id: Generated<string>;
  /** null for a note alone in its thread, 'DiscussionNote' for a note of a thread. */
  type: Generated<string | null>;
  resolved_at: Generated<string | null>;
  resolved_by_id: Generated<number | null>;
}

export interface AwardEmojiTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  name: string;
  /** 'Issue' or 'Note' (merge requests and snippets later). */
  awardable_type: string;
  awardable_id: number;
  created_at: string;
  updated_at: string;
}

/** GitLab's issue_links: `relates_to` or `blocks`, source → target. */
export interface IssueLinksTable {
  id: Generated<number>;
  source_id: number;
  target_id: number;
  link_type: string;
  created_at: string;
  updated_at: string;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  /** Null for a subscription to a group label made on its group. */
  project_id: number | null;
  user_id: number;
  /** 'Issue' or 'Label' (merge requests later). */
  subscribable_type: string;
  subscribable_id: number;
  subscribed: Bool;
  created_at: string;
  updated_at: string;
}

export interface TodosTable {
  id: Generated<number>;
  user_id: number;
  project_id: number;
  target_type: string;
  target_id: number;
  author_id: number;
  note_id: number | null;
  /** GitLab's Todo action codes: 1 assigned, 2 mentioned, 3 build_failed, 4 marked, 5 approval_required. */
  action: number;
  /** 'pending' or 'done'. */
  state: string;
  created_at: string;
  updated_at: string;
}

/** Open (opened or reopened) and all issues per project, kept by triggers (migration 020-issues). */
/** A project's merge requests of one state, deleted ones not counted, kept by triggers (migration 116). */
export interface MergeRequestCountsTable {
  project_id: number;
  state: string;
  count: number;
}

export interface IssueCountsTable {
  project_id: number;
  opened: number;
  total: number;
}

/** A signed-in browser (migration 025-web-sessions): the cookie's secret is stored only as its SHA-256. */
export interface WebSessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  csrf_token: string;
  ip: string;
  user_agent: string;
  created_at: string;
  expires_at: string;
}

/**
 * A personal access token (migration 080-personal-access-tokens): the secret only as its SHA-256 (hex),
 * scopes space-separated, expires_at a day (YYYY-MM-DD; the token works until the day before).
 */
export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  token_digest: string;
  scopes: string;
  expires_at: string | null;
  revoked: Generated<Bool>;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}

/** One wrong password from an address, kept for the limiter's window. */
export interface SignInFailuresTable {
  id: Generated<number>;
  address: string;
  failed_at: string;
}

/** An address refused without a password check until banned_until. */
export interface SignInBansTable {
  address: string;
  banned_until: string;
}

export type MergeRequestState = 'opened' | 'reopened' | 'closed' | 'merged' | 'locked';
export type MergeStatus = 'unchecked' | 'can_be_merged' | 'cannot_be_merged';

/** GitLab 8.13's merge_requests (migration 040); `target_project_id` is the API's `project_id`. */
export interface MergeRequestsTable {
  id: Generated<number>;
  iid: number;
  target_project_id: number;
  target_branch: string;
  source_project_id: number | null;
  source_branch: string;
  author_id: number | null;
  assignee_id: number | null;
  updated_by_id: number | null;
  merge_user_id: number | null;
  /** A milestone of the target project (migration 047). */
  milestone_id: number | null;
  title: string;
  description: string | null;
  state: MergeRequestState;
  merge_status: MergeStatus;
  /** JSON object (should_remove_source_branch, commit_message), as 8.13 serialised merge_params. */
  merge_params: string | null;
  merge_when_build_succeeds: Generated<Bool>;
  /** The source head this MR last saw (8.13's diff_head_sha). */
  head_sha: string | null;
  merge_commit_sha: string | null;
  in_progress_merge_commit_sha: string | null;
  merge_error: string | null;
  locked_at: string | null;
  deleted_at: string | null;
  lock_version: Generated<number>;
  /** v4's squash: merge as one commit (migration 115). */
  squash: Generated<Bool>;
  /** The commit a squashing merge wrote (migration 115). */
  squash_commit_sha: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** A merge owed to merge_when_build_succeeds since its head pipeline succeeded (migration 045). */
/** GitLab 8.12's merge_request_diffs: the versions of an MR (migration 046). */
export interface MergeRequestDiffsTable {
  id: Generated<number>;
  merge_request_id: number;
  /** `collected`, or `overflow` when the diff went past the bounds of a commit's diff. */
  state: string;
  head_commit_sha: string | null;
  base_commit_sha: string | null;
  start_commit_sha: string | null;
  /** The number of changed files, as text (`"12+"` past the bounds), as GitLab stored it. */
  real_size: string | null;
  created_at: string;
}

export interface MergeRequestAutoMergesTable {
  id: Generated<number>;
  merge_request_id: number;
  pipeline_id: number;
  created_at: string;
}

/** A topic projects carry (migration 096). */
export interface TopicsTable {
  id: Generated<number>;
  name: string;
  title: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectTopicsTable {
  id: Generated<number>;
  project_id: number;
  topic_id: number;
}

/** A project's or a group's deploy token (migration 097): exactly one of project_id and group_id. */
export interface DeployTokensTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  creator_id: number | null;
  name: string;
  username: string | null;
  token_digest: string;
  scopes: string;
  expires_at: string | null;
  revoked: Generated<Bool>;
  created_at: string;
}

/** A request to join a project or a group (migration 126): exactly one of project_id and group_id. */
export interface AccessRequestsTable {
  id: Generated<number>;
  project_id: number | null;
  group_id: number | null;
  user_id: number;
  requested_at: string;
}

/** An administrator's banner (migration 127). */
export interface BroadcastMessagesTable {
  id: Generated<number>;
  message: string;
  starts_at: string;
  ends_at: string;
  color: string | null;
  font: string | null;
  target_path: string | null;
  broadcast_type: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  keys: KeysTable;
  deploy_keys_projects: DeployKeysProjectsTable;
  emails: EmailsTable;
  namespaces: NamespacesTable;
  settings: SettingsTable;
  projects: ProjectsTable;
  members: MembersTable;
  project_group_links: ProjectGroupLinksTable;
  users_star_projects: UsersStarProjectsTable;
  forked_project_links: ForkedProjectLinksTable;
  events: EventsTable;
  protected_branches: ProtectedBranchesTable;
  pushes: PushesTable;
  project_hooks: ProjectHooksTable;
  system_hooks: SystemHooksTable;
  hook_deliveries: HookDeliveriesTable;
  hook_delivery_attempts: HookDeliveryAttemptsTable;
  ci_runners: CiRunnersTable;
  ci_runner_projects: CiRunnerProjectsTable;
  ci_triggers: CiTriggersTable;
  ci_pipeline_schedules: CiPipelineSchedulesTable;
  environments: EnvironmentsTable;
  deployments: DeploymentsTable;
  ci_pipeline_schedule_variables: CiPipelineScheduleVariablesTable;
  snippets: SnippetsTable;
  ci_trigger_requests: CiTriggerRequestsTable;
  ci_pipelines: CiPipelinesTable;
  ci_pipeline_variables: CiPipelineVariablesTable;
  ci_job_artifacts: CiJobArtifactsTable;
  ci_builds: CiBuildsTable;
  ci_variables: CiVariablesTable;
  ci_shared_variables: CiSharedVariablesTable;
  repository_creations: RepositoryCreationsTable;
  releases: ReleasesTable;
  repository_moves: RepositoryMovesTable;
  ci_list_counts: CiListCountsTable;
  project_counts: ProjectCountsTable;
  internal_ids: InternalIdsTable;
  issues: IssuesTable;
  milestones: MilestonesTable;
  labels: LabelsTable;
  label_links: LabelLinksTable;
  boards: BoardsTable;
  lists: ListsTable;
  issue_links: IssueLinksTable;
  notes: NotesTable;
  award_emoji: AwardEmojiTable;
  subscriptions: SubscriptionsTable;
  todos: TodosTable;
  issue_counts: IssueCountsTable;
  merge_request_counts: MergeRequestCountsTable;
  web_sessions: WebSessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  sign_in_failures: SignInFailuresTable;
  sign_in_bans: SignInBansTable;
  merge_requests: MergeRequestsTable;
  merge_request_auto_merges: MergeRequestAutoMergesTable;
  merge_request_diffs: MergeRequestDiffsTable;
  deploy_tokens: DeployTokensTable;
  topics: TopicsTable;
  project_topics: ProjectTopicsTable;
  mail_events: MailEventsTable;
  password_resets: PasswordResetsTable;
  mails: MailsTable;
  notification_settings: NotificationSettingsTable;
  access_requests: AccessRequestsTable;
  broadcast_messages: BroadcastMessagesTable;
}

/** Events that cause mail (migration 100-mail), written by the request; the worker expands them. */
export interface MailEventsTable {
  id: Generated<number>;
  /** JSON: what happened (services/mail/mail-events.ts). */
  payload: string;
  /** 'pending' or 'expanded'. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

/** The mail outbox (migration 100-mail): one row per recipient of one event. */
export interface MailsTable {
  id: Generated<number>;
  /** What caused it (`issue:12:open`, `note:40` …); unique with user_id. */
  event_key: string;
  user_id: number;
  /** The random key of the unsubscribe link (GitLab's SentNotification#reply_key). */
  reply_key: string;
  project_id: number | null;
  noteable_type: string | null;
  noteable_id: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** JSON object of extra headers. */
  headers: string;
  /** 'pending', 'sent' or 'failed'. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A user's notification level for everything ('Global', 0), a group ('Namespace') or a project. */
export interface NotificationSettingsTable {
  id: Generated<number>;
  user_id: number;
  source_type: 'Global' | 'Namespace' | 'Project';
  source_id: number;
  /** disabled, participating, watch, global, mention, custom. */
  level: string;
  /** custom's switches (migration 145): JSON `{ "new_note": true, … }`, else null. */
  events: string | null;
  created_at: string;
  updated_at: string;
}

/** A password-reset link (migration 101-password-resets): its secret only as SHA-256 (base64url). */
export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}
