// The Kysely view of every table. Conventions that keep SQLite and PostgreSQL interchangeable:
// timestamps are ISO 8601 UTC text with milliseconds (they sort as text), booleans are integers 0/1,
// ids are 32-bit integers (serial on PostgreSQL, so they come back as numbers on both engines).
import type { Generated } from 'kysely';

export type Bool = 0 | 1;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
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
  user_id: number;
  title: string;
  key: string;
  fingerprint: string;
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
  created_at: string;
  updated_at: string;
}

/** Single-row application state (the shared runners token and the like), as key/value pairs. */
export interface SettingsTable {
  key: string;
  value: string;
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

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  keys: KeysTable;
  emails: EmailsTable;
  namespaces: NamespacesTable;
  settings: SettingsTable;
  project_hooks: ProjectHooksTable;
  system_hooks: SystemHooksTable;
  hook_deliveries: HookDeliveriesTable;
  hook_delivery_attempts: HookDeliveryAttemptsTable;
}
