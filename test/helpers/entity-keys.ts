// The keys of GitLab's user entities, in order, for tests that check a body's shape.
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
