// Business operations on users: create, modify, delete, block and unblock, as GitLab's users API and User
// model did them. A user is created with its personal namespace in one transaction; uniqueness races are
// settled by the unique indexes and answered with the same texts as the checks that normally catch them.
import { mailWelcome } from './account-mails.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Deps } from '../../deps.ts';
import { announceUserCreate, announceUserDestroy } from '../hooks/system-hook-announcements.ts';
import {
  deleteUserWithNamespace,
  findUserById,
  insertPersonalNamespace,
  insertUser,
  renamePersonalNamespace,
  transitionUserState,
  updateUser,
  userFullExtrasByIds,
  userWithExactEmailExists,
  userWithExactUsernameExists,
} from '../../db/repositories/users.ts';
import {
  deleteIdentitiesOfUser,
  findIdentity,
  insertIdentity,
  updateIdentityExternUid,
} from '../../db/repositories/identities.ts';
import {
  deleteEmailOfUser,
  deleteEmailsOfUser,
  findEmailOfUserByAddress,
  insertEmail,
} from '../../db/repositories/emails.ts';
import { deleteKeysOfUser } from '../../db/repositories/keys.ts';
import { deleteWebSessionsOfUser } from '../../db/repositories/web-sessions.ts';
import { deletePersonalProjects } from '../projects/projects.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { now } from '../../lib/clock.ts';
import { ApiError, apiError, conflict, forbidden, notFound, recordNotFound } from '../../errors.ts';
import { repositoriesRoot } from '../../git/repository.ts';
import { removeAvatars } from '../../storage/avatars.ts';
import { hashPassword } from './passwords.ts';
import { passwordChangedMail } from './password-mails.ts';
import { normalizeEmail, validateUser, type UserAttributes } from './user-validation.ts';
import type { Executor, UserChanges, UserFullExtras, UserRow } from '../../db/types.ts';
import { friendlyToken } from '../../lib/tokens.ts';
import { defaultProjectsLimit } from '../instance/application-settings.ts';
import crypto from 'node:crypto';
import { findSetting, insertSettingIfAbsent } from '../../db/repositories/settings.ts';
import { moveContributions } from '../../db/repositories/ghost-records.ts';
import { findNamespaceByPath } from '../../db/repositories/namespaces.ts';

export type { UserAttributes };

interface NewUser {
  username: string;
  name: string;
  email: string;
  password: string;
  authenticationToken: string;
  admin?: boolean;
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
  /** Made by an administrator: mail the new user a link to set a password. */
  welcome?: boolean;
}

/** GitLab's default of gitlab.yml's default_can_create_group (default_projects_limit is a stored setting). */
const DEFAULT_CAN_CREATE_GROUP = true;

