// Business operations on users (GitLab's User model rules and lib/api/users.rb). Every write that creates
// a user also creates its personal namespace, in one transaction; uniqueness races are settled by the
// unique indexes and answered with the same texts as the checks that normally catch them.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../deps.ts';
import { announceUser, announceUserDestroy } from './hooks.ts';
import type { Executor, UserChanges, UserListFilter, UserRow } from '../db/repositories/users.ts';
import {
  countUsers,
  deleteSecondaryEmail,
  deleteUserRows,
  externUidTaken,
  findIdentity,
  findNamespaceByPath,
  findOwnSecondaryEmail,
  findUserById,
  findUsersByExactUsername,
  identitiesByUser,
  insertIdentity,
  insertPersonalNamespace,
  insertSecondaryEmail,
  insertUser,
  isEmailTaken,
  listUsers,
  renamePersonalNamespace,
  transitionUserState,
  updateIdentityExternUid,
  updateUser,
  userWithExactEmailExists,
  userWithExactUsernameExists,
  usernameTaken,
} from '../db/repositories/users.ts';
import { personalProjectCounts } from '../db/repositories/projects.ts';
import { deletePersonalProjects } from './projects.ts';
import type { UserFullExtras } from '../presenters/user.ts';
import { isUniqueViolation, now } from '../db/errors.ts';
import { apiError, conflict, forbidden, notFound, recordNotFound, ValidationErrors } from '../http/errors.ts';
import { repositoriesRoot } from '../git/repository.ts';
import { generateToken, hashPassword } from './passwords.ts';

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password: string;
  authenticationToken: string;
  admin?: boolean;
  confirmed?: boolean;
  external?: boolean;
  canCreateGroup?: boolean;
  projectsLimit?: number;
  bio?: string;
  location?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  websiteUrl?: string;
  organization?: string;
  identity?: { provider: string; externUid: string };
}

/** GitLab's defaults (gitlab.yml default_can_create_group, application setting default_projects_limit). */
export const DEFAULT_PROJECTS_LIMIT = 10;
export const DEFAULT_CAN_CREATE_GROUP = true;

/** Inserts the user, its personal namespace and identity in one transaction; validation is the caller's job. */
export async function insertUserWithNamespace(db: Executor, input: NewUser): Promise<UserRow> {
  const at = now();
  const encrypted = await hashPassword(input.password);
  // External users can neither create groups nor personal projects (ensure_external_user_rights).
  const external = input.external === true;
  return db.transaction().execute(async (trx) => {
    const user = await insertUser(trx, {
      username: input.username,
      name: input.name,
      email: input.email,
      encrypted_password: encrypted,
      authentication_token: input.authenticationToken,
      state: 'active',
      admin: input.admin ? 1 : 0,
      external: external ? 1 : 0,
      can_create_group: external ? 0 : (input.canCreateGroup ?? DEFAULT_CAN_CREATE_GROUP) ? 1 : 0,
      projects_limit: external ? 0 : (input.projectsLimit ?? DEFAULT_PROJECTS_LIMIT),
      bio: input.bio ?? null,
      location: input.location ?? null,
      skype: input.skype ?? '',
      linkedin: input.linkedin ?? '',
      twitter: input.twitter ?? '',
      website_url: input.websiteUrl ?? '',
      organization: input.organization ?? null,
      theme_id: 1,
      color_scheme_id: 1,
      two_factor_enabled: 0,
      // Labrador sends no confirmation mail, so every user counts as confirmed (reference README row 18).
      confirmed_at: input.confirmed === false ? null : at,
      last_sign_in_at: null,
      current_sign_in_at: null,
      created_at: at,
      updated_at: at,
    });
    await insertPersonalNamespace(trx, user, at);
    if (input.identity) {
      await insertIdentity(trx, user.id, input.identity.provider, input.identity.externUid, at);
    }
    await announceUser(trx, 'user_create', user);
    return user;
  });
}

