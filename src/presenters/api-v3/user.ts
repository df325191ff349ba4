// The only owner of the user JSON shapes, layered as GitLab's entities were (UserBasic ⊂ User ⊂
// UserFull ⊂ UserLogin): presentUserBasic ⊂ presentUser ⊂ presentUserFull ⊂ presentUserLogin. Keys in
// GitLab's order.
import crypto from 'node:crypto';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { uploadedAvatarUrl, userWebUrl } from '../../domain/paths.ts';
import type { UserBasicRow, UserFullExtras, UserRow } from '../../db/types.ts';

/** Avatar URLs by email: every user shown costs an md5 otherwise. Bounded: the oldest go first when full. */
const MAX_AVATAR_URLS = 10_000;
const avatarUrls = new BoundedMap<string, string>(MAX_AVATAR_URLS);

function emailAvatarUrl(email: string): string {
  let url = avatarUrls.get(email);
  if (url === undefined) {
    url = gravatarUrl(email, 80);
    avatarUrls.set(email, url);
  }
  return url;
}

/** A user's avatar: the uploaded one when there is one, else the address's Gravatar. */
export function avatarUrl(user: Pick<UserBasicRow, 'id' | 'email' | 'avatar'>, baseUrl: string): string {
  return uploadedAvatarUrl(baseUrl, 'user', user.id, user.avatar) ?? emailAvatarUrl(user.email);
}

/** The Gravatar (identicon when none) of an address at `size` pixels: who has uploaded no avatar. */
export function gravatarUrl(email: string, size: number): string {
  const hash = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `http://www.gravatar.com/avatar/${hash}?s=${size}&d=identicon`;
}

/** ldap_blocked is kept internal: the API shows it as blocked, one of the two states clients know. */
export function publicState(state: string): string {
  return state === 'ldap_blocked' ? 'blocked' : state;
}

export function presentUserBasic(user: Omit<UserBasicRow, 'created_at'>, baseUrl: string) {
  return {
    name: user.name,
    username: user.username,
    id: user.id,
    state: publicState(user.state),
    avatar_url: avatarUrl(user, baseUrl),
    web_url: userWebUrl(baseUrl, user.username),
  };
}

// The larger shapes extend the smaller ones with Object.assign: a spread into a new literal copied every
// field again and built a slower object (it showed in profiles of GET /user).
export function presentUser(user: UserRow, baseUrl: string) {
  return Object.assign(presentUserBasic(user, baseUrl), {
    created_at: user.created_at,
    is_admin: user.admin === 1,
    bio: user.bio,
    location: user.location,
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.website_url,
    organization: user.organization ?? '',
  });
}

/** The account's settings and rights, from email to external: the same run in v3's UserFull and v4's UserPublic. */
export function presentAccount(user: UserRow, extras: UserFullExtras) {
  return {
    email: user.email,
    theme_id: user.theme_id,
    color_scheme_id: user.color_scheme_id,
    projects_limit: user.projects_limit,
    current_sign_in_at: user.current_sign_in_at,
    identities: extras.identities.map((identity) => ({
      provider: identity.provider,
      extern_uid: identity.extern_uid,
    })),
    can_create_group: user.can_create_group === 1,
    can_create_project: user.projects_limit - extras.personalProjectCount > 0,
    two_factor_enabled: user.two_factor_enabled === 1,
    external: user.external === 1,
  };
}

export function presentUserFull(user: UserRow, baseUrl: string, extras: UserFullExtras) {
  return Object.assign(
    presentUser(user, baseUrl),
    { last_sign_in_at: user.last_sign_in_at, confirmed_at: user.confirmed_at },
    presentAccount(user, extras),
  );
}

export function presentUserLogin(user: UserRow, baseUrl: string, extras: UserFullExtras) {
  return Object.assign(presentUserFull(user, baseUrl, extras), { private_token: user.authentication_token });
}

/** A list as the viewer may see it: the full form with extras (administrators), the basic one otherwise. */
export function presentUserList(
  list: { users: UserRow[]; extras: Map<number, UserFullExtras> | null },
  baseUrl: string,
) {
  const { extras } = list;
  if (!extras) return list.users.map((user) => presentUserBasic(user, baseUrl));
  return list.users.map((user) => presentUserFull(user, baseUrl, extras.get(user.id)!));
}

/** One user as the viewer may see it: the full form with extras, the User entity otherwise. */
export function presentUserFor(model: { user: UserRow; extras: UserFullExtras | null }, baseUrl: string) {
  return model.extras ? presentUserFull(model.user, baseUrl, model.extras) : presentUser(model.user, baseUrl);
}