/** Inserts the user, its personal namespace and identity in one transaction; validation is the caller's job. */
export async function insertUserWithNamespace(deps: Deps, input: NewUser): Promise<UserRow> {
  const at = now();
  const encrypted = await hashPassword(input.password, deps.config.passwordHashCost);
  // External users can neither create groups nor personal projects (ensure_external_user_rights).
  const external = input.external === true;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const projectsLimit = external ? 0 : (input.projectsLimit ?? (await defaultProjectsLimit(trx)));
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
      projects_limit: projectsLimit,
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
      // Labrador sends no confirmation mail (GitLab's `confirm` parameter changes nothing), so every user
      // counts as confirmed.
      confirmed_at: at,
      last_sign_in_at: null,
      current_sign_in_at: null,
      created_at: at,
      updated_at: at,
    });
    await insertPersonalNamespace(trx, user, at);
    if (input.identity) {
      await insertIdentity(trx, user.id, input.identity.provider, input.identity.externUid, at);
    }
    await announceUserCreate(trx, user);
    if (input.welcome) await mailWelcome(trx, deps, user);
    return user;
  });
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
      return await insertUserWithNamespace(deps, {
        username: input.username,
        name: input.name,
        email: input.email,
        password: input.password,
        authenticationToken: friendlyToken(),
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
        welcome: true,
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

/** How a modification's failures are answered: the statuses of a taken email or username and of an invalid value. */
export interface ModifyFailures {
  conflictStatus: number;
  invalidStatus: number;
  missing: () => ApiError;
}

/** GitLab 8.13's v3: every failure a 404 carrying GitLab's message or validation hash. */
const V3_FAILURES: ModifyFailures = { conflictStatus: 404, invalidStatus: 404, missing: recordNotFound };

/**
 * Changes only the attributes that were sent (an `admin` or `external` left out keeps its value).
 * Failures are answered as `failures` says (v3: every one a 404; an unknown user `404 Not found`).
 */
export async function modifyUser(
  deps: Deps,
  userId: number,
  sent: UserAttributes,
  failures: ModifyFailures = V3_FAILURES,
): Promise<UserRow> {
  const db = deps.db.kysely;
  const attrs = { ...sent, ...(sent.email !== undefined ? { email: normalizeEmail(sent.email) } : {}) };
  for (let attempt = 0; ; attempt++) {
    const user = await findUserById(db, userId);
    if (!user) throw failures.missing();
    // GitLab checked these two against other users before anything else (409 in GitLab, 404 in our v3).
    if (attrs.email !== undefined && (await userWithExactEmailExists(db, attrs.email, user.id))) {
      throw apiError(failures.conflictStatus, 'Email has already been taken');
    }
    if (attrs.username !== undefined && (await userWithExactUsernameExists(db, attrs.username, user.id))) {
      throw apiError(failures.conflictStatus, 'Username has already been taken');
    }
    const { errors, projectsLimit } = await validateUser(db, attrs, user);
    errors.throwIfAny(failures.invalidStatus);

    const at = now();
    const changes: UserChanges = {};
    if (attrs.email !== undefined) changes.email = attrs.email;
    if (attrs.name !== undefined) changes.name = attrs.name;
    if (attrs.username !== undefined) changes.username = attrs.username;
    if (attrs.password !== undefined) {
      changes.encrypted_password = await hashPassword(attrs.password, deps.config.passwordHashCost);
    }
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
        if (!updated) throw failures.missing();
        if (changes.encrypted_password !== undefined) {
          await passwordChangedMail(trx, deps, updated, `password-changed-${user.id}-${at}`);
        }
        if (changes.email !== undefined && changes.email !== user.email) {
          // The new primary was one of the user's secondary emails: they swap (update_emails_with_primary_email).
          const secondary = await findEmailOfUserByAddress(trx, user.id, changes.email);
          if (secondary) {
            await deleteEmailOfUser(trx, user.id, secondary.id);
            await insertEmail(trx, user.id, user.email, at);
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

// The ghost user (GitLab's User.ghost, since 9.0): made once, on the first deletion that needs it, to
// hold the contributions of users deleted through v4 without hard_delete. Its id is kept in the settings
// table, so every process finds the same one; it is blocked (nobody signs in as it) and cannot be
// deleted.

const GHOST_SETTING = 'ghost_user_id';

/** The ghost user's id, or undefined before the first deletion that needed one. */
async function ghostUserId(db: Executor): Promise<number | undefined> {
  const stored = await findSetting(db, GHOST_SETTING);
  return stored === undefined ? undefined : Number(stored);
}

async function freeUsername(db: Executor): Promise<string> {
  for (let n = 0; ; n++) {
    const username = n === 0 ? 'ghost' : `ghost${n}`;
    const taken =
      (await userWithExactUsernameExists(db, username)) || (await findNamespaceByPath(db, username));
    if (!taken) return username;
  }
}

/** The ghost user, made now if there is none yet. */
export async function ensureGhostUser(deps: Deps): Promise<UserRow> {
  const db = deps.db.kysely;
  const known = await ghostUserId(db);
  const existing = known === undefined ? undefined : await findUserById(db, known);
  if (existing) return existing;
  const username = await freeUsername(db);
  const made = await insertUserWithNamespace(deps, {
    username,
    name: 'Ghost User',
    email: `${username}-${crypto.randomBytes(4).toString('hex')}@example.com`,
    password: friendlyToken(),
    authenticationToken: friendlyToken(),
    bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
    canCreateGroup: false,
    projectsLimit: 0,
  });
  await updateUser(db, made.id, { state: 'blocked' });
  const chosen = Number(await insertSettingIfAbsent(db, GHOST_SETTING, String(made.id)));
  return (await findUserById(db, chosen))!;
}

/** The user as it was, with what its full form shows, read before the rows went. */
interface DeletedUser {
  user: UserRow;
  extras: UserFullExtras;
}

/**
 * Deletes a user with everything that belongs only to them, in one transaction; with `contributionsTo`
 * (the ghost user) their issues, merge requests, notes and award emoji move to it first, in the same
 * transaction. Answers null for an unknown user: the delete is idempotent. The ghost itself is a 403.
 */
export async function deleteUser(
  deps: Deps,
  userId: number,
  options: { contributionsTo?: UserRow } = {},
): Promise<DeletedUser | null> {
  const db = deps.db.kysely;
  let removeProjectFiles = async () => {};
  const deleted = await db.transaction().execute(async (trx) => {
    const user = await findUserById(trx, userId);
    if (!user) return null;
    if (user.id === (await ghostUserId(trx))) throw forbidden();
    const extras = (await userFullExtrasByIds(trx, [user.id])).get(user.id)!;
    if (options.contributionsTo) await moveContributions(trx, user.id, options.contributionsTo.id);
    // Personal projects (and everything attached to them, their directories too) go before the
    // namespace that holds them.
    removeProjectFiles = await deletePersonalProjects(deps, trx, user.id);
    await announceUserDestroy(trx, user);
    await deleteKeysOfUser(trx, user.id);
    await deleteEmailsOfUser(trx, user.id);
    await deleteIdentitiesOfUser(trx, user.id);
    await deleteUserWithNamespace(trx, user.id);
    return { user, extras };
  });
  // Files go once the rows are gone for good.
  if (deleted) {
    await removeProjectFiles();
    await removeAvatars(deps.config.dataDir, 'user', deleted.user.id);
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
  return db.transaction().execute(async (trx) => {
    const blocked = await transitionUserState(trx, user.id, ['active'], 'blocked', now());
    // GitLab signed a blocked user out of every browser: an unblock must not bring those back in.
    if (blocked) await deleteWebSessionsOfUser(trx, user.id);
    return blocked;
  });
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