// ---------------------------------------------------------------------------------------------------
// Reads

/** Identities and personal project counts for a page of users: one query per kind, never one per user. */
export async function loadUserFullExtrasMany(
  db: Executor,
  userIds: number[],
): Promise<Map<number, UserFullExtras>> {
  const [identities, counts] = await Promise.all([
    identitiesByUser(db, userIds),
    personalProjectCounts(db, userIds),
  ]);
  const result = new Map<number, UserFullExtras>();
  for (const id of userIds) {
    result.set(id, { identities: identities.get(id) ?? [], personalProjectCount: counts.get(id) ?? 0 });
  }
  return result;
}

export async function loadUserFullExtras(deps: Deps, userId: number): Promise<UserFullExtras> {
  const extras = await loadUserFullExtrasMany(deps.db.kysely, [userId]);
  return extras.get(userId)!;
}

export function countUserList(deps: Deps, filter: UserListFilter): Promise<number> {
  return countUsers(deps.db.kysely, filter);
}

export function userListPage(
  deps: Deps,
  filter: UserListFilter,
  offset: number,
  limit: number,
): Promise<UserRow[]> {
  return listUsers(deps.db.kysely, filter, offset, limit);
}

export function usersWithUsername(deps: Deps, username: string): Promise<UserRow[]> {
  return findUsersByExactUsername(deps.db.kysely, username);
}

// ---------------------------------------------------------------------------------------------------
// Validation (app/models/user.rb with Devise :validatable, 8.13)

/** Attributes as a client sent them; blank values have already been dropped (attributes_for_keys). */
export interface UserAttributes {
  email?: string;
  password?: string;
  name?: string;
  username?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  website_url?: string;
  organization?: string;
  bio?: string;
  location?: string;
  /** Raw text: GitLab's numericality validation reports non-numbers in the hash, not as a param error. */
  projects_limit?: string;
  admin?: boolean;
  can_create_group?: boolean;
  external?: boolean;
  provider?: string;
  extern_uid?: string;
}

export const RESERVED_NAMES = new Set([
  '.well-known',
  'admin',
  'all',
  'assets',
  'ci',
  'dashboard',
  'files',
  'groups',
  'help',
  'hooks',
  'issues',
  'merge_requests',
  'new',
  'notes',
  'profile',
  'projects',
  'public',
  'repository',
  'robots.txt',
  's',
  'search',
  'services',
  'snippets',
  'teams',
  'u',
  'unsubscribes',
  'users',
]);

const NAMESPACE_REGEX = /^(?:[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*[a-zA-Z0-9_-]|[a-zA-Z0-9_])$/;
export const NAMESPACE_REGEX_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.";
const EMAIL_REGEX = /^[^@\s]+@[^@\s]+$/;
const MAX_INTEGER = 2147483647;

/** Whether a path is a valid namespace path (users and groups share the rule). */
export function isValidNamespacePath(value: string): boolean {
  return NAMESPACE_REGEX.test(value) && !value.endsWith('.git') && !value.endsWith('.atom');
}

/** Devise stripped and downcased emails before validating and saving them. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function characters(text: string): number {
  return [...text].length;
}

/** projects_limit as GitLab's numericality check saw it: a number (kept as an integer) or an error text. */
function parseProjectsLimit(raw: string): number | string {
  const text = raw.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(text)) return 'is not a number';
  const value = Math.trunc(Number(text));
  if (value < 0) return 'must be greater than or equal to 0';
  if (value > MAX_INTEGER) return `must be less than or equal to ${MAX_INTEGER}`;
  return value;
}

interface Checked {
  errors: ValidationErrors;
  projectsLimit: number | undefined;
}

/**
 * The model's validations for the attributes being set, in the order GitLab's model declared them
 * (Devise's email and password, the identities association, then name, bio, projects_limit, username).
 * `existing` is the user being modified: uniqueness then ignores the user's own rows, and only changed
 * values are checked for uniqueness, as GitLab's `if: …_changed?` conditions did.
 */
