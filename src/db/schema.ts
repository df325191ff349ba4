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
}

export interface Database {
  users: UsersTable;
  identities: IdentitiesTable;
  keys: KeysTable;
  emails: EmailsTable;
  namespaces: NamespacesTable;
  settings: SettingsTable;
  protected_branches: ProtectedBranchesTable;
  pushes: PushesTable;
}
