// The keys of GitLab 8.13's entities and hook payload objects, in order, for tests that check a body's shape.
export const USER_BASIC_KEYS = ['name', 'username', 'id', 'state', 'avatar_url', 'web_url'];
export const USER_KEYS = [
  ...USER_BASIC_KEYS,
  'created_at',
  'is_admin',
  'bio',
  'location',
  'skype',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
];
export const NOTE_KEYS = [
  'id',
  'body',
  'attachment',
  'author',
  'created_at',
  'updated_at',
  'system',
  'noteable_id',
  'noteable_type',
  'upvote?',
  'downvote?',
];
export const USER_FULL_KEYS = [
  ...USER_KEYS,
  'last_sign_in_at',
  'confirmed_at',
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
  'external',
];
export const USER_LOGIN_KEYS = [...USER_FULL_KEYS, 'private_token'];

/** GitLab 8.13's Issue entity. */
export const ISSUE_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'labels',
  'milestone',
  'assignee',
  'author',
  'subscribed',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'due_date',
  'confidential',
  'web_url',
];

/** GitLab 8.13's Milestone entity. */
export const MILESTONE_KEYS = [
  'id',
  'iid',
  'project_id',
  'title',
  'description',
  'state',
  'created_at',
  'updated_at',
  'due_date',
];

/** An issue as its table row (hook payloads, and the answer to deleting one). */
export const ISSUE_COLUMNS = [
  'id',
  'title',
  'assignee_id',
  'author_id',
  'project_id',
  'created_at',
  'updated_at',
  'position',
  'branch_name',
  'description',
  'milestone_id',
  'state',
  'iid',
  'updated_by_id',
  'confidential',
  'deleted_at',
  'due_date',
  'moved_to_id',
  'lock_version',
];

/** A merge request in hook payloads: its table row, then source, target, last commit and WIP. */
export const MERGE_REQUEST_HOOK_KEYS = [
  'id',
  'target_branch',
  'source_branch',
  'source_project_id',
  'author_id',
  'assignee_id',
  'title',
  'created_at',
  'updated_at',
  'milestone_id',
  'state',
  'merge_status',
  'target_project_id',
  'iid',
  'description',
  'position',
  'locked_at',
  'updated_by_id',
  'merge_error',
  'merge_params',
  'merge_when_build_succeeds',
  'merge_user_id',
  'merge_commit_sha',
  'deleted_at',
  'in_progress_merge_commit_sha',
  'lock_version',
  'source',
  'target',
  'last_commit',
  'work_in_progress',
];

/** The project in hook payloads (push, issue, merge request, note). */
export const HOOK_PROJECT_KEYS = [
  'name',
  'description',
  'web_url',
  'avatar_url',
  'git_ssh_url',
  'git_http_url',
  'namespace',
  'visibility_level',
  'path_with_namespace',
  'default_branch',
  'homepage',
  'url',
  'ssh_url',
  'http_url',
];

/** API v4's Commit entity (lists, compare, merge_base). */
export const V4_COMMIT_KEYS = [
  'id',
  'short_id',
  'created_at',
  'parent_ids',
  'title',
  'message',
  'author_name',
  'author_email',
  'authored_date',
  'committer_name',
  'committer_email',
  'committed_date',
  'trailers',
  'extended_trailers',
  'web_url',
];

/** API v4's Diff entity (a commit's diff, a compare's diffs). */
export const V4_DIFF_KEYS = [
  'diff',
  'collapsed',
  'too_large',
  'new_path',
  'old_path',
  'a_mode',
  'b_mode',
  'new_file',
  'renamed_file',
  'deleted_file',
  'generated_file',
];