async function validateUser(db: Executor, attrs: UserAttributes, existing?: UserRow): Promise<Checked> {
  const errors = new ValidationErrors();
  const selfId = existing?.id;

  if (attrs.email !== undefined && attrs.email !== existing?.email) {
    if (await isEmailTaken(db, attrs.email, selfId)) errors.add('email', 'has already been taken');
    if (!EMAIL_REGEX.test(attrs.email)) errors.add('email', 'is invalid');
    // Indexed values stay short (GitLab's MySQL columns were varchar(255); PostgreSQL indexes cap row size).
    if (characters(attrs.email) > 255) errors.add('email', 'is too long (maximum is 255 characters)');
  }

  if (attrs.password !== undefined) {
    const length = characters(attrs.password);
    if (length < 8) errors.add('password', 'is too short (minimum is 8 characters)');
    if (length > 128) errors.add('password', 'is too long (maximum is 128 characters)');
  }

  if (attrs.provider !== undefined || attrs.extern_uid !== undefined) {
    if (attrs.provider !== undefined && characters(attrs.provider) > 255) {
      errors.add('identities.provider', 'is too long (maximum is 255 characters)');
    }
    if (attrs.extern_uid !== undefined && characters(attrs.extern_uid) > 255) {
      errors.add('identities.extern_uid', 'is too long (maximum is 255 characters)');
    }
    if (attrs.provider === undefined) errors.add('identities.provider', "can't be blank");
    else if (
      attrs.extern_uid !== undefined &&
      (await externUidTaken(db, attrs.provider, attrs.extern_uid, selfId))
    ) {
      errors.add('identities.extern_uid', 'has already been taken');
    }
  }

  if (attrs.bio !== undefined && characters(attrs.bio) > 255) {
    errors.add('bio', 'is too long (maximum is 255 characters)');
  }

  let projectsLimit: number | undefined;
  if (attrs.projects_limit !== undefined) {
    const parsed = parseProjectsLimit(attrs.projects_limit);
    if (typeof parsed === 'string') errors.add('projects_limit', parsed);
    else projectsLimit = parsed;
  }

  if (attrs.username !== undefined && attrs.username !== existing?.username) {
    const username = attrs.username;
    if (!isValidNamespacePath(username)) errors.add('username', NAMESPACE_REGEX_MESSAGE);
    // The username is the personal namespace's path, which GitLab limited to 255 characters.
    if (characters(username) > 255) errors.add('username', 'is too long (maximum is 255 characters)');
    if (RESERVED_NAMES.has(username)) errors.add('username', `${username} is a reserved name`);
    if (await usernameTaken(db, username, selfId)) {
      errors.add('username', 'has already been taken');
    } else {
      // A group (or another user's namespace) already holds the path (namespace_uniq).
      const namespace = await findNamespaceByPath(db, username);
      const own =
        namespace && selfId !== undefined && namespace.type === null && namespace.owner_id === selfId;
      if (namespace && !own) errors.add('username', 'has already been taken');
    }
  }
  return { errors, projectsLimit };
}

// ---------------------------------------------------------------------------------------------------
// Create (POST /users)

