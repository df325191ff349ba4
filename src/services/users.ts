// Business operations on users. Every write that creates a user also creates its personal namespace,
// in one transaction.
import type { Deps } from '../deps.ts';
import type { Executor, UserRow } from '../db/repositories/users.ts';
import { identitiesByUser } from '../db/repositories/users.ts';
import { countPersonalProjects } from '../db/repositories/projects.ts';
import type { UserFullExtras } from '../presenters/user.ts';
import { now } from '../db/errors.ts';
import { hashPassword } from './passwords.ts';

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password: string;
  authenticationToken: string;
  admin?: boolean;
  confirmed?: boolean;
}

/** Inserts the user and its personal namespace; validation is the caller's job. */
export async function insertUserWithNamespace(db: Executor, input: NewUser): Promise<UserRow> {
  const at = now();
  const encrypted = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        username: input.username,
        name: input.name,
        email: input.email,
        encrypted_password: encrypted,
        authentication_token: input.authenticationToken,
        state: 'active',
        admin: input.admin ? 1 : 0,
        external: 0,
        can_create_group: 1,
        projects_limit: 10,
        bio: null,
        location: null,
        skype: '',
        linkedin: '',
        twitter: '',
        website_url: '',
        organization: null,
        theme_id: 1,
        color_scheme_id: 1,
        two_factor_enabled: 0,
        confirmed_at: input.confirmed === false ? null : at,
        last_sign_in_at: null,
        current_sign_in_at: null,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('namespaces')
      .values({
        name: input.username,
        path: input.username,
        owner_id: user.id,
        type: null,
        description: '',
        visibility_level: 20,
        request_access_enabled: 0,
        lfs_enabled: 1,
        share_with_group_lock: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return user;
  });
}

export async function loadUserFullExtras(deps: Deps, userId: number): Promise<UserFullExtras> {
  const [identities, personalProjectCount] = await Promise.all([
    identitiesByUser(deps.db.kysely, [userId]),
    countPersonalProjects(deps.db.kysely, userId),
  ]);
  return { identities: identities.get(userId) ?? [], personalProjectCount };
}
