// Creating users and signing them in through the API, as a client would.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

export interface CreatedUser {
  id: number;
  username: string;
  email: string;
  password: string;
  token: string;
}

let counter = 0;

/** POST /users as root, then POST /session for the user's private token. */
export async function createUser(t: TestApp, attributes: Record<string, unknown> = {}): Promise<CreatedUser> {
  counter += 1;
  const username = (attributes.username as string) ?? `user${counter}_${process.pid}`;
  const body = {
    email: `${username}@example.com`,
    password: 'password123',
    name: `User ${username}`,
    username,
    ...attributes,
  };
  const created = await t.request('POST', '/api/v3/users', { token: t.rootToken, body });
  assert.equal(created.status, 201, created.text);
  const session = await t.request('POST', '/api/v3/session', {
    body: { login: body.username, password: body.password },
  });
  assert.equal(session.status, 201, session.text);
  return {
    id: created.body.id,
    username: body.username as string,
    email: String(body.email).toLowerCase(),
    password: body.password as string,
    token: session.body.private_token,
  };
}

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
