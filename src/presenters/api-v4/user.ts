// API v4's user entities, layered as GitLab's are (UserBasic ⊂ User ⊂ UserPublic ⊂ UserWithAdmin), keys
// in GitLab's order, from the same rows and extras as v3's. What Labrador does not keep (pronouns, job
// title, followers, a public email, account locks) is shown as GitLab shows an account that never set it.
import { avatarUrl, presentAccount, publicState } from '../api-v3/user.ts';
import { userWebUrl } from '../../domain/paths.ts';
import type { UserBasicRow, UserFullExtras, UserRow } from '../../db/types.ts';

export function presentUserBasic(user: Omit<UserBasicRow, 'created_at'>, baseUrl: string) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: publicState(user.state),
    locked: false,
    avatar_url: avatarUrl(user, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
  };
}

/** Entities::User: what anyone signed in sees of a user with a public profile. */
export function presentUser(user: UserRow, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), {
    created_at: user.created_at,
    bio: user.bio ?? '',
    location: user.location ?? '',
    public_email: null,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    discord: '',
    website_url: user.website_url,
    organization: user.organization ?? '',
    job_title: '',
    pronouns: null,
    bot: false,
    work_information: user.organization || null,
    local_time: null,
    followers: 0,
    following: 0,
  });
}

/** Entities::UserPublic: the caller's own user (GET /user). */
function presentUserPublic(user: UserRow, baseUrl: string, extras: UserFullExtras) {
  return Object.assign(
    presentUser(user, baseUrl),
    { last_sign_in_at: user.last_sign_in_at, confirmed_at: user.confirmed_at, last_activity_on: null },
    presentAccount(user, extras),
    { private_profile: false, commit_email: user.email },
  );
}

/** Entities::UserWithAdmin: what administrators see of every user. */
export function presentUserWithAdmin(user: UserRow, baseUrl: string, extras: UserFullExtras) {
  return Object.assign(presentUserPublic(user, baseUrl, extras), { is_admin: user.admin === 1, note: null });
}

/** GET /user: administrators get UserWithAdmin, everyone else UserPublic. */
export function presentCurrentUser(model: { user: UserRow; extras: UserFullExtras }, baseUrl: string) {
  const present = model.user.admin === 1 ? presentUserWithAdmin : presentUserPublic;
  return present(model.user, baseUrl, model.extras);
}

/** GET /users: UserWithAdmin with extras (administrators), UserBasic otherwise. */
export function presentUserList(
  list: { users: UserRow[]; extras: Map<number, UserFullExtras> | null },
  baseUrl: string,
) {
  const { extras } = list;
  if (!extras) return list.users.map((user) => presentUserBasic(user, baseUrl));
  return list.users.map((user) => presentUserWithAdmin(user, baseUrl, extras.get(user.id)!));
}

/** GET /users/:id: UserWithAdmin with extras (administrators), User otherwise. */
export function presentUserFor(model: { user: UserRow; extras: UserFullExtras | null }, baseUrl: string) {
  return model.extras
    ? presentUserWithAdmin(model.user, baseUrl, model.extras)
    : presentUser(model.user, baseUrl);
}
