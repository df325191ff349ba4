// The User model's validations as GitLab 8.13 ran them (Devise's email and password rules, identities,
// name, bio, projects_limit, username), plus the lengths its varchar(255) columns imposed.
import { isEmailTaken, usernameTaken } from '../../db/repositories/users.ts';
import { externUidTaken } from '../../db/repositories/identities.ts';
import { findNamespaceByPath } from '../../db/repositories/namespaces.ts';
import { ValidationErrors } from '../../errors.ts';
import { isValidNamespacePath, NAMESPACE_PATH_MESSAGE, RESERVED_NAMES } from '../groups/namespace-paths.ts';
import type { Executor, UserRow } from '../../db/types.ts';

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

export const USER_TEXT_ATTRIBUTES = [
  'email',
  'password',
  'name',
  'username',
  'skype',
  'linkedin',
  'twitter',
  'website_url',
  'organization',
  'bio',
  'location',
  'projects_limit',
  'provider',
  'extern_uid',
] as const;

/** GitLab's string columns were varchar(255); PostgreSQL's indexes cannot hold much longer values either. */
const COLUMN_MAXIMUM = 255;
export const EMAIL_MAXIMUM = COLUMN_MAXIMUM;
const PASSWORD_LENGTH = { minimum: 8, maximum: 128 };
const MAX_INTEGER = 2147483647;

/** Devise stripped and downcased emails before validating and saving them. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Devise 4's email format, which GitLab's primary and secondary emails both used. */
export function isEmailFormat(email: string): boolean {
  return /^[^@\s]+@[^@\s]+$/.test(email);
}

/** Characters as MySQL counted them (code points), not UTF-16 units. */
function characters(text: string): number {
  return [...text].length;
}

function checkLength(errors: ValidationErrors, field: string, value: string | undefined): void {
  if (value !== undefined && characters(value) > COLUMN_MAXIMUM) {
    errors.add(field, `is too long (maximum is ${COLUMN_MAXIMUM} characters)`);
  }
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

interface CheckedUser {
  errors: ValidationErrors;
  projectsLimit: number | undefined;
}

/**
 * The model's validations for the attributes being set, in the order GitLab's model declared them; the
 * columns GitLab bounded but never validated (skype … organization) come last. `existing` is the user
 * being modified: uniqueness then ignores the user's own rows, and only changed values are checked for
 * uniqueness, as GitLab's `if: …_changed?` conditions did.
 */
export async function validateUser(
  db: Executor,
  attrs: UserAttributes,
  existing?: UserRow,
): Promise<CheckedUser> {
  const errors = new ValidationErrors();
  const selfId = existing?.id;

  if (attrs.email !== undefined && attrs.email !== existing?.email) {
    if (await isEmailTaken(db, attrs.email, selfId)) errors.add('email', 'has already been taken');
    if (!isEmailFormat(attrs.email)) errors.add('email', 'is invalid');
    checkLength(errors, 'email', attrs.email);
  }

  if (attrs.password !== undefined) {
    const length = characters(attrs.password);
    if (length < PASSWORD_LENGTH.minimum) {
      errors.add('password', `is too short (minimum is ${PASSWORD_LENGTH.minimum} characters)`);
    }
    if (length > PASSWORD_LENGTH.maximum) {
      errors.add('password', `is too long (maximum is ${PASSWORD_LENGTH.maximum} characters)`);
    }
  }

  if (attrs.provider !== undefined || attrs.extern_uid !== undefined) {
    checkLength(errors, 'identities.provider', attrs.provider);
    checkLength(errors, 'identities.extern_uid', attrs.extern_uid);
    if (attrs.provider === undefined) errors.add('identities.provider', "can't be blank");
    else if (
      attrs.extern_uid !== undefined &&
      (await externUidTaken(db, attrs.provider, attrs.extern_uid, selfId))
    ) {
      errors.add('identities.extern_uid', 'has already been taken');
    }
  }

  checkLength(errors, 'name', attrs.name);
  checkLength(errors, 'bio', attrs.bio);

  let projectsLimit: number | undefined;
  if (attrs.projects_limit !== undefined) {
    const parsed = parseProjectsLimit(attrs.projects_limit);
    if (typeof parsed === 'string') errors.add('projects_limit', parsed);
    else projectsLimit = parsed;
  }

  if (attrs.username !== undefined && attrs.username !== existing?.username) {
    const username = attrs.username;
    if (!isValidNamespacePath(username)) errors.add('username', NAMESPACE_PATH_MESSAGE);
    // The username is the personal namespace's path, which GitLab limited to 255 characters.
    checkLength(errors, 'username', username);
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

  for (const field of ['skype', 'linkedin', 'twitter', 'website_url', 'location', 'organization'] as const) {
    checkLength(errors, field, attrs[field]);
  }
  return { errors, projectsLimit };
}