/** Creates a user as an administrator would; throws GitLab's 409 or 400 answers. */
export async function createUser(
  deps: Deps,
  attrs: UserAttributes & Required<Pick<UserAttributes, 'email' | 'password' | 'name' | 'username'>>,
): Promise<UserRow> {
  const db = deps.db.kysely;
  const input = { ...attrs, email: normalizeEmail(attrs.email) };
  // A unique index may still refuse the insert when another request won the race; then the checks run
  // again and find the winner, so the answer is the one a sequential client would have had.
  for (let attempt = 0; ; attempt++) {
    const { errors, projectsLimit } = await validateUser(db, input);
    if (!errors.empty) {
      // GitLab answered 409 only when another *user* has exactly this email or username.
      if (await userWithExactEmailExists(db, input.email)) throw conflict('Email has already been taken');
      if (await userWithExactUsernameExists(db, input.username)) {
        throw conflict('Username has already been taken');
      }
      errors.throwIfAny(400);
    }
    try {
      return await insertUserWithNamespace(db, {
        username: input.username,
        name: input.name,
        email: input.email,
        password: input.password,
        authenticationToken: generateToken(),
        admin: input.admin,
        external: input.external,
        canCreateGroup: input.can_create_group,
        projectsLimit,
        bio: input.bio,
        location: input.location,
        skype: input.skype,
        linkedin: input.linkedin,
        twitter: input.twitter,
        websiteUrl: input.website_url,
        organization: input.organization,
        identity:
          input.provider !== undefined
            ? { provider: input.provider, externUid: input.extern_uid ?? '' }
            : undefined,
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Modify (PUT /users/:id)

/**
 * Changes only the attributes that were sent (reference README row 35). Every failure is a 404 carrying
 * GitLab's message or validation hash (row 34); an unknown user is `404 Not found`.
 */
export async function modifyUser(deps: Deps, userId: number, sent: UserAttributes): Promise<UserRow> {
  const db = deps.db.kysely;
  const attrs = { ...sent, ...(sent.email !== undefined ? { email: normalizeEmail(sent.email) } : {}) };
  for (let attempt = 0; ; attempt++) {
    const user = await findUserById(db, userId);
    if (!user) throw recordNotFound();
    // GitLab checked these two against other users before anything else (409 there, 404 here).
    if (attrs.email !== undefined && (await userWithExactEmailExists(db, attrs.email, user.id))) {
      throw apiError(404, 'Email has already been taken');
    }
    if (attrs.username !== undefined && (await userWithExactUsernameExists(db, attrs.username, user.id))) {
      throw apiError(404, 'Username has already been taken');
    }
    const { errors, projectsLimit } = await validateUser(db, attrs, user);
    errors.throwIfAny(404);

    const at = now();
    const changes: UserChanges = {};
    if (attrs.email !== undefined) changes.email = attrs.email;
    if (attrs.name !== undefined) changes.name = attrs.name;
    if (attrs.username !== undefined) changes.username = attrs.username;
    if (attrs.password !== undefined) changes.encrypted_password = await hashPassword(attrs.password);
    if (attrs.skype !== undefined) changes.skype = attrs.skype;
    if (attrs.linkedin !== undefined) changes.linkedin = attrs.linkedin;
    if (attrs.twitter !== undefined) changes.twitter = attrs.twitter;
    if (attrs.website_url !== undefined) changes.website_url = attrs.website_url;
    if (attrs.organization !== undefined) changes.organization = attrs.organization;
    if (attrs.bio !== undefined) changes.bio = attrs.bio;
    if (attrs.location !== undefined) changes.location = attrs.location;
    if (projectsLimit !== undefined) changes.projects_limit = projectsLimit;
    if (attrs.admin !== undefined) changes.admin = attrs.admin ? 1 : 0;
    if (attrs.can_create_group !== undefined) changes.can_create_group = attrs.can_create_group ? 1 : 0;
    if (attrs.external !== undefined) changes.external = attrs.external ? 1 : 0;
    // Every save of an external user takes away group and project creation (ensure_external_user_rights).
    if ((changes.external ?? user.external) === 1) {
      changes.can_create_group = 0;
      changes.projects_limit = 0;
    }
    changes.updated_at = at;

    try {
      return await db.transaction().execute(async (trx) => {
        const updated = await updateUser(trx, user.id, changes);
        // Deleted by another request since it was read.
        if (!updated) throw recordNotFound();
        if (changes.email !== undefined && changes.email !== user.email) {
          // The new primary was one of the user's secondary emails: they swap (update_emails_with_primary_email).
          const secondary = await findOwnSecondaryEmail(trx, user.id, changes.email);
          if (secondary) {
            await deleteSecondaryEmail(trx, secondary.id);
            await insertSecondaryEmail(trx, user.id, user.email, at);
          }
        }
        if (attrs.provider !== undefined) {
          const identity = await findIdentity(trx, user.id, attrs.provider);
          if (!identity) await insertIdentity(trx, user.id, attrs.provider, attrs.extern_uid ?? '', at);
          else if (attrs.extern_uid !== undefined) {
            await updateIdentityExternUid(trx, identity.id, attrs.extern_uid);
          }
        }
        if (changes.username !== undefined && changes.username !== user.username) {
          await renamePersonalNamespace(trx, user.id, changes.username, at);
          // Repositories live under the lower-cased namespace path; they follow the rename.
          await moveNamespaceDirectory(deps, user.username, changes.username);
        }
        return updated;
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

async function moveNamespaceDirectory(deps: Deps, from: string, to: string): Promise<void> {
  const root = repositoriesRoot(deps.config.dataDir);
  const source = path.join(root, from.toLowerCase());
  const target = path.join(root, to.toLowerCase());
  if (source === target) return;
  try {
    await fs.rename(source, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Delete (DELETE /users/:id)

export interface DeletedUser {
  user: UserRow;
  extras: UserFullExtras;
}

/**
 * Deletes a user with everything that belongs only to them, in one transaction. Answers null for an
 * unknown user (the SPEC makes the delete idempotent).
 */
export async function deleteUser(deps: Deps, userId: number): Promise<DeletedUser | null> {
  const db = deps.db.kysely;
  let removeProjectFiles = async () => {};
  const deleted = await db.transaction().execute(async (trx) => {
    const user = await findUserById(trx, userId);
    if (!user) return null;
    const extras = (await loadUserFullExtrasMany(trx, [user.id])).get(user.id)!;
    // Personal projects (and everything attached to them) go before the namespace that holds them.
    removeProjectFiles = await deletePersonalProjects(deps, trx, user.id);
    await announceUserDestroy(trx, user);
    await deleteUserRows(trx, user.id);
    return { user, extras };
  });
  if (deleted) {
    await removeProjectFiles();
    // The personal namespace's repositories go with it, once the rows are gone for good.
    const directory = path.join(repositoriesRoot(deps.config.dataDir), deleted.user.username.toLowerCase());
    await fs.rm(directory, { recursive: true, force: true });
  }
  return deleted;
}

// ---------------------------------------------------------------------------------------------------
// Block / unblock (PUT /users/:id/block, /unblock) and the LDAP states the admin CLI sets

/** true when the user became blocked, false when it already was; LDAP-blocked users are refused. */
export async function blockUser(deps: Deps, userId: number): Promise<boolean> {
  const db = deps.db.kysely;
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User');
  if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be modified by the API');
  return transitionUserState(db, user.id, ['active'], 'blocked', now());
}

/** true when the user became active, false when it already was; LDAP-blocked users are refused. */
export async function unblockUser(deps: Deps, userId: number): Promise<boolean> {
  const db = deps.db.kysely;
  const user = await findUserById(db, userId);
  if (!user) throw notFound('User');
  if (user.state === 'ldap_blocked') throw forbidden('LDAP blocked users cannot be unblocked by the API');
  return transitionUserState(db, user.id, ['blocked'], 'active', now());
}

/** What LDAP synchronization did in GitLab: active → ldap_blocked. True when the state changed. */
export function ldapBlockUser(db: Executor, userId: number): Promise<boolean> {
  return transitionUserState(db, userId, ['active'], 'ldap_blocked', now());
}

/** LDAP synchronization letting a user back in: ldap_blocked → active. True when the state changed. */
export function ldapUnblockUser(db: Executor, userId: number): Promise<boolean> {
  return transitionUserState(db, userId, ['ldap_blocked'], 'active', now());
}
